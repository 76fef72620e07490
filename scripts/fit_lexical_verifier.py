"""Fits the lexical verifier's model (layers/core/certiq/trust/lexical_model.json) on SciFact,
and estimates how it does on pairs it was not fitted on (--folds).

When to run it: by hand, to refit the shipped lexical models after changing the lexical verifier's
features or rules (commands below), or with --folds 5 for the README's cross-validated figures.

Two logistic models over certiq.trust.verifier.features: entail vs the rest and contradict vs the
rest (numpy gradient descent, L2). The entail bias is then shifted so that, through the
verifier's hard rules, at most --max-fcr of the non-entail training pairs reach the default
tau_entail (0.6), and the contradict bias so that balanced accuracy is highest. IDF comes from the
evidence texts; only terms seen in at least --min-df of them are kept, the rest get the maximum.
With --embedding, a second pair of models adds the MiniLM cosine of claim and evidence.

Calibration replays the verifier's rules on precomputed features (vectorised, `replay`); the
model written is then scored through the real verifier and render policy, and the two must
agree. --folds K also runs K-fold cross-validation grouped by claim (a claim's pairs all fall in
one fold): every step, IDF, cue words, weights and calibration, is refitted without the held-out
fold, and the held-out decisions are pooled into one false-certification rate and recall.

    .venv/bin/python scripts/fit_lexical_verifier.py [--pairs FILE] [--embedding] [--folds 5]

The two shipped models (see README, "Verification"):
    lexical_model.json          the defaults: in-sample calibration, the issue's train targets
    lexical_model.heldout.json  --calibration-folds 5 --cues 0 --max-fcr 0.07
                                --out layers/core/certiq/trust/lexical_model.heldout.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from certiq.config import PolicySettings
from certiq.evaluation.verification import Pair, read_pairs, score_pairs
from certiq.text import content_terms, words
from certiq.trust.verifier import (
    FEATURES,
    MODEL_PATH,
    LexicalModel,
    LexicalVerifier,
    Logistic,
    features,
)

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "scifact" / "claims.train.jsonl"
Matrix = np.ndarray[Any, np.dtype[np.float64]]
COLUMN = {name: i for i, name in enumerate(FEATURES)}


def fit(x: Matrix, y: Matrix, l2: float, steps: int = 1500) -> dict[str, Any]:
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float(np.mean(p - y))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist(), "bias": b}


def vocabulary(pairs: Sequence[Pair], args: argparse.Namespace) -> dict[str, Any]:
    """IDF over the evidence texts and the cue words (frequent claim words) of these pairs."""
    evidence = {pair.evidence for pair in pairs}
    df = Counter(term for text in evidence for term in set(content_terms(text)))
    default_idf = math.log(len(evidence) + 1)
    idf = {
        term: round(math.log((len(evidence) + 1) / (count + 0.5)), 3)
        for term, count in sorted(df.items())
        if count >= args.min_df
    }
    claim_words = Counter(word for pair in pairs for word in set(words(pair.claim)))
    cues = [word for word, count in claim_words.most_common(args.cues) if count >= args.min_cue]
    return {"idf": idf, "default_idf": default_idf, "cues": cues}


def rows_of(pairs: Sequence[Pair], model: dict[str, Any]) -> Matrix:
    return np.array(
        [
            features(p.claim, p.evidence, model["idf"], model["default_idf"], model["cues"])
            for p in pairs
        ]
    )


def probability(part: dict[str, Any], rows: Matrix) -> Matrix:
    z = ((rows - np.asarray(part["mean"])) / np.asarray(part["scale"])) @ np.asarray(
        part["weights"]
    ) + part["bias"]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))


def replay(model: dict[str, Any], kind: str, rows: Matrix, policy: PolicySettings) -> Matrix:
    """The render state of each pair as LexicalVerifier.assess and decide give it:
    0 UNVERIFIED, 1 VERIFIED, 2 BLOCKED."""
    entail = probability(model[kind]["entail"], rows)
    contradict = probability(model[kind]["contradict"], rows)
    return states(rows, entail, contradict, policy)


def states(rows: Matrix, entail: Matrix, contradict: Matrix, policy: PolicySettings) -> Matrix:
    """The verifier's hard rules over the models' probabilities, then the render policy."""
    coverage = rows[:, COLUMN["coverage"]]
    numbers_missing = rows[:, COLUMN["numbers_missing"]] > 0
    mismatch = rows[:, COLUMN["negation_mismatch"]] > 0
    denied = mismatch & (coverage == 1.0)
    quoted = (coverage == 1.0) & ~mismatch & ~numbers_missing
    entail = np.where(denied | numbers_missing, 0.0, np.where(quoted, 1.0, entail))
    contradict = np.where(denied, 1.0, np.where(quoted & ~numbers_missing, 0.0, contradict))
    # assess rounds to 6 places before the policy compares
    entail, contradict = np.round(entail, 6), np.round(contradict, 6)
    state = np.where(entail >= policy.tau_entail, 1, 0)
    return np.where(contradict >= policy.tau_contradict, 2, state)


def metrics(states: Matrix, labels: Matrix) -> dict[str, float]:
    unsupported = labels != "entail"
    predicted = np.array(["neutral", "entail", "contradict"])[states]
    recalls = [float(np.mean(predicted[labels == label] == label)) for label in np.unique(labels)]
    return {
        "balanced_accuracy": float(np.mean(recalls)),
        "false_certification_rate": float(np.mean(states[unsupported] == 1)),
        "supported_recall": float(np.mean(states[~unsupported] == 1)),
    }


def logit(part: dict[str, Any], rows: Matrix) -> Matrix:
    z = ((rows - np.asarray(part["mean"])) / np.asarray(part["scale"])) @ np.asarray(
        part["weights"]
    )
    return np.asarray(z + part["bias"])


def sigmoid(z: Matrix) -> Matrix:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0))))


def calibrate(
    model: dict[str, Any],
    kind: str,
    rows: Matrix,
    labels: Matrix,
    policy: PolicySettings,
    max_fcr: float,
    logits: tuple[Matrix, Matrix] | None = None,
) -> None:
    """Shifts the entail bias (highest recall within max_fcr), then the contradict bias
    (highest balanced accuracy within max_fcr).

    ``logits``: the (entail, contradict) logits to calibrate on, out-of-fold ones when given
    (the fitted model's own scores on its training pairs are overconfident: a bias chosen on
    them certifies far more unsupported pairs on new ones).
    """
    entail_z, contradict_z = logits or (
        logit(model[kind]["entail"], rows),
        logit(model[kind]["contradict"], rows),
    )
    never = np.zeros(len(rows))
    best: tuple[float, float] = (-20.0, -1.0)
    for shift in np.arange(-6.0, 6.01, 0.05):
        found = metrics(states(rows, sigmoid(entail_z + shift), never, policy), labels)
        if found["false_certification_rate"] <= max_fcr and found["supported_recall"] > best[1]:
            best = (float(shift), found["supported_recall"])
    entail = sigmoid(entail_z + best[0])
    best_c: tuple[float, float] = (-20.0, -1.0)
    for shift in np.arange(-6.0, 6.01, 0.1):
        found = metrics(states(rows, entail, sigmoid(contradict_z + shift), policy), labels)
        if found["false_certification_rate"] <= max_fcr and found["balanced_accuracy"] > best_c[1]:
            best_c = (float(shift), found["balanced_accuracy"])
    model[kind]["entail"]["bias"] += best[0]
    model[kind]["contradict"]["bias"] += best_c[0]


def out_of_fold_logits(
    rows: Matrix, labels: Matrix, groups: Sequence[Pair], folds: int, l2: float
) -> tuple[Matrix, Matrix]:
    """Each pair's entail and contradict logits from models fitted without its claim's fold."""
    fold = np.array([fold_of(pair, folds, salt="inner") for pair in groups])
    entail, contradict = np.zeros(len(rows)), np.zeros(len(rows))
    for k in range(folds):
        inside, outside = fold != k, fold == k
        for out, target in ((entail, "entail"), (contradict, "contradict")):
            part = fit(rows[inside], (labels[inside] == target).astype(float), l2)
            out[outside] = logit(part, rows[outside])
    return entail, contradict


def train(
    pairs: Sequence[Pair], args: argparse.Namespace, cosine: Matrix | None = None
) -> dict[str, Any]:
    model = vocabulary(pairs, args)
    model["calibration"] = "held_out" if args.calibration_folds > 1 else "in_sample"
    rows = rows_of(pairs, model)
    labels = np.array([p.label for p in pairs])
    policy = PolicySettings()
    model["lexical"] = {
        "entail": fit(rows, (labels == "entail").astype(float), args.l2),
        "contradict": fit(rows, (labels == "contradict").astype(float), args.l2),
    }
    oof = args.calibration_folds

    def held_out(x: Matrix) -> tuple[Matrix, Matrix] | None:
        return out_of_fold_logits(x, labels, pairs, oof, args.l2) if oof > 1 else None

    calibrate(model, "lexical", rows, labels, policy, args.max_fcr, held_out(rows))
    if cosine is not None:
        rows_e = np.hstack([rows, cosine[:, None]])
        model["embedding"] = {
            "entail": fit(rows_e, (labels == "entail").astype(float), args.l2),
            "contradict": fit(rows_e, (labels == "contradict").astype(float), args.l2),
        }
        calibrate(model, "embedding", rows_e, labels, policy, args.max_fcr, held_out(rows_e))
    return model


def fold_of(pair: Pair, folds: int, salt: str = "") -> int:
    return int(hashlib.sha256((salt + pair.claim).encode()).hexdigest(), 16) % folds


def cross_validate(
    pairs: Sequence[Pair], args: argparse.Namespace, cosine: Matrix | None
) -> dict[str, dict[str, float]]:
    kinds = ["lexical"] + (["embedding"] if cosine is not None else [])
    states = {kind: np.zeros(len(pairs), dtype=int) for kind in kinds}
    fold = np.array([fold_of(pair, args.folds) for pair in pairs])
    labels = np.array([p.label for p in pairs])
    for k in range(args.folds):
        train_at, test_at = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        model = train(
            [pairs[i] for i in train_at], args, None if cosine is None else cosine[train_at]
        )
        rows = rows_of([pairs[i] for i in test_at], model)
        states["lexical"][test_at] = replay(model, "lexical", rows, PolicySettings())
        if cosine is not None:
            rows_e = np.hstack([rows, cosine[test_at][:, None]])
            states["embedding"][test_at] = replay(model, "embedding", rows_e, PolicySettings())
    return {kind: metrics(states[kind], labels) for kind in kinds}


def _verifier(model: dict[str, Any], embedder: Any) -> LexicalVerifier:
    embedding = model.get("embedding")
    lexical = LexicalModel(
        idf=model["idf"],
        default_idf=model["default_idf"],
        cues=tuple(model["cues"]),
        entail=Logistic.from_json(model["lexical"]["entail"]),
        contradict=Logistic.from_json(model["lexical"]["contradict"]),
        embedding_entail=Logistic.from_json(embedding["entail"]) if embedding else None,
        embedding_contradict=Logistic.from_json(embedding["contradict"]) if embedding else None,
        calibration=model["calibration"],
    )
    return LexicalVerifier(embedder=embedder, model=lexical)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--min-df", type=int, default=3)
    parser.add_argument("--max-fcr", type=float, default=0.04)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--cues", type=int, default=200, help="most frequent claim words")
    parser.add_argument("--min-cue", type=int, default=8)
    parser.add_argument("--embedding", action="store_true")
    parser.add_argument("--folds", type=int, default=0, help="K-fold CV estimate (0: none)")
    parser.add_argument(
        "--calibration-folds",
        type=int,
        default=1,
        help="calibrate the biases on out-of-fold scores from this many folds (<= 1: in-sample)",
    )
    parser.add_argument("--cv-only", action="store_true", help="estimate; write no model")
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)
    embedder = None
    cosine = None
    if args.embedding:
        from certiq.adapters.local.minilm import MiniLmEmbedder

        embedder = MiniLmEmbedder()
        claims = embedder.embed([p.claim for p in pairs])
        texts = embedder.embed([p.evidence for p in pairs])
        cosine = np.sum(claims * texts, axis=1).astype(np.float64)
    if args.folds:
        for kind, found in cross_validate(pairs, args, cosine).items():
            print(f"{kind} {args.folds}-fold CV (grouped by claim)", json.dumps(found))
    if args.cv_only:
        return
    model = train(pairs, args, cosine)
    policy = PolicySettings()
    rows = rows_of(pairs, model)
    labels = np.array([p.label for p in pairs])
    replayed = metrics(replay(model, "lexical", rows, policy), labels)
    report = score_pairs(pairs, _verifier(model, None), policy)
    print("lexical in-sample", report.to_json())
    assert abs(replayed["supported_recall"] - report.supported_recall) < 1e-9, "replay drifted"
    assert abs(replayed["false_certification_rate"] - report.false_certification_rate) < 1e-9
    if embedder is not None:
        print("embedding in-sample", score_pairs(pairs, _verifier(model, embedder), policy))
    args.out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(model['idf'])} idf terms)")


if __name__ == "__main__":
    main()
