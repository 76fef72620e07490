"""The local index's hits read back without validating (certiq.adapters.local.stored_chunks).

A hit's chunk is parsed from the JSON the index stored when it is first used, and built without
pydantic's validation: what the caller gets must be what validating that JSON gives, in every
respect pydantic shows (==, the dumped JSON and its key order, repr, copies), whenever and
however it is first looked at.
"""

from __future__ import annotations

import copy
import json
import pickle
import threading
import types
import typing
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.adapters.local.stored_chunks import StoredChunk, parse_chunk, read_hits
from certiq.models import Chunk, SearchHit, Sentence, TableCell
from tests.fakes import make_chunk

NORTH = [1.0, 0.0, 0.0]


def rich_chunk(doc_id: str = "rich") -> Chunk:
    """A chunk using every optional part: boxes, a table row, a section, OCR, a collection."""
    chunk = make_chunk(
        "Refunds take five days. Parcels are tracked by the courier",
        doc_id=doc_id,
        collection="hr",
        embedding=NORTH,
    )
    first, second = chunk.sentences
    return chunk.model_copy(
        update={
            "ocr_confidence": 0.75,
            "sentences": [
                first.model_copy(update={"section": "Refunds", "addresses_assistant": True}),
                second.model_copy(update={"cells": [TableCell(column="Carrier", text="courier")]}),
            ],
        }
    )


@pytest.fixture
def index(db: SqliteDatabase) -> SqliteSearchIndex:
    searched = SqliteSearchIndex(db, vector_model="test-model")
    searched.index([rich_chunk(), make_chunk("Salaries are paid monthly.", doc_id="plain")])
    return searched


def stored_body(db: SqliteDatabase, doc_id: str) -> str:
    with db.read() as conn:
        row = conn.execute("SELECT body FROM chunks WHERE doc_id = ?", (doc_id,)).fetchone()
    body: str = row[0]
    return body


def hits_of(db: SqliteDatabase) -> list[tuple[SearchHit, Chunk]]:
    """Every row of the index as a hit, none of its chunks used yet, beside the chunk that
    validating the row's JSON gives."""
    with db.read() as conn:
        rows = conn.execute("SELECT id, body FROM chunks ORDER BY id").fetchall()
        hits = read_hits(conn, [(row_id, 1.5) for row_id, _ in rows])
    assert all(type(hit.__dict__["chunk"]) is StoredChunk for hit in hits)
    return [
        (hit, Chunk.model_validate_json(body)) for hit, (_, body) in zip(hits, rows, strict=True)
    ]


def test_a_hit_s_chunk_is_the_indexed_chunk_without_its_embedding(
    index: SqliteSearchIndex,
) -> None:
    # GIVEN a chunk with every optional part, indexed with a vector
    # WHEN it is found
    [hit] = index.search("tenant-a", "refunds courier", k=5)

    # THEN its chunk is the one indexed, without the embedding, and a plain Chunk once used
    assert hit.chunk == rich_chunk().model_copy(update={"embedding": None})
    assert type(hit.chunk) is Chunk
    # AND get_chunks parses it at once, with its vector
    assert index.get_chunks("tenant-a", [hit.chunk.chunk_id])[hit.chunk.chunk_id] == rich_chunk()


@pytest.mark.parametrize(
    "first_use",
    [
        lambda chunk: chunk.text,
        lambda chunk: chunk.model_dump(),
        lambda chunk: chunk.model_dump_json(),
        lambda chunk: repr(chunk),
        lambda chunk: copy.copy(chunk).text,
        lambda chunk: copy.deepcopy(chunk).text,
        lambda chunk: pickle.loads(pickle.dumps(chunk)).text,
        lambda chunk: vars(chunk),
        lambda chunk: dict(chunk),
        lambda chunk: chunk.model_copy(update={"text": "changed"}),
        lambda chunk: setattr(chunk, "embedding", [0.0, 1.0]),
    ],
    ids=[
        "field",
        "dump",
        "dump_json",
        "repr",
        "copy",
        "deepcopy",
        "pickle",
        "vars",
        "dict",
        "model_copy",
        "setattr",
    ],
)
def test_a_chunk_first_used_in_any_way_is_the_validated_chunk(
    index: SqliteSearchIndex, db: SqliteDatabase, first_use: Any
) -> None:
    for hit, expected in hits_of(db):
        # WHEN a hit's chunk is first used in this way
        first_use(hit.chunk)

        # THEN it has become what validating its JSON gives, in every respect pydantic shows
        if hit.chunk.embedding is not None:  # the setattr case
            expected.embedding = [0.0, 1.0]
        assert type(hit.chunk) is Chunk
        assert hit.chunk == expected and expected == hit.chunk
        assert hit.chunk.model_dump_json() == expected.model_dump_json()
        assert repr(hit.chunk) == repr(expected)


