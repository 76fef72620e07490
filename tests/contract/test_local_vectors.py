"""Dense k-NN search of the local index (SQLite + numpy), beyond the shared SearchIndex contract.

osmem-server runs no k-NN query, so OpenSearch's side of the same guarantees (tenant and
collection filters inside the knn clause, vectors out of the stored chunk) is asserted on the
bodies it is sent: tests/contract/test_opensearch_bodies.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from certiq.adapters.local.dense import TenantVectors, top_k, vector_blob
from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.models import Chunk, SearchHit
from tests.fakes import make_chunk

NORTH, EAST, NORTH_EAST = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.6, 0.8, 0.0]


@pytest.fixture
def index(db: SqliteDatabase) -> SqliteSearchIndex:
    return SqliteSearchIndex(db, vector_model="test-model")


def chunk(doc_id: str, vector: list[float], **options: str) -> Chunk:
    return make_chunk(f"Text of {doc_id}.", doc_id=doc_id, embedding=vector, **options)


def ids(hits: list[SearchHit]) -> list[str]:
    return [hit.chunk.doc_id for hit in hits]


def test_nearest_chunks_come_first_scored_by_cosine(index: SqliteSearchIndex) -> None:
    # GIVEN three chunks pointing north, north-east and east (vectors not normalised)
    index.index([chunk("n", [3.0, 0.0, 0.0]), chunk("ne", NORTH_EAST), chunk("e", EAST)])

    # WHEN a vector close to north is searched for two hits
    hits = index.search_vector("tenant-a", np.array([0.9, 0.1, 0.0], dtype=np.float32), k=2)

    # THEN north then north-east come back, scored by cosine
    assert ids(hits) == ["n", "ne"]
    query = np.array([0.9, 0.1, 0.0]) / np.linalg.norm([0.9, 0.1, 0.0])
    assert hits[0].score == pytest.approx(float(query @ NORTH), abs=1e-6)
    assert hits[1].score == pytest.approx(float(query @ NORTH_EAST), abs=1e-6)
    # AND the hits carry the chunk without its vector
    assert all(hit.chunk.embedding is None for hit in hits)


def test_another_tenants_vectors_are_never_searched(index: SqliteSearchIndex) -> None:
    # GIVEN tenant B holds the exact match and tenant A a poor one
    index.index([chunk("secret", NORTH, tenant="tenant-b"), chunk("mine", EAST)])

    # WHEN tenant A searches for the match, one hit
    hits = index.search_vector("tenant-a", NORTH, k=1)

    # THEN it gets its own chunk (the tenant was filtered before the top 1), never B's
    assert [(h.chunk.tenant, h.chunk.doc_id) for h in hits] == [("tenant-a", "mine")]
    assert index.search_vector("tenant-c", NORTH, k=5) == []


def test_the_collection_filter_is_applied_before_the_top_k(index: SqliteSearchIndex) -> None:
    # GIVEN the exact match in "hr" and a poor one in "legal"
    index.index([chunk("hr", NORTH, collection="hr"), chunk("legal", EAST, collection="legal")])

    # WHEN "legal" is searched for one hit
    # THEN legal's chunk comes back; an unknown collection finds nothing; none searches all
    assert ids(index.search_vector("tenant-a", NORTH, k=1, collection="legal")) == ["legal"]
    assert index.search_vector("tenant-a", NORTH, k=1, collection="finance") == []
    assert ids(index.search_vector("tenant-a", NORTH, k=5)) == ["hr", "legal"]


def test_the_embedding_is_stored_beside_the_chunk_not_in_its_json(
    db: SqliteDatabase, index: SqliteSearchIndex
) -> None:
    # GIVEN a chunk with an embedding
    indexed = chunk("policy", NORTH_EAST)

    # WHEN it is indexed
    index.index([indexed])

    # THEN its JSON has no embedding; the vector is a float32 blob with its model and dimension
    with db.read() as conn:
        [(body,)] = conn.execute("SELECT body FROM chunks").fetchall()
        [(model, dimension, blob)] = conn.execute(
            "SELECT model, dimension, vector FROM chunk_vectors"
        ).fetchall()
    assert "embedding" not in json.loads(body)
    assert (model, dimension, blob) == ("test-model", 3, vector_blob(NORTH_EAST))
    # AND get_chunks gives the whole chunk back, vector included
    got = index.get_chunks("tenant-a", [indexed.chunk_id])[indexed.chunk_id]
    assert got.model_copy(update={"embedding": None}) == indexed.model_copy(
        update={"embedding": None}
    )
    assert got.embedding == pytest.approx(NORTH_EAST)


def test_new_and_deleted_chunks_are_seen_by_the_next_search(index: SqliteSearchIndex) -> None:
    # GIVEN a searched index (its matrix now cached)
    index.index([chunk("e", EAST)])
    assert ids(index.search_vector("tenant-a", NORTH, k=1)) == ["e"]

    # WHEN a nearer chunk is indexed, THEN it is found
    index.index([chunk("n", NORTH)])
    assert ids(index.search_vector("tenant-a", NORTH, k=1)) == ["n"]

    # WHEN it is deleted, THEN it is gone
    index.delete_document("tenant-a", "n")
    assert ids(index.search_vector("tenant-a", NORTH, k=5)) == ["e"]

    # WHEN a chunk is re-indexed with a new vector, THEN only the new vector counts
    index.index([chunk("e", NORTH)])
    [hit] = index.search_vector("tenant-a", NORTH, k=5)
    assert hit.score == pytest.approx(1.0)


def test_writes_by_another_process_are_seen_by_the_next_search(tmp_path: Path) -> None:
    # GIVEN a server's index that has searched (and cached) tenant A's vectors
    server_db, writer_db = SqliteDatabase(tmp_path), SqliteDatabase(tmp_path)
    try:
        server = SqliteSearchIndex(server_db, vector_model="m")
        writer = SqliteSearchIndex(writer_db, vector_model="m")
        writer.index([chunk("e", EAST)])
        assert ids(server.search_vector("tenant-a", NORTH, k=1)) == ["e"]

        # WHEN another connection to the file (a `certiq ingest` beside it) adds a nearer chunk
        writer.index([chunk("n", NORTH)])

        # THEN the server's next search finds it
        assert ids(server.search_vector("tenant-a", NORTH, k=1)) == ["n"]
    finally:
        server_db.close()
        writer_db.close()


def test_vectors_of_another_model_are_never_compared(db: SqliteDatabase) -> None:
    # GIVEN vectors made by model "a"
    SqliteSearchIndex(db, vector_model="a").index([chunk("n", NORTH)])

    # WHEN an index for model "b" searches the same file
    # THEN it finds nothing rather than compare vectors of different models
    assert SqliteSearchIndex(db, vector_model="b").search_vector("tenant-a", NORTH, k=5) == []
    assert ids(SqliteSearchIndex(db, vector_model="a").search_vector("tenant-a", NORTH, 5)) == ["n"]


def test_a_query_of_the_wrong_dimension_is_refused(index: SqliteSearchIndex) -> None:
    index.index([chunk("n", NORTH)])
    with pytest.raises(ValueError, match="dimensions"):
        index.search_vector("tenant-a", [1.0, 0.0], k=1)


def test_a_chunk_without_a_vector_is_found_by_bm25_only(index: SqliteSearchIndex) -> None:
    index.index([make_chunk("Refunds within 30 days.", doc_id="plain")])
    assert index.search_vector("tenant-a", NORTH, k=5) == []
    assert ids(index.search("tenant-a", "refunds", k=5)) == ["plain"]


def test_migration_moves_embeddings_out_of_old_chunk_json(tmp_path: Path) -> None:
    # GIVEN a database at schema 2 whose chunk JSON still holds an embedding
    db = SqliteDatabase(tmp_path)
    old = make_chunk("Refunds within 30 days.", doc_id="old", embedding=NORTH)
    with db.transaction() as conn:
        conn.execute("DROP TABLE certificate_documents")  # undo step 8
        conn.execute("DROP TABLE certificate_rechecks")
        conn.execute("DROP TABLE chunk_changes")  # undo step 7
        conn.execute("DROP TABLE index_snapshots")
        conn.execute("DROP TABLE verified_answers")  # undo step 6
        conn.execute("DROP INDEX questions_by_conversation")  # undo step 5
        conn.execute("ALTER TABLE questions DROP COLUMN conversation_id")
        conn.execute("ALTER TABLE questions DROP COLUMN created_key")
        conn.execute("DROP TABLE chunk_vectors")
        conn.execute("DROP TABLE chunk_generations")
        conn.execute("ALTER TABLE chunks DROP COLUMN collection")
        conn.execute("DROP TABLE chunks_fts")
        conn.execute(
            "CREATE VIRTUAL TABLE chunks_fts USING fts5(text, tenant UNINDEXED,"
            " doc_id UNINDEXED, tokenize = 'porter unicode61')"
        )
        conn.execute("DELETE FROM schema_version WHERE version > 2")
        cursor = conn.execute(
            "INSERT INTO chunks (tenant, chunk_id, doc_id, body) VALUES (?, ?, ?, ?)",
            (old.tenant, old.chunk_id, old.doc_id, old.model_dump_json()),
        )
        conn.execute(
            "INSERT INTO chunks_fts (rowid, text, tenant, doc_id) VALUES (?, ?, ?, ?)",
            (cursor.lastrowid, old.text, old.tenant, old.doc_id),
        )
    db.close()

    # WHEN it is opened by this version
    db = SqliteDatabase(tmp_path)

    # THEN the stored JSON has lost the embedding and the index reads the chunk without one
    try:
        with db.read() as conn:
            [(body,)] = conn.execute("SELECT body FROM chunks").fetchall()
        assert "embedding" not in json.loads(body)
        index = SqliteSearchIndex(db)
        without_vector = old.model_copy(update={"embedding": None})
        assert index.get_chunks("tenant-a", [old.chunk_id]) == {old.chunk_id: without_vector}
        # AND the rebuilt full-text table still finds it, and filters on collections
        assert [hit.chunk for hit in index.search("tenant-a", "refunds", 5)] == [without_vector]
        assert index.search("tenant-a", "refunds", 5, collection="hr") == []
    finally:
        db.close()


# --- the matrix itself ---------------------------------------------------------------------


def test_top_k_is_best_first_with_ties_in_position_order() -> None:
    scores = np.array([0.1, 0.9, 0.5, 0.9, 0.5, 0.2], dtype=np.float32)
    assert top_k(scores, 3).tolist() == [1, 3, 2]
    assert top_k(scores, 4).tolist() == [1, 3, 2, 4]
    assert top_k(scores, 10).tolist() == [1, 3, 2, 4, 5, 0]
    assert top_k(scores, 0).tolist() == []


def test_a_zero_query_or_empty_matrix_finds_nothing() -> None:
    vectors = TenantVectors.build(0, 2, [(1, None, vector_blob([1.0, 0.0]))])
    assert vectors.nearest([0.0, 0.0], 5) == []
    assert TenantVectors.build(0, 2, []).nearest([1.0, 0.0], 5) == []
