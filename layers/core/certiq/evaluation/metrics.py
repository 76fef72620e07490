"""Ranking metrics as BEIR and pytrec_eval define them: nDCG@k, Recall@k, MRR@k."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Qrels = Mapping[str, Mapping[str, int]]  # query id -> document id -> graded relevance
Run = Mapping[str, Sequence[str]]  # query id -> ranked document ids, best first


def ndcg_at_k(ranking: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Normalised DCG with gain = relevance and discount log2(rank + 1), as pytrec_eval."""
    dcg = sum(
        relevant.get(doc_id, 0) / math.log2(rank + 2) for rank, doc_id in enumerate(ranking[:k])
    )
    ideal = sorted((grade for grade in relevant.values() if grade > 0), reverse=True)[:k]
    idcg = sum(grade / math.log2(rank + 2) for rank, grade in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranking: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    wanted = {doc_id for doc_id, grade in relevant.items() if grade > 0}
    if not wanted:
        return 0.0
    return len(wanted & set(ranking[:k])) / len(wanted)


def mrr_at_k(ranking: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    for rank, doc_id in enumerate(ranking[:k]):
        if relevant.get(doc_id, 0) > 0:
            return 1.0 / (rank + 1)
    return 0.0


def mean_over_queries(run: Run, qrels: Qrels, metric: str, k: int) -> float:
    """The metric averaged over every judged query; a query missing from the run scores 0."""
    function = {"ndcg": ndcg_at_k, "recall": recall_at_k, "mrr": mrr_at_k}[metric]
    judged = [query_id for query_id, relevant in qrels.items() if any(relevant.values())]
    if not judged:
        return 0.0
    return sum(function(run.get(q, ()), qrels[q], k) for q in judged) / len(judged)
