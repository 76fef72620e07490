"""The local engine's in-memory indexes catch up with the change log instead of rebuilding.

The rebuild thresholds are lowered so a handful of chunks count as a large index; what is
checked is that a caught-up index answers as one built afresh would (same hits), that it was
caught up (the same object), and when it is rebuilt instead.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from certiq.adapters.local import fts_index
from certiq.adapters.local import rows as local_rows
from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.lexical import TenantLexicon
from certiq.adapters.local.rows import Changes, RowTable
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.models import SearchHit
from tests.fakes import make_chunk

TEXTS = [
    "Refunds are accepted within 30 days of purchase.",
    "Shipping takes five working days.",
    "Salaries are paid on the last working day of each month.",
    "Receipts are kept for seven years by the finance team.",
    "Tracking numbers are emailed when the parcel ships.",
    "Parcels are tracked by the courier.",
]
NORTH, EAST = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]


@pytest.fixture(autouse=True)
def small_indexes_catch_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fts_index, "REBUILD_BELOW", 1)
    monkeypatch.setattr(fts_index, "REBUILD_SHARE", 10.0)


@pytest.fixture
def index(db: SqliteDatabase) -> SqliteSearchIndex:
    searched = SqliteSearchIndex(db, vector_model="test-model")
    searched.index(
        [
            make_chunk(text, doc_id=f"d{i}", embedding=NORTH if i == 0 else EAST)
            for i, text in enumerate(TEXTS)
        ]
    )
    return searched


@pytest.fixture
def fresh(db: SqliteDatabase) -> Iterator[SqliteSearchIndex]:
    """Another process's index over the same file, built only when first searched."""
    other = SqliteDatabase(db.path.parent)
    yield SqliteSearchIndex(other, vector_model="test-model")
    other.close()


def docs(hits: list[SearchHit]) -> list[str]:
    return [hit.chunk.doc_id for hit in hits]


def test_an_added_and_a_deleted_document_are_caught_up_not_rebuilt(
    index: SqliteSearchIndex, fresh: SqliteSearchIndex
) -> None:
    # GIVEN a searched tenant (its indexes built)
    assert sorted(docs(index.search("tenant-a", "parcel", k=5))) == ["d4", "d5"]
    assert docs(index.search_vector("tenant-a", NORTH, k=1)) == ["d0"]
    lexicon, vectors = index._lexicons["tenant-a"], index._vectors["tenant-a"]

    # WHEN a document is added and another deleted
    index.index([make_chunk("A parcel locker holds parcels.", doc_id="new", embedding=NORTH)])
    assert index.delete_document("tenant-a", "d4") == 1

    # THEN the next searches see both, from the same indexes caught up
    assert sorted(docs(index.search("tenant-a", "parcel", k=5))) == ["d5", "new"]
    assert docs(index.search_vector("tenant-a", NORTH, k=2)) == ["d0", "new"]
    assert index._lexicons["tenant-a"] is lexicon
    assert index._vectors["tenant-a"] is vectors
    # AND they hold the hits an index built afresh holds
    for query in ("parcel", "working days", "refunds receipts", "courier tracked"):
        assert docs(index.search("tenant-a", query, k=5)) == docs(
            fresh.search("tenant-a", query, k=5)
        )


def test_a_write_by_another_process_is_caught_up(
    index: SqliteSearchIndex, fresh: SqliteSearchIndex
) -> None:
    # GIVEN a reader whose indexes are built
    assert fresh.search("tenant-a", "zebra", k=5) == []
    assert docs(fresh.search_vector("tenant-a", NORTH, k=1)) == ["d0"]

    # WHEN another process writes a chunk and replaces one
    index.index([make_chunk("A zebra crossing.", doc_id="zebra", embedding=NORTH)])
    index.index([make_chunk("Refunds take 14 days.", doc_id="d0", embedding=EAST)])

    # THEN the reader's next searches see the new chunk and the replaced one's new text only
    assert docs(fresh.search("tenant-a", "zebra", k=5)) == ["zebra"]
    assert docs(fresh.search_vector("tenant-a", NORTH, k=1)) == ["zebra"]
    assert [hit.chunk.text for hit in fresh.search("tenant-a", "refunds", k=5)] == [
        "Refunds take 14 days."
    ]
    assert fresh.search("tenant-a", "purchase", k=5) == []


