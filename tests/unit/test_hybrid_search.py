"""certiq.retrieval.search: bm25, dense and hybrid over the local index, and honest fallbacks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.config import RetrievalSettings
from certiq.models import Chunk, RetrievalMode, SearchHit
from certiq.ports import SearchIndex
from certiq.retrieval.fusion import reciprocal_rank_fusion
from certiq.retrieval.search import NO_EMBEDDER, engine_name, hybrid_search
from tests.fakes import DelegatingIndex, HashingEmbedder, make_chunk

QUESTION = "How long are backups kept?"
POLICY = "Backups of customer data are kept for 35 days."
PARAPHRASE = "Archived copies of client records are retained for five weeks."  # no shared word
NOISE = "The office is closed on public holidays. Backups of the office plants are rare."
SETTINGS = RetrievalSettings(candidates=10)
# The question and the paraphrase share a vector no bag-of-words (non-negative) vector is near.
AWAY = -np.ones(64, dtype=np.float32) / 8.0


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SqliteDatabase]:
    database = SqliteDatabase(tmp_path)
    yield database
    database.close()


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder(pinned={QUESTION: AWAY.tolist(), PARAPHRASE: AWAY.tolist()})


def chunks(embedder: HashingEmbedder | None, collection: str | None = None) -> list[Chunk]:
    texts = {"policy": POLICY, "paraphrase": PARAPHRASE, "noise": NOISE}
    made = []
    for doc_id, text in texts.items():
        vector = embedder.embed([text])[0].tolist() if embedder else None
        made.append(make_chunk(text, doc_id=doc_id, embedding=vector, collection=collection))
    return made


@pytest.fixture
def index(db: SqliteDatabase, embedder: HashingEmbedder) -> SqliteSearchIndex:
    index = SqliteSearchIndex(db, vector_model=embedder.name)
    index.index(chunks(embedder))
    embedder.calls.clear()
    return index


def doc_ids(hits: Sequence[SearchHit]) -> list[str]:
    return [hit.chunk.doc_id for hit in hits]


def test_bm25_is_the_lexical_search_and_embeds_nothing(
    index: SqliteSearchIndex, embedder: HashingEmbedder
) -> None:
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 5, "bm25", SETTINGS)
    assert doc_ids(result.hits) == doc_ids(index.search("tenant-a", QUESTION, 5))
    assert "paraphrase" not in doc_ids(result.hits)
    assert (result.mode_used, result.note) == ("bm25", None)
    assert embedder.calls == []


def test_dense_finds_the_paraphrase_that_shares_no_word(
    index: SqliteSearchIndex, embedder: HashingEmbedder
) -> None:
    # WHEN the question is searched densely
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 1, "dense", SETTINGS)

    # THEN the paraphrase comes first, by cosine, and the question was embedded once
    assert doc_ids(result.hits) == ["paraphrase"]
    assert result.hits[0].score == pytest.approx(1.0)
    assert (result.mode_used, result.note) == ("dense", None)
    assert embedder.calls == [[QUESTION]]


def test_hybrid_fuses_both_engines_candidate_lists(
    index: SqliteSearchIndex, embedder: HashingEmbedder
) -> None:
    # GIVEN what each engine returns on its own, candidates deep
    lexical = index.search("tenant-a", QUESTION, SETTINGS.candidates)
    dense = index.search_vector("tenant-a", AWAY, SETTINGS.candidates)

    # WHEN the question is searched in hybrid mode for three chunks
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 3, "hybrid", SETTINGS)

    # THEN the hits are the RRF of the two lists: policy (1st and 2nd) leads, and the
    # paraphrase, which lexical search never returns, is among them
    expected = reciprocal_rank_fusion([lexical, dense], [1.0, 1.0], k=60, limit=3)
    assert result.hits == expected
    assert doc_ids(result.hits)[0] == "policy"
    assert "paraphrase" in doc_ids(result.hits) and "paraphrase" not in doc_ids(lexical)
    assert (result.mode_used, result.note, result.candidates) == ("hybrid", None, 3)


def test_weights_and_rank_constant_from_the_settings_decide_between_the_engines(
    index: SqliteSearchIndex, embedder: HashingEmbedder
) -> None:
    # GIVEN policy ranked 1st lexically and 2nd densely, the paraphrase 1st densely only;
    # with k = 60 agreement wins whatever the weights, so a sharp k = 1 lets the weights decide
    def best(bm25_weight: float, dense_weight: float) -> list[str]:
        settings = RetrievalSettings(rrf_k=1, bm25_weight=bm25_weight, dense_weight=dense_weight)
        return doc_ids(
            hybrid_search(index, embedder, "tenant-a", QUESTION, 1, "hybrid", settings).hits
        )

    # THEN policy = 1/2 + 0.1/3 beats 0.1/2; the paraphrase's 1/2 beats 0.1/2 + 1/3
    assert best(1.0, 0.1) == ["policy"]
    assert best(0.1, 1.0) == ["paraphrase"]


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_without_an_embedder_dense_modes_fall_back_to_bm25_and_say_so(
    index: SqliteSearchIndex, mode: RetrievalMode
) -> None:
    result = hybrid_search(index, None, "tenant-a", QUESTION, 5, mode, SETTINGS)
    assert doc_ids(result.hits) == doc_ids(index.search("tenant-a", QUESTION, 5))
    assert (result.mode, result.mode_used, result.note) == (mode, "bm25", NO_EMBEDDER)


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_an_index_without_vectors_falls_back_to_bm25_and_says_so(
    db: SqliteDatabase, embedder: HashingEmbedder, mode: RetrievalMode
) -> None:
    # GIVEN chunks indexed lexical-only (no vectors), and an embedder at question time
    index = SqliteSearchIndex(db, vector_model=embedder.name)
    index.index(chunks(None))

    # WHEN a dense mode is asked for
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 5, mode, SETTINGS)

    # THEN the lexical hits come back, and the note names the missing vectors
    assert doc_ids(result.hits) == doc_ids(index.search("tenant-a", QUESTION, 5))
    assert result.mode_used == "bm25"
    assert result.note is not None and embedder.name in result.note


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_the_collection_reaches_both_engines(
    db: SqliteDatabase, embedder: HashingEmbedder, mode: RetrievalMode
) -> None:
    # GIVEN the same three texts in "hr" for tenant A, and in "legal" for tenants A and B
    index = SqliteSearchIndex(db, vector_model=embedder.name)
    hr = chunks(embedder, collection="hr")
    legal = [c.model_copy(update={"doc_id": f"legal-{c.doc_id}"}) for c in chunks(embedder)]
    legal = [
        c.model_copy(update={"chunk_id": f"{c.doc_id}:0", "collection": "legal"}) for c in legal
    ]
    other_tenant = [c.model_copy(update={"tenant": "tenant-b"}) for c in legal]
    index.index(hr + legal + other_tenant)

    # WHEN tenant A searches "legal"
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 10, mode, SETTINGS, "legal")

    # THEN every hit is tenant A's and in "legal"
    assert result.hits
    assert {(h.chunk.tenant, h.chunk.collection) for h in result.hits} == {("tenant-a", "legal")}


class RecordingIndex(DelegatingIndex):
    """A SearchIndex that records the depth each engine was asked for."""

    engine = "recording"

    def __init__(self, inner: SearchIndex) -> None:
        super().__init__(inner)
        self.calls: list[tuple[str, int, str | None]] = []

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        self.calls.append(("search", k, collection))
        return self.inner.search(tenant, query, k, collection)

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        self.calls.append(("search_vector", k, collection))
        return self.inner.search_vector(tenant, vector, k, collection)


def test_hybrid_asks_each_engine_for_the_candidate_depth(
    index: SqliteSearchIndex, embedder: HashingEmbedder
) -> None:
    recording = RecordingIndex(index)
    settings = RetrievalSettings(candidates=40)
    hybrid_search(recording, embedder, "tenant-a", QUESTION, 3, "hybrid", settings, "c")  # type: ignore[arg-type]
    assert recording.calls == [("search", 40, "c"), ("search_vector", 40, "c")]
    assert engine_name(recording) == "recording"  # type: ignore[arg-type]
    assert engine_name(index) == "sqlite-fts5"


class ReadRecordingIndex(SqliteSearchIndex):
    """The local index, recording how many chunks each read parses."""

    def __init__(self, db: SqliteDatabase, vector_model: str) -> None:
        super().__init__(db, vector_model=vector_model)
        self.reads: list[int] = []

    def read(self, ranked: Sequence[tuple[int, float]]) -> list[SearchHit]:
        self.reads.append(len(ranked))
        return super().read(ranked)


def test_an_index_that_ranks_first_has_only_the_fused_top_k_read(
    db: SqliteDatabase, embedder: HashingEmbedder
) -> None:
    # GIVEN the local index, which ranks without reading chunks, and the same index seen
    # through a plain SearchIndex (which returns whole hits from each engine)
    index = ReadRecordingIndex(db, vector_model=embedder.name)
    index.index(chunks(embedder))
    plain = RecordingIndex(index)

    # WHEN hybrid search asks for one chunk out of both engines' candidates
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 1, "hybrid", SETTINGS)

    # THEN one chunk was read, though all three were candidates
    assert index.reads == [1]
    assert result.candidates == 3
    # AND the hit is the one fusing whole hits gives, with the same fused score
    whole = hybrid_search(plain, embedder, "tenant-a", QUESTION, 1, "hybrid", SETTINGS)  # type: ignore[arg-type]
    assert result.hits == whole.hits
