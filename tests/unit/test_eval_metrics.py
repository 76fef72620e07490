"""Ranking metrics, checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from certiq.evaluation.metrics import mean_over_queries, mrr_at_k, ndcg_at_k, recall_at_k


def test_ndcg_is_one_for_the_ideal_ranking_and_discounts_later_hits() -> None:
    relevant = {"a": 1, "b": 1}
    assert ndcg_at_k(["a", "b", "x"], relevant, 10) == pytest.approx(1.0)
    # hits at ranks 2 and 3: (1/log2(3) + 1/log2(4)) / (1 + 1/log2(3))
    expected = (1 / math.log2(3) + 0.5) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(["x", "a", "b"], relevant, 10) == pytest.approx(expected)


def test_ndcg_ignores_hits_beyond_k() -> None:
    assert ndcg_at_k(["x", "y", "a"], {"a": 1}, 2) == 0.0


def test_recall_and_mrr() -> None:
    assert recall_at_k(["a", "x", "c"], {"a": 1, "b": 1, "c": 1}, 3) == pytest.approx(2 / 3)
    assert mrr_at_k(["x", "y", "a"], {"a": 1}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "y", "a"], {"a": 1}, 2) == 0.0


def test_mean_counts_a_query_missing_from_the_run_as_zero() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    assert mean_over_queries({"q1": ["a"]}, qrels, "ndcg", 10) == pytest.approx(0.5)
