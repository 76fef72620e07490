"""Chunk retrieval in three modes, the same code over every SearchIndex.

- bm25: the index's lexical search.
- dense: the question embedded, then the index's k-NN search.
- hybrid: both, each ``settings.candidates`` deep, fused by reciprocal rank fusion
  (certiq.retrieval.fusion) with ``settings.bm25_weight`` and ``settings.dense_weight``.

The tenant and collection filters are passed to the engine and applied inside its query. When
dense search cannot run (no embedder, or no vectors of the embedder in the index) the search
falls back to bm25, and says so: ``mode_used`` and ``note`` of the result, which the retrieve
step records in the question's search metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from certiq.config import RetrievalSettings
from certiq.models import RetrievalMode, SearchHit
from certiq.ports import Embedder, FusingIndex, RankingIndex, SearchIndex, embed_query_texts
from certiq.retrieval.fusion import fuse_ranks, reciprocal_rank_fusion

if TYPE_CHECKING:  # numpy is not imported by the functions that never search
    import numpy as np
    from numpy.typing import NDArray

NO_EMBEDDER = (
    "no embedder is configured (CERTIQ_EMBEDDING__PROVIDER=none, or the model is not"
    " installed): lexical BM25 only"
)


@dataclass(frozen=True)
class RetrievalResult:
    hits: list[SearchHit]
    mode: RetrievalMode
    mode_used: RetrievalMode
    candidates: int
    note: str | None = None


def engine_name(index: SearchIndex) -> str:
    """The index's ``engine`` name when it declares one, else its class name."""
    engine = getattr(index, "engine", None)
    return engine if isinstance(engine, str) else type(index).__name__


def _no_vectors(embedder: Embedder) -> str:
    return f"the index holds no vectors of {embedder.name} for these chunks: lexical BM25 only"


def hybrid_search(
    index: SearchIndex,
    embedder: Embedder | None,
    tenant: str,
    query: str,
    k: int,
    mode: RetrievalMode,
    settings: RetrievalSettings,
    collection: str | None = None,
) -> RetrievalResult:
    """The k best chunks of the tenant (and collection) for the query, in the given mode."""
    if mode == "bm25" or embedder is None:
        lexical = index.search(tenant, query, k, collection=collection)
        note = None if mode == "bm25" else NO_EMBEDDER
        return RetrievalResult(lexical, mode, "bm25", len(lexical), note)

    vector = embed_query_texts(embedder, [query])[0]
    if mode == "dense":
        dense = index.search_vector(tenant, vector, k, collection=collection)
        if dense:
            return RetrievalResult(dense, mode, "dense", len(dense))
        lexical = index.search(tenant, query, k, collection=collection)
        note = _no_vectors(embedder) if lexical else None
        return RetrievalResult(lexical, mode, "bm25" if lexical else "dense", len(lexical), note)

    depth = max(settings.candidates, k)
    if isinstance(index, RankingIndex):
        return _fused_ranks(index, embedder, tenant, query, vector, k, depth, settings, collection)
    # The engine's fusion weighs both rankings alike; other weights are fused here.
    if isinstance(index, FusingIndex) and settings.bm25_weight == settings.dense_weight > 0:
        fused_in_engine = index.search_hybrid(
            tenant, query, vector, k, depth, settings.rrf_k, collection=collection
        )
        if fused_in_engine is not None:
            hits, candidates = fused_in_engine
            if hits:
                return RetrievalResult(hits, mode, "hybrid", candidates)
    lexical = index.search(tenant, query, depth, collection=collection)
    dense = index.search_vector(tenant, vector, depth, collection=collection)
    if not dense and lexical:
        return RetrievalResult(lexical[:k], mode, "bm25", len(lexical), _no_vectors(embedder))
    fused = reciprocal_rank_fusion(
        [lexical, dense],
        [settings.bm25_weight, settings.dense_weight],
        k=settings.rrf_k,
        limit=k,
    )
    candidates = len({hit.chunk.chunk_id for hit in lexical} | {h.chunk.chunk_id for h in dense})
    return RetrievalResult(fused, mode, "hybrid", candidates)


def _fused_ranks(
    index: RankingIndex,
    embedder: Embedder,
    tenant: str,
    query: str,
    vector: NDArray[np.float32],
    k: int,
    depth: int,
    settings: RetrievalSettings,
    collection: str | None,
) -> RetrievalResult:
    """Hybrid search over an index that ranks without reading chunks: both rankings are fused
    on the engine's keys, and only the chunks of the fused top k are read."""
    lexical = index.rank(tenant, query, depth, collection=collection)
    dense = index.rank_vector(tenant, vector, depth, collection=collection)
    if not dense and lexical:
        hits = index.read(lexical[:k])
        return RetrievalResult(hits, "hybrid", "bm25", len(lexical), _no_vectors(embedder))
    fused = fuse_ranks(
        [[key for key, _ in lexical], [key for key, _ in dense]],
        [settings.bm25_weight, settings.dense_weight],
        k=settings.rrf_k,
        limit=k,
    )
    candidates = len({key for key, _ in lexical} | {key for key, _ in dense})
    return RetrievalResult(index.read(fused), "hybrid", "hybrid", candidates)