def test_collections_of_added_rows_filter_inside_the_query(index: SqliteSearchIndex) -> None:
    # GIVEN a built index, then chunks added in a new collection
    assert index.search("tenant-a", "parcel", k=5)
    index.index([make_chunk("Parcel rules for HR.", doc_id="hr", collection="hr", embedding=NORTH)])

    # WHEN searching within the collection, THEN only its chunk comes back
    assert docs(index.search("tenant-a", "parcel", k=5, collection="hr")) == ["hr"]
    assert docs(index.search_vector("tenant-a", NORTH, k=5, collection="hr")) == ["hr"]
    assert "hr" not in docs(index.search("tenant-a", "parcel", k=5, collection="finance"))


def test_many_small_additions_stay_searchable_as_their_segments_merge(
    index: SqliteSearchIndex, db: SqliteDatabase
) -> None:
    # GIVEN a built index, then more single-chunk additions than segments are kept
    assert index.search("tenant-a", "parcel", k=5)
    for number in range(12):
        index.index([make_chunk(f"Locker {number} holds a parcel.", doc_id=f"l{number}")])
        assert index.search("tenant-a", "locker", k=1)

    # THEN every one is found, by the index caught up to the last change
    hits = index.search("tenant-a", "locker parcel", k=20)
    assert {f"l{number}" for number in range(12)} <= set(docs(hits))
    with db.read() as conn:
        [(last,)] = conn.execute("SELECT MAX(seq) FROM chunk_changes").fetchall()
    assert index._lexicons["tenant-a"].seq == last


