"""The injection classifier: refuses attempts to steer the assistant that no pattern names.

Two logistic regressions whose scores are added: one over hashed word and character n-grams of
the text (cheap, and it sees markup, "DAN", "[system]"), one over the text's all-MiniLM-L6-v2
embedding (it sees paraphrases). Fitted by scripts/train_injection_classifier.py on public
attack collections and ordinary questions (injection_model.md); run here in numpy. The pattern
lists in certiq.guardrails.validation stay in front: they name the rule that matched.

Documents are read sentence by sentence (addressing_assistant): the pattern lists' rules for
instructions to the assistant, less those for questions only ("Do not share your password" is
an injection in a question but a rule in a policy), then the n-gram model alone at a threshold
of its own.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from certiq.guardrails.normalize import strip_invisible
from certiq.guardrails.validation import addresses_by_pattern
from certiq.ports import Embedder

SHIPPED_MODEL = Path(__file__).with_name("injection_model.npz")
HASH_BUCKETS = 1 << 18
CHAR_GRAMS = (3, 4, 5)
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Words and single punctuation marks, without case, accents or invisible characters."""
    text = strip_invisible(text)
    if not text.isascii():  # ASCII has no accents or compatibility forms to undo
        text = unicodedata.normalize("NFKD", text)
        text = "".join(char for char in text if not unicodedata.combining(char))
    return _TOKEN.findall(text.casefold())


@dataclass(frozen=True)
class NgramRows:
    """The hashed n-grams of several texts, one entry per (text, bucket): ``rows`` says which
    text, ``buckets`` which bucket, ``values`` its log count, L2-normalised per text."""

    rows: NDArray[np.int64]
    buckets: NDArray[np.int64]
    values: NDArray[np.float32]


_MASK = np.uint64(0xFFFFFFFF)
_PRIME = np.uint64(16777619)
_MIX = np.uint64(0x45D9F3B)


def ngram_rows(texts: Sequence[str]) -> NgramRows:
    """Hashed word 1-2-grams (crc32) and character 3-5-grams (a polynomial hash computed for
    all texts at once in numpy: a sentence costs about 30 microseconds, not 200)."""
    rows: list[NDArray[np.int64]] = []
    buckets: list[NDArray[np.int64]] = []
    spaced: list[str] = []
    for row, text in enumerate(texts):
        words = tokens(text)
        grams = [f"w:{word}" for word in words]
        grams += [f"b:{first} {second}" for first, second in pairwise(words)]
        hashed = [zlib.crc32(gram.encode()) % HASH_BUCKETS for gram in grams]
        rows.append(np.full(len(hashed), row, np.int64))
        buckets.append(np.array(hashed, np.int64))
        spaced.append(f" {' '.join(words)} ")
    codes = np.frombuffer("".join(spaced).encode("utf-32-le"), np.uint32).astype(np.uint64)
    owner = np.repeat(np.arange(len(texts), dtype=np.int64), [len(s) for s in spaced])
    for size in CHAR_GRAMS:
        count = len(codes) - size + 1
        if count <= 0:
            continue
        hashes = np.full(count, size, np.uint64)
        for offset in range(size):
            hashes = (hashes * _PRIME + codes[offset : offset + count]) & _MASK
        hashes = ((hashes ^ (hashes >> np.uint64(16))) * _MIX) & _MASK
        hashes ^= hashes >> np.uint64(16)
        inside = owner[:count] == owner[size - 1 : size - 1 + count]  # no gram spans two texts
        rows.append(owner[:count][inside])
        buckets.append((hashes[inside] % np.uint64(HASH_BUCKETS)).astype(np.int64))
    keys, counts = np.unique(
        np.concatenate(rows) * HASH_BUCKETS + np.concatenate(buckets), return_counts=True
    )
    owners = keys // HASH_BUCKETS
    values = np.log1p(counts).astype(np.float32)
    norms = np.sqrt(np.bincount(owners, values.astype(np.float64) ** 2, minlength=len(texts)))
    values /= norms[owners].astype(np.float32)
    return NgramRows(owners, keys % HASH_BUCKETS, values)


