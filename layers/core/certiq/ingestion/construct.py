"""Building contract models from values that are already right, without validating them again.

Parsing a page makes about a hundred boxes and fifty sentences; validating each costs more than
pdfium takes to read the page. The parser and the chunker build them from floats, ints and
strings they computed themselves, so they use a constructor from here. pydantic's own
model_construct does the same but also fills defaults field by field, which makes it slower
than validating. tests/unit/test_chunking.py checks that constructed models equal validated
ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def constructor(model: type[M]) -> Callable[[dict[str, Any]], M]:
    """A function making instances of `model` from dicts naming every field, unvalidated.

    Every field is set, so all instances share one fields-set: pydantic only ever adds names to
    it (on assignment), and every name is already there.
    """
    fields_set = set(model.model_fields)
    new = model.__new__
    set_attribute = object.__setattr__

    def make(values: dict[str, Any]) -> M:
        instance = new(model)
        set_attribute(instance, "__dict__", values)
        set_attribute(instance, "__pydantic_fields_set__", fields_set)
        set_attribute(instance, "__pydantic_extra__", None)
        set_attribute(instance, "__pydantic_private__", None)
        return instance

    return make