def test_an_index_behind_the_trimmed_log_is_rebuilt(
    index: SqliteSearchIndex, fresh: SqliteSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a reader whose index is built, and a log that keeps two changes only
    assert fresh.search("tenant-a", "zebra", k=5) == []
    before = fresh._lexicons["tenant-a"]
    monkeypatch.setattr(local_rows, "CHANGES_KEPT", 2)

    # WHEN another process writes three chunks
    index.index([make_chunk(f"Zebra number {n}.", doc_id=f"z{n}", ordinal=n) for n in range(3)])

    # THEN the reader rebuilds and finds all three
    assert sorted(docs(fresh.search("tenant-a", "zebra", k=5))) == ["z0", "z1", "z2"]
    assert fresh._lexicons["tenant-a"] is not before


def test_a_small_index_is_rebuilt_on_any_change(
    index: SqliteSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN the shipped threshold: a handful of chunks is a small index
    monkeypatch.setattr(fts_index, "REBUILD_BELOW", 5_000)
    assert index.search("tenant-a", "parcel", k=5)
    before = index._lexicons["tenant-a"]

    # WHEN a chunk is added, THEN the next search rebuilds (exact statistics) and finds it
    index.index([make_chunk("Zebra.", doc_id="zebra")])
    assert docs(index.search("tenant-a", "zebra", k=5)) == ["zebra"]
    assert index._lexicons["tenant-a"] is not before


# --- the log and the row table ---------------------------------------------------------------


def test_changes_read_as_their_net_effect(tmp_path: Path) -> None:
    # GIVEN a log where 7 is added then deleted, 3 deleted then reused, 5 added
    db = SqliteDatabase(tmp_path)
    try:
        with db.transaction() as conn:
            conn.executemany(
                "INSERT INTO chunk_changes (tenant, id, added) VALUES (?, ?, ?)",
                [("t", 7, 1), ("t", 3, 0), ("u", 9, 1), ("t", 7, 0), ("t", 3, 1), ("t", 5, 1)],
            )
        with db.read() as conn:
            # WHEN tenant t's changes after the start are read
            changes = Changes.read(conn, "t", 0)
            # THEN 7 is in neither list, 3 in both, 5 added; the other tenant's are not there
            assert changes.removed == [3]
            assert changes.added == [3, 5]
            assert changes.seq == 6
            assert Changes.read(conn, "t", 6) == Changes(seq=6, removed=[], added=[])
    finally:
        db.close()


def test_a_row_id_reused_after_deletion_is_a_new_row() -> None:
    # GIVEN rows 1, 2, 3 where 3 is deleted, then re-added with another collection
    rows = RowTable(np.array([1, 2, 3], dtype=np.int64), [None, None, None])
    rows.remove(3)
    rows.append([3], ["hr"])

    # THEN row 3 lives once, in its new position and collection
    assert rows.ids.tolist() == [1, 2, 3, 3]
    assert (rows.selectable(None) == [True, True, False, True]).all()
    hr = rows.selectable("hr")
    assert hr is not None and hr.tolist() == [False, False, False, True]
    # AND deleting it again masks the new position; an unknown row is ignored
    rows.remove(3)
    rows.remove(42)
    assert rows.selectable(None).tolist() == [True, True, False, False]  # type: ignore[union-attr]
    assert rows.changed == 3


# --- snapshots -------------------------------------------------------------------------------


def test_a_new_process_maps_the_saved_index_instead_of_building_it(
    index: SqliteSearchIndex, fresh: SqliteSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a tenant searched once, so both of its indexes were built and saved
    expected = docs(index.search("tenant-a", "parcel courier", k=5))
    assert docs(index.search_vector("tenant-a", NORTH, k=1)) == ["d0"]

    # WHEN another process searches, with building made impossible
    def no_build(*_: object) -> None:
        raise AssertionError("built instead of loaded")

    monkeypatch.setattr(TenantLexicon, "build", no_build)
    monkeypatch.setattr(SqliteSearchIndex, "_build_vectors", no_build)

    # THEN it answers from the saved indexes, and catches up with a later write from there
    assert docs(fresh.search("tenant-a", "parcel courier", k=5)) == expected
    assert docs(fresh.search_vector("tenant-a", NORTH, k=1)) == ["d0"]
    index.index([make_chunk("A parcel zebra.", doc_id="zebra", embedding=NORTH)])
    assert docs(fresh.search("tenant-a", "zebra", k=5)) == ["zebra"]
    assert sorted(docs(fresh.search_vector("tenant-a", NORTH, k=2))) == ["d0", "zebra"]


def test_a_saved_index_of_another_database_is_never_loaded(
    index: SqliteSearchIndex, db: SqliteDatabase
) -> None:
    # GIVEN a saved index, then the database replaced by a new one holding other chunks
    assert index.search("tenant-a", "parcel", k=5)
    folder = db.path.parent
    assert any((folder / "index").iterdir())
    db.close()
    for name in ("certiq.db", "certiq.db-wal", "certiq.db-shm"):
        (folder / name).unlink(missing_ok=True)
    other = SqliteDatabase(folder)
    try:
        replaced = SqliteSearchIndex(other, vector_model="test-model")
        replaced.index([make_chunk("Parcel of land.", doc_id="land", embedding=NORTH)])

        # WHEN searching, THEN only the new database's chunks are found
        assert docs(replaced.search("tenant-a", "parcel", k=5)) == ["land"]
        assert docs(replaced.search_vector("tenant-a", NORTH, k=5)) == ["land"]
    finally:
        other.close()


def test_a_damaged_snapshot_is_rebuilt(index: SqliteSearchIndex, fresh: SqliteSearchIndex) -> None:
    # GIVEN a saved index whose arrays were lost
    expected = docs(index.search("tenant-a", "parcel courier", k=5))
    for folder in (index._snapshots._root).iterdir():
        for array in folder.glob("*.npy"):
            array.unlink()

    # WHEN another process searches, THEN it rebuilds and answers the same
    assert docs(fresh.search("tenant-a", "parcel courier", k=5)) == expected


def test_many_changes_are_caught_up_at_once_and_rebuilt_in_the_background(
    index: SqliteSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a built index, and a threshold every change exceeds
    assert index.search("tenant-a", "parcel", k=5)
    before = index._lexicons["tenant-a"]
    monkeypatch.setattr(fts_index, "REBUILD_SHARE", 0.0)

    # WHEN a chunk is added
    index.index([make_chunk("A zebra crossing.", doc_id="zebra")])

    # THEN the next search finds it at once, from the index caught up
    assert docs(index.search("tenant-a", "zebra", k=5)) == ["zebra"]
    # AND a fresh build replaces it shortly after, without changes since it, and is saved
    deadline = time.monotonic() + 30
    while index._lexicons["tenant-a"] is before and time.monotonic() < deadline:
        time.sleep(0.01)
    rebuilt = index._lexicons["tenant-a"]
    assert rebuilt is not before and rebuilt.rows.changed == 0
    assert docs(index.search("tenant-a", "zebra", k=5)) == ["zebra"]
    while index._rebuilding and time.monotonic() < deadline:
        time.sleep(0.01)
    assert index._snapshots.load("tenant-a", fts_index.LEXICON_KIND) is not None