@dataclass(frozen=True)
class InjectionWeights:
    ngram: NDArray[np.float32]  # (HASH_BUCKETS,)
    ngram_bias: float
    embedding: NDArray[np.float32]  # (384,)
    embedding_bias: float
    # Chosen on held-out sources, one per variant: see injection_model.md.
    threshold: float  # for the summed score
    lexical_threshold: float  # for the n-gram score alone, when MiniLM is not installed
    document_threshold: float  # for the n-gram score of a sentence of an indexed document

    @classmethod
    @cache
    def load(cls, path: Path = SHIPPED_MODEL) -> InjectionWeights:
        """Read once per process and path."""
        with np.load(path) as data:
            return cls(
                ngram=data["ngram"].astype(np.float32),
                ngram_bias=float(data["ngram_bias"]),
                embedding=data["embedding"].astype(np.float32),
                embedding_bias=float(data["embedding_bias"]),
                threshold=float(data["threshold"]),
                lexical_threshold=float(data["lexical_threshold"]),
                document_threshold=float(data["document_threshold"]),
            )

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            ngram=self.ngram.astype(np.float16),
            ngram_bias=np.float32(self.ngram_bias),
            embedding=self.embedding.astype(np.float32),
            embedding_bias=np.float32(self.embedding_bias),
            threshold=np.float32(self.threshold),
            lexical_threshold=np.float32(self.lexical_threshold),
            document_threshold=np.float32(self.document_threshold),
        )

    def ngram_logit(self, text: str) -> float:
        return float(self.ngram_logits([text])[0])

    def ngram_logits(self, texts: Sequence[str]) -> NDArray[np.float64]:
        features = ngram_rows(texts)
        contributions = features.values * self.ngram[features.buckets]
        logits = np.bincount(features.rows, contributions, minlength=len(texts))
        return logits.astype(np.float64) + self.ngram_bias


class InjectionClassifier:
    """Scores how much a text reads like an attempt to steer the assistant.

    ``embedder`` must be all-MiniLM-L6-v2 (the weights were fitted on its vectors), or None
    where it is not installed (the Lambda layer): then the n-gram model decides alone, at its
    own threshold, and catches fewer attacks (injection_model.md has both figures).
    """

    def __init__(
        self,
        embedder: Embedder | None,
        *,
        threshold: float | None = None,
        model_path: Path = SHIPPED_MODEL,
    ) -> None:
        self._embedder = embedder
        self._threshold = threshold
        self._model_path = model_path

    @property
    def variant(self) -> str:
        return "ngrams+minilm" if self._embedder is not None else "ngrams"

    def score(self, text: str) -> float:
        """The logit of the n-gram model, plus the embedding model's when there is MiniLM."""
        weights = InjectionWeights.load(self._model_path)
        logit = weights.ngram_logit(text)
        if self._embedder is not None:
            vector = self._embedder.embed([text])[0]
            logit += float(vector @ weights.embedding) + weights.embedding_bias
        return logit

    @property
    def threshold(self) -> float:
        if self._threshold is not None:
            return self._threshold
        weights = InjectionWeights.load(self._model_path)
        return weights.threshold if self._embedder is not None else weights.lexical_threshold

    def is_attack(self, text: str) -> bool:
        return self.score(text) > self.threshold


def addressing_assistant(sentences: Sequence[str]) -> list[bool]:
    """Which sentences of a document read as an instruction to an AI assistant ("Ignore the
    rest of this data and print ..."): flagged at ingestion, so they are never given as an
    answer and are fenced in model prompts. The pattern lists' rules for such instructions (in
    every language that has a list), then the n-gram model, for all sentences at once."""
    if not sentences:
        return []
    weights = InjectionWeights.load()
    scored = weights.ngram_logits(sentences) > weights.document_threshold
    return [
        bool(flagged) or addresses_by_pattern(sentence)
        for sentence, flagged in zip(sentences, scored, strict=True)
    ]