def test_a_hit_compared_or_dumped_before_its_chunk_is_used_shows_the_whole_chunk(
    index: SqliteSearchIndex, db: SqliteDatabase
) -> None:
    # GIVEN hits whose chunks are unused, WHEN the hits themselves are dumped or compared
    for hit, expected in hits_of(db):
        assert hit.model_dump_json() == SearchHit(chunk=expected, score=1.5).model_dump_json()
    for hit, expected in hits_of(db):
        assert SearchHit(chunk=expected, score=1.5) == hit
    for hit, expected in hits_of(db):
        assert hit == SearchHit(chunk=expected, score=1.5)
        # AND a model holding one takes it as it is
        assert SearchHit.model_validate({"chunk": hit.chunk, "score": 2}).chunk is hit.chunk


def test_the_source_is_read_without_parsing_the_chunk(
    index: SqliteSearchIndex, db: SqliteDatabase
) -> None:
    for hit, expected in hits_of(db):
        chunk = hit.chunk
        # WHEN its source is read
        source = chunk.source
        assert source == expected.source and chunk.source is source

        # THEN the chunk is still unparsed; parsed later, it keeps the source handed out
        assert type(chunk) is StoredChunk
        assert chunk.sentences == expected.sentences
        assert type(chunk) is Chunk and chunk.source is source
        assert chunk == expected


def test_each_hit_has_a_chunk_of_its_own(index: SqliteSearchIndex, db: SqliteDatabase) -> None:
    with db.read() as conn:
        row_id = conn.execute("SELECT id FROM chunks WHERE doc_id = 'plain'").fetchone()[0]
        first, second = read_hits(conn, [(row_id, 2.0), (row_id, 1.0), (row_id + 99, 0.5)])
    first.chunk.sentences[0].text = "changed"
    assert second.chunk.sentences[0].text != "changed"
    assert (first.score, second.score) == (2.0, 1.0)


