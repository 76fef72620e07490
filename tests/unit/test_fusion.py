"""Reciprocal rank fusion, against scores computed by hand."""

from __future__ import annotations

import pytest

from certiq.models import SearchHit
from certiq.retrieval.fusion import reciprocal_rank_fusion
from tests.fakes import make_chunk


def ranking(*doc_ids: str, tenant: str = "tenant-a") -> list[SearchHit]:
    """Hits in the given order, with engine scores that RRF must ignore."""
    return [
        SearchHit(chunk=make_chunk(f"Text {d}.", doc_id=d, tenant=tenant), score=100.0 - i)
        for i, d in enumerate(doc_ids)
    ]


def fused(hits: list[SearchHit]) -> list[tuple[str, float]]:
    return [(hit.chunk.doc_id, hit.score) for hit in hits]


def test_scores_are_the_weighted_sum_of_reciprocal_ranks() -> None:
    # GIVEN lexical [a, b, c] and dense [c, a, d]
    lexical, dense = ranking("a", "b", "c"), ranking("c", "a", "d")

    # WHEN fused with equal weights and k = 60
    result = reciprocal_rank_fusion([lexical, dense], [1.0, 1.0], k=60)

    # THEN a = 1/61 + 1/62 beats c = 1/63 + 1/61, then b = 1/62, then d = 1/63
    assert fused(result) == [
        ("a", pytest.approx(1 / 61 + 1 / 62)),
        ("c", pytest.approx(1 / 63 + 1 / 61)),
        ("b", pytest.approx(1 / 62)),
        ("d", pytest.approx(1 / 63)),
    ]


def test_weights_can_turn_the_order() -> None:
    # GIVEN the same rankings, dense weighted twice as much
    result = reciprocal_rank_fusion([ranking("a", "b", "c"), ranking("c", "a", "d")], [1.0, 2.0])

    # THEN c = 1/63 + 2/61 (0.04866) now beats a = 1/61 + 2/62 (0.04865); d = 2/63 beats b = 1/62
    assert [doc for doc, _ in fused(result)] == ["c", "a", "d", "b"]
    assert result[0].score == pytest.approx(1 / 63 + 2 / 61)
    assert result[1].score == pytest.approx(1 / 61 + 2 / 62)


def test_the_rank_constant_changes_the_scores() -> None:
    result = reciprocal_rank_fusion([ranking("a", "b")], [1.0], k=1)
    assert fused(result) == [("a", pytest.approx(1 / 2)), ("b", pytest.approx(1 / 3))]


def test_ties_keep_the_order_in_which_chunks_were_first_met() -> None:
    # GIVEN two rankings each holding one chunk at rank 1: equal fused scores
    # WHEN fused in either order
    # THEN the first ranking's chunk leads, every time
    assert [d for d, _ in fused(reciprocal_rank_fusion([ranking("x"), ranking("y")], [1, 1]))] == [
        "x",
        "y",
    ]
    assert [d for d, _ in fused(reciprocal_rank_fusion([ranking("y"), ranking("x")], [1, 1]))] == [
        "y",
        "x",
    ]


def test_a_chunk_listed_twice_in_one_ranking_counts_once_at_its_best_rank() -> None:
    result = reciprocal_rank_fusion([ranking("a", "b", "a")], [1.0])
    assert fused(result) == [("a", pytest.approx(1 / 61)), ("b", pytest.approx(1 / 62))]


def test_same_chunk_id_of_two_tenants_is_two_chunks() -> None:
    result = reciprocal_rank_fusion([ranking("a"), ranking("a", tenant="tenant-b")], [1.0, 1.0])
    assert [(hit.chunk.tenant, hit.score) for hit in result] == [
        ("tenant-a", pytest.approx(1 / 61)),
        ("tenant-b", pytest.approx(1 / 61)),
    ]


def test_limit_keeps_the_best_and_the_chunk_is_the_first_rankings_copy() -> None:
    lexical, dense = ranking("a", "b", "c"), ranking("c", "a", "d")
    result = reciprocal_rank_fusion([lexical, dense], [1.0, 1.0], limit=2)
    assert [hit.chunk.doc_id for hit in result] == ["a", "c"]
    assert result[1].chunk is lexical[2].chunk
    assert reciprocal_rank_fusion([lexical], [1.0], limit=0) == []
    assert reciprocal_rank_fusion([[], []], [1.0, 1.0]) == []


@pytest.mark.parametrize(
    ("weights", "k"), [([1.0], 60), ([1.0, 1.0, 1.0], 60), ([1.0, -1.0], 60), ([1.0, 1.0], -1)]
)
def test_inconsistent_arguments_are_refused(weights: list[float], k: int) -> None:
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([ranking("a"), ranking("b")], weights, k=k)
