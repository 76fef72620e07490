"""The local index's in-memory BM25 (certiq.adapters.local.lexical) against FTS5's own bm25().

The in-memory index answers lexical search; FTS5 stays the durable store and the fallback, so
both must rank alike: same hits, same order, same scores.
"""

from __future__ import annotations

import sqlite3

import pytest

from certiq.adapters.local.fts_index import SqliteSearchIndex, query_terms
from certiq.adapters.local.lexical import Fts5Tokenizer, TenantLexicon
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.models import SearchHit
from tests.fakes import make_chunk

TEXTS = [
    "Refunds are accepted within 30 days of purchase. Keep the original receipt.",
    "Shipping takes five working days. Parcels are tracked by the courier.",
    "Salaries are paid on the last working day of each month.",
    "A refund is refunded to the card used. Refunding takes days.",
    "The courier tracks parcels, and the parcels are delivered by courier vans.",
    "Working from home: days worked at home are recorded monthly.",
    "Receipts are kept for seven years by the finance team.",
    "Tracking numbers are emailed when the parcel ships.",
]
QUERIES = [
    "how many days for a refund",
    "parcel tracking courier",
    "when are salaries paid each month",
    "receipts",
    "working days shipping",
    "the of and",
    "naïve Résumé runs",
    "nothing matches zebra",
]


@pytest.fixture
def index(db: SqliteDatabase) -> SqliteSearchIndex:
    return SqliteSearchIndex(db)


def fill(index: SqliteSearchIndex, tenant: str = "tenant-a") -> None:
    index.index(
        [
            make_chunk(text, doc_id=f"d{i}", tenant=tenant, collection="odd" if i % 2 else None)
            for i, text in enumerate(TEXTS)
        ]
    )


def by_fts5(
    index: SqliteSearchIndex, db: SqliteDatabase, query: str, k: int, collection: str | None = None
) -> list[SearchHit]:
    with db.read() as conn:
        return index.read(index._rank_fts(conn, "tenant-a", query_terms(query), k, collection))


def ranking(hits: list[SearchHit]) -> list[tuple[str, float]]:
    return [(hit.chunk.doc_id, round(hit.score, 9)) for hit in hits]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("collection", [None, "odd"])
def test_in_memory_bm25_ranks_and_scores_like_fts5(
    index: SqliteSearchIndex, db: SqliteDatabase, query: str, collection: str | None
) -> None:
    # GIVEN one tenant's chunks
    fill(index)

    # WHEN the same query is searched in memory and by FTS5
    hits = index.search("tenant-a", query, k=5, collection=collection)

    # THEN the hits and their order agree, and their scores up to float32 rounding
    expected = by_fts5(index, db, query, 5, collection)
    assert [hit.chunk.doc_id for hit in hits] == [hit.chunk.doc_id for hit in expected]
    assert [hit.score for hit in hits] == pytest.approx([hit.score for hit in expected], rel=1e-6)
    assert "tenant-a" in index._lexicons  # the in-memory index answered


def test_the_collection_filter_applies_before_the_top_k(index: SqliteSearchIndex) -> None:
    # GIVEN chunks in collection "odd" and outside it
    fill(index)

    # WHEN one hit is asked within "odd", and within a collection that does not exist
    hits = index.search("tenant-a", "parcels courier days", k=1, collection="odd")

    # THEN the best chunk of the collection comes back (not none because a better one is outside)
    assert [hit.chunk.doc_id for hit in hits] == ["d1"]
    assert index.search("tenant-a", "parcels", k=5, collection="missing") == []


def test_writes_and_deletes_are_seen_by_the_next_search(index: SqliteSearchIndex) -> None:
    # GIVEN a searched tenant (its in-memory index built)
    fill(index)
    assert index.search("tenant-a", "zebra", k=5) == []

    # WHEN a chunk is added, THEN the next search finds it
    index.index([make_chunk("A zebra crossing.", doc_id="zebra")])
    assert [hit.chunk.doc_id for hit in index.search("tenant-a", "zebras", k=5)] == ["zebra"]

    # WHEN its document is deleted, THEN it is gone
    assert index.delete_document("tenant-a", "zebra") == 1
    assert index.search("tenant-a", "zebra", k=5) == []


def test_a_write_by_another_process_is_seen(db: SqliteDatabase) -> None:
    # GIVEN two indexes over the same file (two processes), one that has searched
    reader = SqliteSearchIndex(db)
    other = SqliteDatabase(db.path.parent)
    writer = SqliteSearchIndex(other)
    fill(writer)
    assert reader.search("tenant-a", "zebra", k=5) == []

    # WHEN the other writes, THEN the reader's next search sees it
    writer.index([make_chunk("A zebra crossing.", doc_id="zebra")])
    other.close()
    assert [hit.chunk.doc_id for hit in reader.search("tenant-a", "zebra", k=5)] == ["zebra"]


def test_tenants_have_their_own_in_memory_index(index: SqliteSearchIndex) -> None:
    # GIVEN two tenants with different chunks
    fill(index, "tenant-a")
    index.index([make_chunk("Merger plans: the merger closes.", doc_id="m", tenant="tenant-b")])

    # WHEN each searches
    # THEN each finds only its own chunks
    assert index.search("tenant-a", "merger", k=5) == []
    assert [hit.chunk.tenant for hit in index.search("tenant-b", "merger", k=5)] == ["tenant-b"]
    assert all(hit.chunk.tenant == "tenant-a" for hit in index.search("tenant-a", "days", k=9))
    assert index.search("tenant-c", "days", k=5) == []


def test_fts5_answers_when_the_in_memory_index_cannot_be_built(
    index: SqliteSearchIndex, db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN an in-memory index whose build fails
    fill(index)

    def broken(*_: object) -> TenantLexicon:
        raise sqlite3.OperationalError("no fts5vocab")

    monkeypatch.setattr(TenantLexicon, "build", broken)

    # WHEN searching, THEN FTS5 gives the same answer
    hits = index.search("tenant-a", "refund days", k=3)
    assert hits
    assert ranking(hits) == ranking(by_fts5(index, db, "refund days", 3))
    assert "tenant-a" not in index._lexicons


def test_query_words_get_fts5s_own_tokens() -> None:
    # Porter stemming and unicode61 folding, as FTS5 applies them
    tokens = Fts5Tokenizer().tokens(["refunds", "running", "résumé", "refunds"])
    assert tokens == [("refund",), ("run",), ("resum",), ("refund",)]


def test_a_word_of_several_fts5_tokens_is_left_to_fts5(
    index: SqliteSearchIndex, db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a tokenizer that cuts a query word in two (a phrase only FTS5 can match)
    fill(index)
    monkeypatch.setattr(
        Fts5Tokenizer, "tokens", lambda _self, words: [("refund", "days") for _ in words]
    )

    # WHEN searching, THEN FTS5's answer comes back
    assert ranking(index.search("tenant-a", "refund", k=3)) == ranking(
        by_fts5(index, db, "refund", 3)
    )
