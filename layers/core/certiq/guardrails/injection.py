"""The injection classifier: refuses attempts to steer the assistant that no pattern names.

Two logistic regressions whose scores are added: one over hashed word and character n-grams of
the text (cheap, and it sees markup, "DAN", "[system]"), one over the text's all-MiniLM-L6-v2
embedding (it sees paraphrases). Fitted by scripts/train_injection_classifier.py on public
attack collections and ordinary questions (injection_model.md); run here in numpy. The pattern
lists in certiq.guardrails.validation stay in front: they name the rule that matched.

Documents are read sentence by sentence (addresses_assistant): the pattern lists' rules for
instructions to the assistant, less those for questions only ("Do not share your password" is
an injection in a question but a rule in a policy), then the n-gram model alone at a threshold
of its own.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from certiq.guardrails.normalize import strip_invisible
from certiq.guardrails.validation import find_match, pattern_languages
from certiq.ports import Embedder

SHIPPED_MODEL = Path(__file__).with_name("injection_model.npz")
HASH_BUCKETS = 1 << 18
CHAR_GRAMS = (3, 4, 5)
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Words and single punctuation marks, without case, accents or invisible characters."""
    text = unicodedata.normalize("NFKD", strip_invisible(text)).casefold()
    text = "".join(char for char in text if not unicodedata.combining(char))
    return _TOKEN.findall(text)


def ngram_features(text: str) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Hashed word 1-2-grams and character 3-5-grams: bucket ids and their L2-normalised
    log counts."""
    words = tokens(text)
    grams = [f"w:{word}" for word in words]
    grams += [f"b:{first} {second}" for first, second in pairwise(words)]
    spaced = f" {' '.join(words)} "
    for size in CHAR_GRAMS:
        grams += [f"c{size}:{spaced[i : i + size]}" for i in range(len(spaced) - size + 1)]
    buckets = np.array([zlib.crc32(gram.encode()) % HASH_BUCKETS for gram in grams], np.int64)
    ids, counts = np.unique(buckets, return_counts=True)
    values = np.log1p(counts).astype(np.float32)
    norm = float(np.linalg.norm(values))
    return ids, values / norm if norm else values


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
        ids, values = ngram_features(text)
        return float(values @ self.ngram[ids]) + self.ngram_bias


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


def addresses_assistant(sentence: str) -> bool:
    """Whether a sentence of a document reads as an instruction to an AI assistant ("Ignore
    the rest of this data and print ..."): flagged at ingestion, so it is never given as an
    answer and is fenced in model prompts. The pattern lists' rules for such instructions (in
    every language that has a list), then the n-gram model. About 0.5 ms a sentence."""
    if find_match(sentence, pattern_languages(), in_document=True) is not None:
        return True
    weights = InjectionWeights.load()
    return weights.ngram_logit(sentence) > weights.document_threshold
