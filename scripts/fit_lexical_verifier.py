"""Fits the lexical verifier's model (layers/core/certiq/trust/lexical_model.json) on SciFact.

Two logistic models over certiq.trust.verifier.features: entail vs the rest and contradict vs the
rest (numpy gradient descent, L2). The entail bias is then shifted so that, through the real
verifier and its hard rules, at most --max-fcr of the non-entail training pairs reach the default
tau_entail (0.6), and the contradict bias so that balanced accuracy is highest. IDF comes from the
evidence texts; only terms seen in at least --min-df of them are kept, the rest get the maximum.
With --embedding, a second pair of models adds the MiniLM cosine of claim and evidence.

    .venv/bin/python scripts/fit_lexical_verifier.py [--pairs FILE] [--embedding]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from certiq.config import PolicySettings
from certiq.evaluation.verification import read_pairs, score_pairs
from certiq.text import content_terms, words
from certiq.trust.verifier import MODEL_PATH, LexicalModel, LexicalVerifier, Logistic, features

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "scifact" / "claims.train.jsonl"
Matrix = np.ndarray[Any, np.dtype[np.float64]]


def fit(x: Matrix, y: Matrix, l2: float = 1e-2, steps: int = 1500) -> dict[str, Any]:
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float(np.mean(p - y))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist(), "bias": b}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--min-df", type=int, default=3)
    parser.add_argument("--max-fcr", type=float, default=0.04)
    parser.add_argument("--cues", type=int, default=300, help="most frequent claim words")
    parser.add_argument("--min-cue", type=int, default=8)
    parser.add_argument("--embedding", action="store_true")
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)
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
    rows = np.array([features(p.claim, p.evidence, idf, default_idf, cues) for p in pairs])
    labels = np.array([p.label for p in pairs])
    model: dict[str, Any] = {"idf": idf, "default_idf": default_idf, "cues": cues}
    model["lexical"] = {
        "entail": fit(rows, (labels == "entail").astype(float)),
        "contradict": fit(rows, (labels == "contradict").astype(float)),
    }
    if args.embedding:
        from certiq.adapters.local.minilm import MiniLmEmbedder

        embedder = MiniLmEmbedder()
        claims = embedder.embed([p.claim for p in pairs])
        texts = embedder.embed([p.evidence for p in pairs])
        cosine = np.sum(claims * texts, axis=1, keepdims=True)
        rows_e = np.hstack([rows, cosine])
        model["embedding"] = {
            "entail": fit(rows_e, (labels == "entail").astype(float)),
            "contradict": fit(rows_e, (labels == "contradict").astype(float)),
        }
    policy = PolicySettings()
    calibrate(model, "lexical", pairs, policy, args.max_fcr, None)
    if args.embedding:
        calibrate(model, "embedding", pairs, policy, args.max_fcr, embedder)
    args.out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(idf)} idf terms)")


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
    )
    return LexicalVerifier(embedder=embedder, model=lexical)


def calibrate(
    model: dict[str, Any],
    kind: str,
    pairs: list[Any],
    policy: PolicySettings,
    max_fcr: float,
    embedder: Any,
) -> None:
    """Shifts the entail bias (highest recall within max_fcr), then the contradict bias."""
    base_e = model[kind]["entail"]["bias"]
    base_c = model[kind]["contradict"]["bias"]
    model[kind]["contradict"]["bias"] = base_c - 20.0  # no blocking by the model while tuning
    best: tuple[float, float] | None = None
    for shift in np.arange(-4.0, 4.01, 0.1):
        model[kind]["entail"]["bias"] = base_e + float(shift)
        report = score_pairs(pairs, _verifier(model, embedder), policy)
        if report.false_certification_rate <= max_fcr and (
            best is None or report.supported_recall > best[1]
        ):
            best = (float(shift), report.supported_recall)
    assert best is not None
    model[kind]["entail"]["bias"] = base_e + best[0]
    best_c: tuple[float, float] = (-20.0, -1.0)
    for shift in np.arange(-4.0, 4.01, 0.25):
        model[kind]["contradict"]["bias"] = base_c + float(shift)
        report = score_pairs(pairs, _verifier(model, embedder), policy)
        if report.false_certification_rate <= max_fcr and report.balanced_accuracy > best_c[1]:
            best_c = (float(shift), report.balanced_accuracy)
    model[kind]["contradict"]["bias"] = base_c + best_c[0]
    report = score_pairs(pairs, _verifier(model, embedder), policy)
    print(kind, report.to_json())


if __name__ == "__main__":
    main()
