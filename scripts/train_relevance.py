"""Train certiq's relevance model (certiq/retrieval/relevance.py) on PolicyQA dev, by policy.

1. Lays out and ingests the 20 policies as in scripts/bench_policyqa.py (into .bench/policyqa,
   reused), runs each question's retrieval within its policy's collection as the Retrieve state
   does, and takes every candidate sentence with the features span selection computes. A
   sentence is relevant when it holds the question's gold answer span.
2. Grouped 5-fold cross-validation by policy (no policy in both a training and a test fold):
   L2-regularised logistic regression (Newton's method, numpy), for the dense weights (with
   MiniLM vectors) and the lexical-only ones; reports on the held-out folds how often the best
   sentence holds the span, against the hand-set weighted score, and chooses the answerer's
   thresholds (relevance_model.json's "calibration") on those held-out predictions.
3. Fits both on every policy and writes layers/core/certiq/retrieval/relevance_model.json, and
   each fold's models to .bench/relevance-folds/ (for scripts/bench_policyqa.py --folds).

Seeded and deterministic; no torch: about 10 minutes on 2 cores, most of it embedding.

    .venv/bin/python scripts/train_relevance.py [--out FILE] [--figures FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bench_policyqa import (
    POLICYQA,
    collection_name,
    ingest_policies,
    normalised,
    questions_of,
    read_policies,
)
from numpy.typing import NDArray

from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.retrieval.relevance import SCALARS, SHIPPED_MODEL, RelevanceModel, features
from certiq.retrieval.search import hybrid_search
from certiq.retrieval.spans import candidate_set, weighted_scores

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / ".bench" / "policyqa"
FOLDS = 5
L2 = (0.1, 1.0, 10.0, 100.0)
NAME = "certiq-relevance-policyqa-v1"
# Answers show at most this many sentences on average: today's answerer shows about 2.6; more
# would find more spans by padding answers with what nobody asked.
MAX_SHOWN_MEAN = 2.5
Matrix = NDArray[np.float64]


@dataclass
class Dataset:
    dense: Matrix
    lexical: Matrix
    weighted: Matrix  # the hand-set score, the baseline
    label: NDArray[np.bool_]
    question: NDArray[np.int64]  # row -> question number
    policy: list[str]  # question number -> policy
    embedder: str  # whose vectors the dense features hold


def build_dataset() -> Dataset:
    policies = read_policies(POLICYQA)
    questions = questions_of(policies)
    settings = Settings()
    settings = settings.model_copy(update={"home": HOME})
    fresh = not (HOME / "certiq.db").exists()
    HOME.mkdir(parents=True, exist_ok=True)
    deps = build_deps(settings)
    if deps.embedder is None:
        raise SystemExit("the dense weights need all-MiniLM-L6-v2: `make venv` installs it")
    if fresh:
        ingest_policies(policies, deps)
    retrieval = settings.retrieval
    dense_rows, lexical_rows, weighted, labels, owners = [], [], [], [], []
    for number, question in enumerate(questions):
        result = hybrid_search(
            deps.index,
            deps.embedder,
            "default",
            question.question,
            retrieval.top_k,
            retrieval.mode,
            retrieval,
            collection=collection_name(question.policy),
        )
        found = candidate_set(question.question, result.hits, deps.embedder, retrieval)
        if found is None:
            continue
        _, candidates = found
        span = normalised(question.span)
        dense_rows.append(features(candidates, dense=True))
        lexical_rows.append(features(candidates, dense=False))
        weighted.append(weighted_scores(candidates, retrieval))
        labels.append([bool(span) and span in normalised(text) for text in candidates.texts])
        owners.append(np.full(len(candidates.texts), number))
        if (number + 1) % 500 == 0:
            print(f"  {number + 1} questions", file=sys.stderr)
    return Dataset(
        dense=np.vstack(dense_rows),
        lexical=np.vstack(lexical_rows),
        weighted=np.concatenate(weighted),
        label=np.concatenate([np.asarray(row, dtype=bool) for row in labels]),
        question=np.concatenate(owners),
        policy=[question.policy for question in questions],
        embedder=deps.embedder.name if deps.embedder is not None else "",
    )


def fit(x: Matrix, y: NDArray[np.bool_], l2: float) -> tuple[Matrix, Matrix, Matrix, float]:
    """Standardised L2 logistic regression by Newton's method: mean, scale, weights, bias."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    target = y.astype(np.float64)
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0  # the bias is not shrunk
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - target) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return mean, scale, w[:-1], float(w[-1])


def policy_folds(data: Dataset) -> dict[str, int]:
    """Policies dealt to folds in a seeded order."""
    names = sorted(set(data.policy))
    order = np.random.default_rng(14).permutation(len(names))
    return {names[i]: n % FOLDS for n, i in enumerate(order)}


Fitted = tuple[Matrix, Matrix, Matrix, float]


def out_of_fold(
    x: Matrix, data: Dataset, folds: NDArray[np.int64], l2: float
) -> tuple[Matrix, list[Fitted]]:
    """Each row scored by the model fitted on the other folds, and those models."""
    scores = np.zeros(len(x))
    fitted = []
    for k in range(FOLDS):
        test = folds == k
        mean, scale, w, b = fit(x[~test], data.label[~test], l2)
        scores[test] = 1.0 / (1.0 + np.exp(-(((x[test] - mean) / scale) @ w + b)))
        fitted.append((mean, scale, w, b))
    return scores, fitted


