"""Reading an ASL definition: its JSON paths and its objects' fields, checked as they are read.

Part of certiq.statemachine.interpreter, which compiles and runs the definition; split out to
keep each file readable on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_MISSING: Any = object()  # distinguishes "field absent" from "field is JSON null"


class AslError(ValueError):
    """The definition is invalid or uses something this interpreter does not support."""


# --------------------------------------------------------------------------- paths

_SEGMENT = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


class PathFailure(Exception):
    pass


@dataclass(frozen=True, slots=True)
class JsonPath:
    """A compiled simple JSONPath: ``$`` followed by ``.name`` and ``[index]`` segments."""

    text: str
    segments: tuple[str | int, ...]

    def read(self, data: Any) -> Any:
        value = data
        for seg in self.segments:
            if isinstance(seg, str):
                if not isinstance(value, dict) or seg not in value:
                    raise PathFailure(f"path {self.text!r} not found in the input")
                value = value[seg]
            else:
                if not isinstance(value, list) or seg >= len(value):
                    raise PathFailure(f"path {self.text!r} not found in the input")
                value = value[seg]
        return value

    def write(self, data: Any, result: Any) -> Any:
        """Return a copy of ``data`` with ``result`` at this path.

        Only the dicts along the path are (shallowly) copied: enough never to mutate the caller's
        input, without deep-copying payloads the write does not touch.
        """
        if not self.segments:
            return result
        if not isinstance(data, dict):
            raise PathFailure(f"cannot write {self.text!r}: the input is not an object")
        root = dict(data)
        node = root
        for seg in self.segments[:-1]:
            assert isinstance(seg, str)  # compile() rejects indexes in ResultPath
            child = node.get(seg, _MISSING)
            if child is _MISSING:
                child = {}
            elif isinstance(child, dict):
                child = dict(child)
            else:
                raise PathFailure(f"cannot write {self.text!r}: {seg!r} is not an object")
            node[seg] = child
            node = child
        last = self.segments[-1]
        assert isinstance(last, str)
        node[last] = result
        return root


def compile_path(text: Any, where: str, *, writable: bool = False) -> JsonPath:
    if not isinstance(text, str) or not text.startswith("$"):
        raise AslError(f"{where}: expected a JSONPath starting with '$', got {text!r}")
    if text.startswith("$$"):
        raise AslError(f"{where}: the context object ($$) is not supported: {text!r}")
    segments: list[str | int] = []
    pos = 1
    while pos < len(text):
        m = _SEGMENT.match(text, pos)
        if m is None:
            raise AslError(f"{where}: unsupported JSONPath {text!r} (use $, $.a.b or $.a[0])")
        if m.group(1) is not None:
            segments.append(m.group(1))
        else:
            if writable:
                raise AslError(f"{where}: array indexes cannot be written: {text!r}")
            segments.append(int(m.group(2)))
        pos = m.end()
    return JsonPath(text, tuple(segments))


# --------------------------------------------------------------------------- fields


class Fields:
    """Typed access to one JSON object of the definition, with a clear error on bad input."""

    def __init__(self, raw: Any, where: str, allowed: frozenset[str]) -> None:
        if not isinstance(raw, dict):
            raise AslError(f"{where}: expected an object")
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise AslError(f"{where}: unsupported field(s) {', '.join(unknown)}")
        self.raw: dict[str, Any] = raw
        self.where = where

    def has(self, key: str) -> bool:
        return key in self.raw

    def str_(self, key: str, *, required: bool = False) -> str | None:
        value = self.raw.get(key)
        if value is None:
            if required:
                raise AslError(f"{self.where}: {key} is required")
            return None
        if not isinstance(value, str) or not value:
            raise AslError(f"{self.where}: {key} must be a non-empty string")
        return value

    def number(self, key: str, default: float | None, *, minimum: float, integer: bool) -> Any:
        value = self.raw.get(key, _MISSING)
        if value is _MISSING:
            return default
        ok_type = isinstance(value, int) if integer else isinstance(value, int | float)
        if isinstance(value, bool) or not ok_type or value < minimum:
            kind = "an integer" if integer else "a number"
            raise AslError(f"{self.where}: {key} must be {kind} >= {minimum}, got {value!r}")
        return value

    def path(self, key: str, *, writable: bool = False) -> JsonPath | None:
        """A path field: default ``$``; None when the field is JSON null."""
        value = self.raw.get(key, "$")
        if value is None:
            return None
        return compile_path(value, f"{self.where}.{key}", writable=writable)