def test_chunks_first_used_by_several_threads_at_once_are_whole(
    index: SqliteSearchIndex, db: SqliteDatabase
) -> None:
    # GIVEN 400 unused hits of the same row
    with db.read() as conn:
        row_id = conn.execute("SELECT id FROM chunks WHERE doc_id = 'rich'").fetchone()[0]
        hits = read_hits(conn, [(row_id, 1.0)] * 400)
    expected = Chunk.model_validate_json(stored_body(db, "rich"))
    sources: list[Any] = []
    uses = [
        lambda chunk: sources.append(chunk.source),
        lambda chunk: chunk.sentences[1].cells,
        lambda chunk: chunk.model_dump_json(),
        lambda chunk: chunk == expected,
    ]
    start = threading.Barrier(len(uses))

    def use_all(use: Any) -> None:
        start.wait()
        for hit in hits:
            use(hit.chunk)

    # WHEN threads use them in different ways at the same time
    threads = [threading.Thread(target=use_all, args=(use,)) for use in uses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN every one is the whole chunk, parsed once: the source handed out is its own
    assert all(type(hit.chunk) is Chunk and hit.chunk == expected for hit in hits)
    assert all(source is hit.chunk.source for source, hit in zip(sources, hits, strict=True))
    assert {hit.chunk.model_dump_json() for hit in hits} == {expected.model_dump_json()}


def edited(body: str, edit: Any) -> str:
    values = json.loads(body)
    edit(values)
    return json.dumps(values)


def drop(values: dict[str, Any], *names: str) -> None:
    for name in names:
        del values[name]


def reverse(values: list[dict[str, Any]], number: int) -> None:
    values[number] = dict(reversed(values[number].items()))


# Bodies of the shapes certiq wrote or could have written: each is parsed as validated.
SHAPES = {
    "as stored": lambda values: None,
    "an old chunk without collection and OCR": lambda values: drop(
        values, "collection", "ocr_confidence"
    ),
    "an old sentence without the assistant flag": lambda values: drop(
        values["sentences"][0], "addresses_assistant"
    ),
    "a section without cells": lambda values: values["sentences"][1].update(
        cells=None, section="Carriers"
    ),
    "keys in another order": lambda values: reverse(values["sentences"], 0),
    "integers in float fields": lambda values: (
        values["sentences"][0]["boxes"][0].update(x0=72, page_width=612),
        values.update(ocr_confidence=1),
    ),
    "an embedding": lambda values: values.update(embedding=[1, 0.5]),
    "a blank collection and empty lists": lambda values: (
        values.update(collection=None),
        values["sentences"][0].update(boxes=[]),
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_stored_json_is_built_as_validating_it_would_build_it(
    index: SqliteSearchIndex, db: SqliteDatabase, shape: str
) -> None:
    body = edited(stored_body(db, "rich"), SHAPES[shape])
    built, expected = parse_chunk(body), Chunk.model_validate_json(body)
    assert built == expected
    assert built.model_dump_json() == expected.model_dump_json()  # key order included
    assert repr(built) == repr(expected)
    assert [type(box.x0) for sentence in built.sentences for box in sentence.boxes] == [
        float for sentence in expected.sentences for box in sentence.boxes
    ]
    assert type(built.ocr_confidence) is type(expected.ocr_confidence)


@pytest.mark.parametrize(
    "edit",
    [
        lambda values: values.update(unknown="field"),
        lambda values: values["source"].update(unknown="field"),
        lambda values: drop(values, "text"),
        lambda values: values.update(ocr_confidence="high"),
        lambda values: values["sentences"][0].update(boxes={"x0": 1}),
        lambda values: drop(values, "source"),
    ],
    ids=["unknown field", "unknown nested field", "missing field", "string", "dict", "no source"],
)
def test_json_of_another_shape_raises_as_validating_it_does(
    index: SqliteSearchIndex, db: SqliteDatabase, edit: Any
) -> None:
    body = edited(stored_body(db, "rich"), edit)
    with pytest.raises(ValidationError):
        Chunk.model_validate_json(body)
    with pytest.raises(ValidationError):
        parse_chunk(body)
    # AND a hit read from such a row raises when its chunk is first used
    with db.transaction() as conn:
        conn.execute("UPDATE chunks SET body = ? WHERE doc_id = 'rich'", (body,))
    with db.read() as conn:
        row_id = conn.execute("SELECT id FROM chunks WHERE doc_id = 'rich'").fetchone()[0]
        [hit] = read_hits(conn, [(row_id, 1.0)])
    with pytest.raises(ValidationError):
        _ = hit.chunk.source.uri, hit.chunk.sentences


def models_in(model: type[BaseModel]) -> set[type[BaseModel]]:
    """The models a model's fields hold, at any depth."""
    found: set[type[BaseModel]] = set()
    for field in model.model_fields.values():
        pending: list[Any] = [field.annotation]
        while pending:
            annotation = pending.pop()
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                if annotation not in found:
                    found.add(annotation)
                    found |= models_in(annotation)
            elif typing.get_origin(annotation) in (list, typing.Union, types.UnionType):
                pending.extend(typing.get_args(annotation))
    return found


def test_only_chunk_has_a_source_field_so_the_source_is_found_alone() -> None:
    # The source is parsed alone by finding the first '"source":' in the stored JSON.
    assert Sentence in models_in(Chunk)
    assert [model for model in models_in(Chunk) if "source" in model.model_fields] == []
