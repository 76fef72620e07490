"""Adapters built on first use.

A Lambda function builds the whole Deps on its first invocation, but each step uses a few of
them: Validate needs the question store, not the verifier's model, the OpenSearch client or the
URL checker. ``lazy(factory)`` stands in for ``factory()`` and builds it the first time one of its
attributes is read, once, whichever thread asks first; every later read goes to the built
object. A step pays for what it touches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

_UNBUILT: Any = object()


class _Lazy:
    __slots__ = ("_factory", "_lock", "_value")

    def __init__(self, factory: Callable[[], Any]) -> None:
        object.__setattr__(self, "_factory", factory)
        object.__setattr__(self, "_lock", threading.Lock())
        object.__setattr__(self, "_value", _UNBUILT)

    def _built(self) -> Any:
        value = object.__getattribute__(self, "_value")
        if value is _UNBUILT:
            with object.__getattribute__(self, "_lock"):
                value = object.__getattribute__(self, "_value")
                if value is _UNBUILT:
                    value = object.__getattribute__(self, "_factory")()
                    object.__setattr__(self, "_value", value)
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self._built(), name)

    def __repr__(self) -> str:
        value = object.__getattribute__(self, "_value")
        return "<lazy, not built yet>" if value is _UNBUILT else f"<lazy {value!r}>"


def lazy(factory: Callable[[], T]) -> T:
    """An object that is ``factory()`` from its first use on; typed as what it stands for."""
    return cast(T, _Lazy(factory))


def is_built(value: object) -> bool:
    """False for a lazy object not used yet; True for anything else."""
    return not isinstance(value, _Lazy) or object.__getattribute__(value, "_value") is not _UNBUILT


def built(value: T) -> T:
    """The object itself: a lazy one built (if it was not yet), anything else as it is."""
    if isinstance(value, _Lazy):
        return cast(T, value._built())
    return value
