"""Does this sentence answer the question? certiq's relevance model, run in numpy.

A logistic model over what span selection computes anyway for each candidate sentence of the
retrieved chunks: its BM25 against the question (over the best), its cosine with the question,
its chunk's rank, how many question terms it holds, its length, whether it states something,
and the element-wise product of the two MiniLM vectors (which lets the model learn that "how
long" questions are answered by durations, not by sentences repeating the question's words).
Trained on PolicyQA, grouped by policy (scripts/train_relevance.py; model card:
relevance_model.md). Two weight sets ship: one for when there is an embedder, one lexical-only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from certiq.text import numbers
from certiq.trust.claims import is_statement

SHIPPED_MODEL = Path(__file__).with_name("relevance_model.json")
SCALARS = (
    "lexical",
    "semantic",
    "chunk",
    "coverage",
    "lexical_rank",
    "semantic_rank",
    "log_terms",
    "statement",
    "has_number",
    "question_term_count",
)
Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class Candidates:
    """What relevance is judged on, one row per candidate sentence."""

    texts: Sequence[str]
    terms: Sequence[Sequence[str]]
    question_terms: Sequence[str]
    lexical: Matrix  # BM25 over the best candidate's, 0..1
    semantic: Matrix | None  # cosine with the question, negatives as 0; None: no embedder
    chunk: Matrix  # the chunk's retrieval score over the best chunk's, 0..1
    question_vector: Matrix | None  # unit MiniLM vectors, when there is an embedder
    sentence_vectors: Matrix | None


def features(candidates: Candidates, dense: bool) -> Matrix:
    """The model's input: SCALARS, then (dense only) the product of question and sentence."""
    count = len(candidates.texts)
    query = set(candidates.question_terms)
    semantic = (
        candidates.semantic
        if dense and candidates.semantic is not None
        else np.zeros(count, dtype=np.float64)
    )
    columns = [
        candidates.lexical,
        semantic,
        candidates.chunk,
        np.array([len(query & set(terms)) / max(len(query), 1) for terms in candidates.terms]),
        _reciprocal_rank(candidates.lexical),
        _reciprocal_rank(semantic) if dense else np.zeros(count),
        np.array([math.log1p(len(terms)) for terms in candidates.terms]),
        np.array([float(is_statement(text)) for text in candidates.texts]),
        np.array([float(bool(numbers(text))) for text in candidates.texts]),
        np.full(count, math.log1p(len(query))),
    ]
    scalars = np.column_stack(columns).astype(np.float64)
    if not dense:
        return scalars
    if candidates.question_vector is None or candidates.sentence_vectors is None:
        raise ValueError("dense relevance needs the question and sentence vectors")
    product = candidates.sentence_vectors * candidates.question_vector[None, :]
    return np.hstack([scalars, product])


def _reciprocal_rank(scores: Matrix) -> Matrix:
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    result: Matrix = 1.0 / ranks
    return result


@dataclass(frozen=True)
class RelevanceModel:
    """Standardise, then logistic: P(the sentence holds the answer)."""

    name: str
    embedder: str | None  # the embedder whose vectors the dense weights read; None: lexical
    mean: Matrix
    scale: Matrix
    weights: Matrix
    bias: float

    def probabilities(self, candidates: Candidates) -> Matrix:
        if not len(candidates.texts):
            return np.zeros(0, dtype=np.float64)
        x = (features(candidates, self.embedder is not None) - self.mean) / self.scale
        result: Matrix = 1.0 / (1.0 + np.exp(-(x @ self.weights + self.bias)))
        return result

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "embedder": self.embedder,
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "weights": self.weights.tolist(),
            "bias": self.bias,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> RelevanceModel:
        def array(key: str) -> Matrix:
            return np.asarray(data[key], dtype=np.float64)

        return cls(
            name=str(data["name"]),
            embedder=str(data["embedder"]) if data.get("embedder") else None,
            mean=array("mean"),
            scale=array("scale"),
            weights=array("weights"),
            bias=float(str(data["bias"])),
        )


@cache
def shipped_model(embedder: str | None, path: Path = SHIPPED_MODEL) -> RelevanceModel | None:
    """The shipped weights for vectors of this embedder: the dense ones when they were trained
    on its vectors, otherwise the lexical ones (another model's vectors mean nothing to them).
    None when the file is absent."""
    if not path.exists():
        return None
    models = json.loads(path.read_text(encoding="utf-8"))["models"]
    dense = RelevanceModel.from_json(models["dense"])
    return dense if embedder == dense.embedder else RelevanceModel.from_json(models["lexical"])
