"""Chunks read back as the local index stored them: one SQL query per read, parsed when used.

``chunks.body`` holds what certiq.adapters.local.fts_index wrote, each chunk's
``model_dump_json`` without its embedding: certiq's own output, so it is not validated again.
``read_hits`` reads the rows of a ranking in one query and hands out each hit's chunk as a
StoredChunk: it keeps its row's JSON, gives its ``source`` parsed on its own, and turns into a
plain Chunk, parsed whole, the first time anything else of it is looked at (another field, a
method, its ``__dict__``). So a caller that keeps 200 hits and reads their sources (``certiq
eval retrieval``) parses 200 sources, and one that reads the sentences of 8 parses 8 chunks.

Parsing builds the models from the parsed JSON without validating (certiq.ingestion.construct),
as pydantic would from JSON that passes: fields in the model's order, defaults where the JSON
leaves a field out (``exclude_if``, the embedding), integers in float fields made floats, every
field counted as set (as construct's models are). JSON of another shape (a field the model lacks,
a required one missing, a value of another type) is validated by pydantic instead, which raises
as before, now when the chunk is first used.

The stored vectors of rows added since an in-memory index was built are read here too
(``read_vectors``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Final

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import from_json

from certiq.adapters.local.dense import blob_vector
from certiq.ingestion.construct import constructor
from certiq.models import Chunk, SearchHit, SourceRef

# Bound parameters per IN (...) list: far below SQLite's limit.
IN_BATCH: Final = 500


def select_in(
    conn: sqlite3.Connection,
    select: str,
    keys: Sequence[object],
    *,
    column: str = "id",
    where: tuple[str, tuple[object, ...]] | None = None,
) -> list[Any]:
    """Rows of ``select`` whose ``column`` is among keys, in batches of bound parameters."""
    rows: list[Any] = []
    for start in range(0, len(keys), IN_BATCH):
        batch = list(keys[start : start + IN_BATCH])
        condition = f"{column} IN ({', '.join('?' * len(batch))})"
        parameters: list[object] = batch
        if where is not None:
            condition = f"{where[0]} AND {condition}"
            parameters = [*where[1], *batch]
        rows.extend(conn.execute(f"{select} WHERE {condition}", parameters).fetchall())
    return rows


# -- building models from JSON certiq wrote ---------------------------------------------------


class _Unexpected(ValueError):
    """The JSON is not the shape the builder knows: pydantic validates it instead."""


class _Builder:
    """Builds one model, and the models in its fields, from parsed JSON without validating."""

    def __init__(self, model: type[BaseModel]) -> None:
        fields = model.model_fields
        self._make = constructor(model)
        self._names = tuple(fields)
        required = [number for number, field in enumerate(fields.values()) if field.is_required()]
        self._shortest = required[-1] + 1 if required else 0  # a shorter prefix lacks one
        self._required = frozenset(self._names[number] for number in required)
        self._defaults = {
            name: _default_of(field) for name, field in fields.items() if not field.is_required()
        }
        conversions = ((name, _converter(field.annotation)) for name, field in fields.items())
        self.conversions = tuple((name, convert) for name, convert in conversions if convert)

    def __call__(self, values: Any) -> Any:
        if type(values) is not dict:
            raise _Unexpected(values)
        keys = tuple(values)
        if keys != self._names:
            values = self._complete(values, keys)
        for name, convert in self.conversions:
            values[name] = convert(values[name])
        return self._make(values)

    def _complete(self, values: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
        """The values with defaults for the fields left out, in the model's order."""
        names = self._names
        if len(keys) >= self._shortest and keys == names[: len(keys)]:
            for name in names[len(keys) :]:  # the usual case: trailing fields left out
                values[name] = self._defaults[name]()
            return values
        if not values.keys() <= set(names) or not self._required <= values.keys():
            raise _Unexpected(keys)
        return {name: values[name] if name in values else self._defaults[name]() for name in names}


def _default_of(field: FieldInfo) -> Callable[[], Any]:
    """The field's default as pydantic gives it: made anew when made by a factory or mutable."""
    if field.default_factory is None and isinstance(field.default, _IMMUTABLE):
        value = field.default
        return lambda: value
    return lambda: field.get_default(call_default_factory=True)


_IMMUTABLE: Final = (type(None), bool, int, float, str, bytes, tuple, frozenset)


_BUILDERS: dict[type[BaseModel], _Builder] = {}


def _builder(model: type[BaseModel]) -> _Builder:
    if model not in _BUILDERS:
        _BUILDERS[model] = _Builder(model)
    return _BUILDERS[model]


def _converter(annotation: Any) -> Callable[[Any], Any] | None:
    """What a field's JSON value needs to become the value pydantic would give; None: nothing.

    Strings, integers, booleans and literals are taken as they are (certiq wrote them); a type
    not known here makes every value of the field unexpected, so pydantic validates the chunk.
    """
    optional = False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        arguments = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        optional = len(arguments) < len(typing.get_args(annotation))
        annotation = arguments[0] if len(arguments) == 1 else object
    if typing.get_origin(annotation) is list:
        item = _one_converter(typing.get_args(annotation)[0])
        convert = _as_list if item is None else _list_of(item)
    else:
        found = _one_converter(annotation)
        if found is None:
            return None
        convert = found
    if not optional:
        return convert
    return lambda value: None if value is None else convert(value)


def _one_converter(annotation: Any) -> Callable[[Any], Any] | None:
    if typing.get_origin(annotation) is None and _is_model(annotation):
        return _builder(annotation)
    if annotation is float:
        return _float
    if annotation in (str, int, bool) or typing.get_origin(annotation) is typing.Literal:
        return None
    return _unknown


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _list_of(convert: Callable[[Any], Any]) -> Callable[[Any], list[Any]]:
    def each(values: Any) -> list[Any]:
        return [convert(value) for value in _as_list(values)]

    return each