def shown_by_rule(
    scores: Matrix, data: Dataset, answer_at: float, keep_ratio: float, most: int
) -> tuple[float, float, float]:
    """Share of questions whose shown sentences hold the span, mean shown, share abstained.

    The answerer's rule: the best sentence when it reaches ``answer_at``; then the next best,
    while each reaches keep_ratio x the best's probability (and answer_at), up to ``most``."""
    hits = shown = abstained = 0
    questions = np.unique(data.question)
    for q in questions:
        rows = np.flatnonzero(data.question == q)
        order = rows[np.argsort(-scores[rows], kind="stable")]
        best = scores[order[0]]
        if best < answer_at:
            abstained += 1
            continue
        chosen = [r for r in order[:most] if scores[r] >= max(answer_at, keep_ratio * best)]
        shown += len(chosen)
        hits += bool(data.label[chosen].any())
    count = len(questions)
    return hits / count, shown / count, abstained / count


def top1(scores: Matrix, data: Dataset) -> float:
    hits = 0
    questions = np.unique(data.question)
    for q in questions:
        rows = np.flatnonzero(data.question == q)
        hits += bool(data.label[rows[np.argmax(scores[rows])]])
    return hits / len(questions)


def calibrate(scores: Matrix, data: Dataset) -> dict[str, float]:
    """The thresholds of the answerer's rule on held-out predictions: at most 3 sentences, the
    keep ratio that answers most with MAX_SHOWN_MEAN shown on average at most, and the answer
    threshold at which at most 5% of these (answerable) questions abstain."""
    grid = []
    for answer_at in (0.0, 0.01, 0.02, 0.05, 0.1):
        for keep_ratio in (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2):
            hit, shown, abstained = shown_by_rule(scores, data, answer_at, keep_ratio, 3)
            grid.append((answer_at, keep_ratio, hit, shown, abstained))
    allowed = [g for g in grid if g[3] <= MAX_SHOWN_MEAN and g[4] <= 0.05]
    answer_at, keep_ratio, hit, shown, abstained = max(allowed, key=lambda g: (g[2], -g[3]))
    return {
        "answer_threshold": answer_at,
        "keep_ratio": keep_ratio,
        "max_sentences": 3,
        "held_out_answered": round(hit, 4),
        "held_out_shown_mean": round(shown, 3),
        "held_out_abstained": round(abstained, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=SHIPPED_MODEL)
    parser.add_argument("--figures", type=Path, default=ROOT / "docs" / "relevance_figures.json")
    parser.add_argument("--folds", type=Path, default=ROOT / ".bench" / "relevance-folds")
    args = parser.parse_args()
    data = build_dataset()
    fold_of = policy_folds(data)
    folds = np.array([fold_of[data.policy[q]] for q in data.question])
    print(
        f"{len(data.label)} candidates, {int(data.label.sum())} relevant,"
        f" {len(np.unique(data.question))} questions",
        file=sys.stderr,
    )
    figures: dict[str, object] = {
        "weighted_baseline": {
            "top1": round(top1(data.weighted, data), 4),
            "rule_3_sentences": shown_by_rule(data.weighted, data, 0.0, 0.0, 3),
        }
    }
    models: dict[str, object] = {}
    per_fold: list[dict[str, object]] = [{} for _ in range(FOLDS)]
    for kind, x in (("dense", data.dense), ("lexical", data.lexical)):
        best: tuple[float, float, Matrix, list[Fitted]] | None = None
        for l2 in L2:
            scores, fitted = out_of_fold(x, data, folds, l2)
            score = top1(scores, data)
            print(f"  {kind} l2={l2}: held-out top1 {score:.4f}", file=sys.stderr)
            if best is None or score > best[0]:
                best = (score, l2, scores, fitted)
        assert best is not None
        held_out_top1, l2, scores, fitted = best
        calibration = calibrate(scores, data)
        figures[kind] = {"l2": l2, "top1": round(held_out_top1, 4), **calibration}
        embedder = data.embedder if kind == "dense" else None
        models[kind] = RelevanceModel(f"{NAME}-{kind}", embedder, *fit(x, data.label, l2)).to_json()
        for k, weights in enumerate(fitted):
            per_fold[k][kind] = RelevanceModel(
                f"{NAME}-{kind}-fold{k}", embedder, *weights
            ).to_json()
    args.out.write_text(
        json.dumps({"features": list(SCALARS), "models": models}) + "\n", encoding="utf-8"
    )
    # The fold models, for scripts/bench_policyqa.py to measure each policy with the model that
    # never saw it.
    args.folds.mkdir(parents=True, exist_ok=True)
    for k, fold_models in enumerate(per_fold):
        (args.folds / f"fold-{k}.json").write_text(
            json.dumps({"features": list(SCALARS), "models": fold_models}) + "\n",
            encoding="utf-8",
        )
    names = sorted(set(data.policy))
    fold_of = {
        data.policy[q]: int(folds[np.flatnonzero(data.question == q)[0]])
        for q in set(data.question.tolist())
    }
    (args.folds / "policies.json").write_text(
        json.dumps({name: fold_of[name] for name in names}, indent=2) + "\n", encoding="utf-8"
    )
    args.figures.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
