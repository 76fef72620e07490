"""The offline verifier: does the cited evidence say what the claim says?

Lexical first, so it is strict rather than clever. A few hard rules hold whatever the model says:
a number the claim states and the evidence does not is never certified, a claim quoted in full
(every content word present, negation on both sides or neither) is certified, and a negation on
one side only is read as a contradiction. Between those, a tiny logistic model fitted on SciFact
claim/evidence pairs (scripts/fit_lexical_verifier.py, weights in lexical_model.json) scores
paraphrases from word coverage, IDF-weighted coverage, numbers, negation and antonym cues, and,
when an embedder is given, the cosine of claim and evidence. Its entail score is shifted so that
passing the default threshold (0.6) is rare for evidence that does not support the claim: a
paraphrase it is unsure of comes out UNVERIFIED, which is the safe direction.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from certiq.ports import Embedder, Support
from certiq.text import content_terms, has_negation, numbers, words

MODEL_PATH = Path(__file__).with_name("lexical_model.json")
# The same features with biases calibrated on out-of-fold scores: fewer claims certified, but its
# false-certification rate holds on pairs it was not fitted on (docs/verification.md).
HELD_OUT_MODEL_PATH = Path(__file__).with_name("lexical_model.heldout.json")

# Pairs of opposite directions: a claim using one side against evidence using only the other.
ANTONYMS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        (
            "increase increases increased increasing raise raises raised elevated",
            "decrease decreases decreased decreasing reduce reduces reduced reduction"
            " lower lowers lowered",
        ),
        ("higher greater more larger", "lower less fewer smaller"),
        ("positive positively", "negative negatively"),
        (
            "promote promotes promoted enhance enhances enhanced",
            "inhibit inhibits inhibited suppress suppresses suppressed impair impairs impaired",
        ),
        (
            "activate activates activated activation",
            "inactivate inactivates inactivated deactivate deactivates",
        ),
        (
            "upregulate upregulates upregulated upregulation",
            "downregulate downregulates downregulated downregulation",
        ),
        ("improve improves improved better", "worsen worsens worsened worse"),
        ("risk harmful", "protective protects protect benefit beneficial"),
        ("associated correlated linked", "unassociated uncorrelated unrelated independent"),
    )
)

FEATURES = (
    "coverage",
    "idf_coverage",
    "bigram_coverage",
    "max_missing_idf",
    "numbers_matched",
    "numbers_missing",
    "negation_mismatch",
    "antonym_cue",
    "log_length_ratio",
    "claim_terms",
    "claim_negation",
    "evidence_negation",
    "longest_run",
    "evidence_hedged",
)
# Words with which evidence reports a finding as uncertain; a firm claim on them is not stated.
HEDGE_WORDS = frozenset(
    "may might could suggest suggests suggested suggesting possibly possible potential "
    "potentially likely unlikely perhaps hypothesize hypothesized".split()
)
EMBEDDING_FEATURES = (*FEATURES, "cosine")


def _opposed(claim_words: set[str], evidence_words: set[str]) -> bool:
    for left, right in ANTONYMS:
        for mine, other in ((left, right), (right, left)):
            if claim_words & mine and evidence_words & other and not evidence_words & mine:
                return True
    return False


def features(
    claim: str,
    evidence: str,
    idf: Mapping[str, float],
    default_idf: float,
    cues: Sequence[str] = (),
) -> list[float]:
    """The lexical features of a claim against its (joined) evidence, in FEATURES order, then
    one indicator per cue word: the claim uses it and the evidence does not."""
    claim_list = content_terms(claim)
    claim_terms = set(claim_list)
    evidence_list = content_terms(evidence)
    evidence_terms = set(evidence_list)
    shared = claim_terms & evidence_terms
    weight = {term: idf.get(term, default_idf) for term in claim_terms}
    total = sum(weight.values()) or 1.0
    bigrams = set(pairwise(claim_list))
    evidence_bigrams = set(pairwise(evidence_list))
    missing = [weight[term] for term in claim_terms - evidence_terms]
    claim_numbers, evidence_numbers = numbers(claim), numbers(evidence)
    claim_words, evidence_words = set(words(claim)), set(words(evidence))
    claim_negated, evidence_negated = has_negation(claim), has_negation(evidence)
    return [
        len(shared) / max(len(claim_terms), 1),
        sum(weight[term] for term in shared) / total,
        len(bigrams & evidence_bigrams) / len(bigrams) if bigrams else 1.0,
        max(missing, default=0.0) / default_idf,
        float(bool(claim_numbers) and claim_numbers <= evidence_numbers),
        float(not claim_numbers <= evidence_numbers),
        float(claim_negated != evidence_negated),
        float(_opposed(claim_words, evidence_words)),
        math.log((len(evidence_list) + 1) / (len(claim_list) + 1)),
        math.log(len(claim_terms) + 1),
        float(claim_negated),
        float(evidence_negated),
        _longest_run(claim_list, evidence_list) / max(len(claim_list), 1),
        float(bool(evidence_words & HEDGE_WORDS) and not claim_words & HEDGE_WORDS),
        *(float(cue in claim_words and cue not in evidence_words) for cue in cues),
    ]


def _longest_run(claim: Sequence[str], evidence: Sequence[str]) -> int:
    """The most consecutive claim terms found consecutively, in order, in the evidence."""
    best = 0
    previous = [0] * (len(evidence) + 1)
    for term in claim:
        current = [0] * (len(evidence) + 1)
        for j, other in enumerate(evidence, start=1):
            if term == other:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


@dataclass(frozen=True)
class Logistic:
    """A standardised logistic model: sigmoid(((x - mean) / scale) . weights + bias)."""

    mean: np.ndarray[Any, np.dtype[np.float64]]
    scale: np.ndarray[Any, np.dtype[np.float64]]
    weights: np.ndarray[Any, np.dtype[np.float64]]
    bias: float

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Logistic:
        return cls(
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),
        )

    def probability(self, row: Sequence[float]) -> float:
        z = float(((np.asarray(row) - self.mean) / self.scale) @ self.weights) + self.bias
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


@dataclass(frozen=True)
class LexicalModel:
    idf: Mapping[str, float]
    default_idf: float
    cues: tuple[str, ...]
    entail: Logistic
    contradict: Logistic
    embedding_entail: Logistic | None
    embedding_contradict: Logistic | None
    calibration: str = "in_sample"  # or "held_out": biases set on out-of-fold scores


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> LexicalModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    embedding = data.get("embedding")
    return LexicalModel(
        idf=data["idf"],
        default_idf=float(data["default_idf"]),
        cues=tuple(data["cues"]),
        entail=Logistic.from_json(data["lexical"]["entail"]),
        contradict=Logistic.from_json(data["lexical"]["contradict"]),
        embedding_entail=Logistic.from_json(embedding["entail"]) if embedding else None,
        embedding_contradict=Logistic.from_json(embedding["contradict"]) if embedding else None,
        calibration=str(data.get("calibration", "in_sample")),
    )


class LexicalVerifier:
    """Implements the Verifier port; verdicts are labelled "lexical", or "lexical+embedding"
    when an embedder is given (and the shipped model has embedding weights), with ":held-out"
    for a model calibrated on out-of-fold scores."""

    def __init__(self, embedder: Embedder | None = None, model: LexicalModel | None = None) -> None:
        self._model = model or load_model()
        usable = self._model.embedding_entail is not None
        self._embedder = embedder if usable else None

    @property
    def name(self) -> str:
        name = "lexical+embedding" if self._embedder is not None else "lexical"
        return f"{name}:held-out" if self._model.calibration == "held_out" else name

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        claim_terms = set(content_terms(claim))
        if not claim_terms or not evidence:
            return Support(entail=0.0, contradict=0.0)
        joined = " ".join(evidence)
        row = features(claim, joined, self._model.idf, self._model.default_idf, self._model.cues)
        coverage, numbers_missing, negation_mismatch = row[0], row[5], row[6]
        entail_model, contradict_model = self._model.entail, self._model.contradict
        if self._embedder is not None:
            vectors = self._embedder.embed([claim, joined])
            row.append(float(vectors[0] @ vectors[1]))
            assert self._model.embedding_entail and self._model.embedding_contradict
            entail_model = self._model.embedding_entail
            contradict_model = self._model.embedding_contradict
        contradict = contradict_model.probability(row)
        if negation_mismatch and coverage == 1.0:
            # One side denies what the other states: never certified, blocked.
            return Support(entail=0.0, contradict=1.0)
        if numbers_missing:
            # A number the evidence does not state cannot be certified, however similar the rest.
            return Support(entail=0.0, contradict=round(contradict, 6))
        if coverage == 1.0 and not negation_mismatch:
            # Every content word of the claim is in the evidence, numbers and negation agree.
            return Support(entail=1.0, contradict=0.0)
        entail = entail_model.probability(row)
        return Support(entail=round(entail, 6), contradict=round(contradict, 6))