def _as_list(values: Any) -> list[Any]:
    if type(values) is not list:
        raise _Unexpected(values)
    return values


def _float(value: Any) -> float:
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise _Unexpected(value)


def _unknown(value: Any) -> Any:
    raise _Unexpected(value)


_CHUNK: Final = _builder(Chunk)
_SOURCE: Final = _builder(SourceRef)


def parse_chunk(body: str) -> Chunk:
    """A chunk from the JSON the index stored, validated only when it is not the usual shape."""
    try:
        chunk: Chunk = _CHUNK(from_json(body))
    except ValueError:  # unexpected shape, or not JSON: pydantic's error, as before
        return Chunk.model_validate_json(body)
    return chunk


# -- chunks parsed when used ------------------------------------------------------------------

_BODY: Final = "\x00body"  # where a StoredChunk keeps its JSON until it is parsed
_SOURCE_KEY: Final = '"source":'  # no model in a chunk but Chunk has a field of that name
_DECODER: Final = json.JSONDecoder()
_get: Final = object.__getattribute__
_set: Final = object.__setattr__
_new: Final = object.__new__
# Held while a chunk is parsed, so each is parsed once and every thread sees that one parse.
_PARSING: Final = threading.RLock()


class StoredChunk(Chunk):
    """A chunk read from the index, parsed when first used (see the module's docstring).

    Every attribute lookup passes through ``__getattribute__``, pydantic's own included (its
    serialiser, ``==``, ``repr`` and copies read ``__dict__``): all but ``source`` parse the
    whole chunk first and make the object a plain Chunk.
    """

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        if name == "source":
            return _source(self)
        _parse(self)
        return _get(self, name)


def _source(chunk: StoredChunk) -> SourceRef:
    """The chunk's source: parsed alone the first time, kept for when the chunk is parsed."""
    with _PARSING:
        values = _get(chunk, "__dict__")
        if "source" not in values:
            source = _stored_source(values[_BODY])
            if source is None:
                return _parse(chunk)
            values["source"] = source
        found: SourceRef = values["source"]
        return found


def _stored_source(body: str) -> SourceRef | None:
    """The chunk's source alone, from its JSON; None where it cannot be found on its own."""
    start = body.find(_SOURCE_KEY)
    if start < 0:
        return None
    try:
        source: SourceRef = _SOURCE(_DECODER.raw_decode(body, start + len(_SOURCE_KEY))[0])
    except ValueError:
        return None
    return source


def _parse(chunk: StoredChunk) -> SourceRef:
    """Makes the stored chunk a plain, whole Chunk, once; returns its source."""
    with _PARSING:
        values = _get(chunk, "__dict__")
        body = values.get(_BODY)
        if body is not None:  # else parsed already (by another thread, or a copy's original)
            whole = parse_chunk(body)
            parsed = _get(whole, "__dict__")
            if "source" in values:  # the source already handed out stays the chunk's own
                parsed["source"] = values["source"]
            _set(chunk, "__pydantic_fields_set__", _get(whole, "__pydantic_fields_set__"))
            _set(chunk, "__pydantic_extra__", None)
            _set(chunk, "__pydantic_private__", None)
            _set(chunk, "__dict__", parsed)
        _set(chunk, "__class__", Chunk)
        source: SourceRef = _get(chunk, "__dict__")["source"]
        return source


_new_hit: Final = constructor(SearchHit)


def read_hits(conn: sqlite3.Connection, ranked: Sequence[tuple[int, float]]) -> list[SearchHit]:
    """The ranked rows as hits, in order, their chunks parsed when used; rows gone are left out."""
    bodies = dict(select_in(conn, "SELECT id, body FROM chunks", [key for key, _ in ranked]))
    hits: list[SearchHit] = []
    for row_id, score in ranked:
        body = bodies.get(row_id)
        if body is None:
            continue  # deleted since it was ranked
        # Only its __dict__ is set: pydantic's other slots are read through __getattribute__,
        # which parses the chunk and sets them first.
        chunk = _new(StoredChunk)
        _set(chunk, "__dict__", {_BODY: body})
        hits.append(_new_hit({"chunk": chunk, "score": float(score)}))
    return hits


def read_chunks(
    conn: sqlite3.Connection, tenant: str, chunk_ids: Sequence[str]
) -> dict[str, Chunk]:
    """The tenant's chunks of these ids, parsed now, each with its stored vector if any."""
    found: dict[str, Chunk] = {}
    for chunk_id, body, blob in select_in(
        conn,
        "SELECT c.chunk_id, c.body, v.vector FROM chunks AS c"
        " LEFT JOIN chunk_vectors AS v ON v.id = c.id",
        list(dict.fromkeys(chunk_ids)),
        column="c.chunk_id",
        where=("c.tenant = ?", (tenant,)),
    ):
        chunk = parse_chunk(body)
        if blob is not None:
            chunk.embedding = blob_vector(blob).tolist()
        found[chunk_id] = chunk
    return found


def read_vectors(
    conn: sqlite3.Connection, tenant: str, model: str, row_ids: Sequence[int]
) -> list[tuple[int, str | None, bytes]]:
    """(row id, collection, vector) of the rows' vectors of the model, in the rows' order."""
    found = select_in(
        conn,
        "SELECT id, collection, vector FROM chunk_vectors",
        row_ids,
        where=("tenant = ? AND model = ?", (tenant, model)),
    )
    order = {row_id: number for number, row_id in enumerate(row_ids)}
    found.sort(key=lambda row: order[row[0]])
    return [(int(row_id), collection, blob) for row_id, collection, blob in found]
