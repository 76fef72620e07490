"""From a model's class probabilities to the Support the render policy judges.

A classifier's probabilities are not the policy's thresholds: certiq's verifier model reaches a
false-certification rate of 5% only where its entail probability is far above 0.5. Its
config.json therefore carries the thresholds chosen on held-out predictions
(scripts/calibrate_verifier.py), and each score is rescaled, piecewise linearly and monotonically,
so that the model's threshold lands on the policy's default (tau_entail 0.6, tau_contradict 0.5).
A stricter policy stays stricter: the order of scores is kept.

Three rules can overrule the model (the calibration names those it keeps):
  number    a claim stating a number its evidence does not state is never certified; kept only
            where it improves figures on held-out claims
  verbatim  a claim that is, word for word, a sentence of its evidence or a clause the claim
            compiler makes of one states what the evidence states: certified, never blocked. A
            quote read out of its sentence ("the drug is effective" out of "it is unclear
            whether the drug is effective") is no clause, and is left to the model.
  unrelated evidence that shares no content word with the claim is not about it: it neither
            states nor contradicts the claim, and the model is not asked. The shipped model,
            shown claims beside other claims' evidence, certified up to 5% of them and blocked
            up to 70% ("its source says otherwise" of a source that says nothing of it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from certiq.config import PolicySettings
from certiq.ports import Support
from certiq.sentences import split_sentences
from certiq.text import content_terms, numbers, words
from certiq.trust.claims import RuleSplitter

ENTAIL_ANCHOR: Final = float(PolicySettings.model_fields["tau_entail"].default)
CONTRADICT_ANCHOR: Final = float(PolicySettings.model_fields["tau_contradict"].default)
GUARDS: Final = ("number", "verbatim", "unrelated")


@dataclass(frozen=True)
class Calibration:
    entail_threshold: float = ENTAIL_ANCHOR
    contradict_threshold: float = CONTRADICT_ANCHOR
    guards: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, data: Mapping[str, Any] | None) -> Calibration:
        """The ``certiq_calibration`` block of a model's config.json; none: raw probabilities."""
        if not data:
            return cls()
        guards = tuple(str(name) for name in data.get("guards", ()))
        unknown = sorted(set(guards) - set(GUARDS))
        if unknown:
            raise ValueError(f"unknown verifier guards {unknown}; known: {', '.join(GUARDS)}")
        return cls(
            entail_threshold=float(data["entail_threshold"]),
            contradict_threshold=float(data["contradict_threshold"]),
            guards=guards,
        )

    def by_rule(self, claim: str, evidence: Sequence[str]) -> Support | None:
        """The Support the verbatim and unrelated rules give without asking the model, or None."""
        if "verbatim" in self.guards and states_verbatim(claim, evidence):
            rationale = "quoted word for word from the evidence"
            return Support(entail=1.0, contradict=0.0, rationale=rationale)
        if "unrelated" in self.guards and not shares_a_term(claim, evidence):
            rationale = "the evidence shares no word with this claim"
            return Support(entail=0.0, contradict=0.0, rationale=rationale)
        return None

    def support(
        self, claim: str, evidence: Sequence[str], entail: float, contradict: float
    ) -> Support:
        """The Support of a claim whose evidence the model scored as given: the verbatim rule's
        when it applies, else the calibrated scores."""
        return self.by_rule(claim, evidence) or self.scored(claim, evidence, entail, contradict)

    def scored(
        self, claim: str, evidence: Sequence[str], entail: float, contradict: float
    ) -> Support:
        """The model's scores rescaled onto the policy's thresholds, under the number guard."""
        entail = rescale(entail, self.entail_threshold, ENTAIL_ANCHOR)
        contradict = rescale(contradict, self.contradict_threshold, CONTRADICT_ANCHOR)
        rationale = None
        if "number" in self.guards and (missing := unstated_numbers(claim, " ".join(evidence))):
            entail = 0.0
            rationale = f"the evidence does not state {', '.join(sorted(missing))}"
        return Support(
            entail=round(entail, 6), contradict=round(contradict, 6), rationale=rationale
        )


def rescale(probability: float, threshold: float, anchor: float) -> float:
    """Maps [0, threshold] onto [0, anchor] and [threshold, 1] onto [anchor, 1], linearly."""
    probability = min(max(probability, 0.0), 1.0)
    if threshold <= 0.0 or threshold >= 1.0:
        return probability
    if probability < threshold:
        return probability / threshold * anchor
    return anchor + (probability - threshold) / (1.0 - threshold) * (1.0 - anchor)


def states_verbatim(claim: str, evidence: Sequence[str]) -> bool:
    """Whether the claim is, word for word (case and punctuation aside), a sentence of the
    evidence or one of the clauses certiq's claim splitter makes of such a sentence."""
    mine = words(claim)
    if not mine:
        return False
    splitter = RuleSplitter()
    for quote in evidence:
        for start, end in split_sentences(quote):
            sentence = quote[start:end]
            if words(sentence) == mine:
                return True
            if any(words(clause) == mine for clause in splitter.split(sentence)):
                return True
    return False


def shares_a_term(claim: str, evidence: Sequence[str]) -> bool:
    """Whether the evidence holds a content word of the claim (stemmed, stopwords aside)."""
    mine = set(content_terms(claim))
    return not mine or any(mine.intersection(content_terms(quote)) for quote in evidence)


def unstated_numbers(claim: str, evidence: str) -> set[str]:
    """The numbers the claim states and the evidence does not."""
    return numbers(claim) - numbers(evidence)
