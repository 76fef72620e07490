"""Reciprocal rank fusion: several rankings of chunks into one, by rank alone.

A chunk's fused score is the sum, over the rankings it appears in, of ``w / (k + rank)`` with
rank 1-based and w the ranking's weight. Only ranks count, so a BM25 score of 12 and a cosine of
0.8 never have to be made comparable. The rank constant k (60 by default, as in Cormack et al.
and OpenSearch's score-ranker-processor) flattens the advantage of the very first places.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from certiq.models import SearchHit

DEFAULT_RRF_K = 60
KeyT = TypeVar("KeyT", bound=Hashable)


def fuse_ranks(
    rankings: Sequence[Sequence[KeyT]],
    weights: Sequence[float],
    *,
    k: int = DEFAULT_RRF_K,
    limit: int | None = None,
) -> list[tuple[KeyT, float]]:
    """(key, fused score) of the keys of all rankings, best first, at most ``limit`` of them.

    A key listed twice in one ranking counts at its best rank only. Equal scores keep the
    order in which the keys were first met (ranking by ranking, best rank first), so the result
    is deterministic.
    """
    if len(weights) != len(rankings):
        raise ValueError(f"{len(rankings)} rankings but {len(weights)} weights")
    if k < 0:
        raise ValueError(f"the rank constant k must not be negative, got {k}")
    if any(weight < 0 for weight in weights):
        raise ValueError(f"weights must not be negative, got {list(weights)}")
    scores: dict[KeyT, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[KeyT] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    # sorted() is stable: ties stay in first-met order.
    ordered = sorted(scores, key=lambda key: scores[key], reverse=True)
    if limit is not None:
        ordered = ordered[: max(limit, 0)]
    return [(key, scores[key]) for key in ordered]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[SearchHit]],
    weights: Sequence[float],
    *,
    k: int = DEFAULT_RRF_K,
    limit: int | None = None,
) -> list[SearchHit]:
    """The chunks of all rankings, fused as ``fuse_ranks`` fuses keys.

    Chunks are identified by (tenant, chunk_id). Each hit returned is the chunk as the first
    ranking holding it gave it, scored with its fused score.
    """
    first: dict[tuple[str, str], SearchHit] = {}
    keyed: list[list[tuple[str, str]]] = []
    for ranking in rankings:
        keys = [(hit.chunk.tenant, hit.chunk.chunk_id) for hit in ranking]
        for key, hit in zip(keys, ranking, strict=True):
            first.setdefault(key, hit)
        keyed.append(keys)
    fused = fuse_ranks(keyed, weights, k=k, limit=limit)
    return [SearchHit(chunk=first[key].chunk, score=score) for key, score in fused]
