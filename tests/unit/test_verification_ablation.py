"""The report's ablations: a pair put to the policy the way an answer is, piece by piece."""

from __future__ import annotations

from collections.abc import Sequence

from certiq.config import PolicySettings
from certiq.evaluation.verification import VARIANTS, Pair, ablate, predict_as_answered
from certiq.ports import Support
from certiq.text import words

AS_ANSWERED, NO_MINIMAL, NO_NORMALIZATION, NEITHER = VARIANTS
EVIDENCE = "Backups are kept for 35 days. The office is in Leeds. Invoices are kept for 7 years."


class WordsVerifier:
    """Entails when every word of the claim is in the evidence; contradicts a 'never' claim."""

    @property
    def name(self) -> str:
        return "words"

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        have = set(words(" ".join(evidence)))
        if "never" in words(claim):
            return Support(entail=0.0, contradict=1.0)
        return Support(entail=float(set(words(claim)) <= have), contradict=0.0)


def test_minimal_evidence_keeps_only_the_sentence_that_states_the_claim() -> None:
    # GIVEN a claim stated by one of three evidence sentences
    pair = Pair("Backups are kept for 35 days.", EVIDENCE, "entail")
    # WHEN it is judged as answered, and with the whole evidence as one citation
    label, kept, cited = predict_as_answered(pair, WordsVerifier(), PolicySettings(), AS_ANSWERED)
    whole = predict_as_answered(pair, WordsVerifier(), PolicySettings(), NO_MINIMAL)
    # THEN both verify it, but only minimal evidence keeps one sentence of three
    assert (label, kept, cited) == ("entail", 1, 3)
    assert whole == ("entail", 1, 1)


def test_a_joined_claim_is_entailed_only_when_every_part_is() -> None:
    # GIVEN a claim joining a stated fact and an unstated one
    pair = Pair("Backups are kept for 35 days and the office is in York.", EVIDENCE, "neutral")
    # WHEN judged split (normalization) and whole
    split = predict_as_answered(pair, WordsVerifier(), PolicySettings(), AS_ANSWERED)
    whole = predict_as_answered(pair, WordsVerifier(), PolicySettings(), NO_NORMALIZATION)
    # THEN neither certifies it: one unverified part keeps the whole claim unverified
    assert split[0] == "neutral"
    assert whole[0] == "neutral"


def test_a_blocked_part_makes_the_pair_contradicted() -> None:
    pair = Pair("Backups are never kept.", EVIDENCE, "contradict")
    assert predict_as_answered(pair, WordsVerifier(), PolicySettings(), NEITHER)[0] == "contradict"


def test_ablate_reports_the_share_of_cited_sentences_kept() -> None:
    pairs = [
        Pair("Backups are kept for 35 days.", EVIDENCE, "entail"),
        Pair("Invoices are kept for 7 years.", EVIDENCE, "entail"),
        Pair("The office is in York.", EVIDENCE, "neutral"),
    ]
    report = ablate(pairs, WordsVerifier(), PolicySettings(), AS_ANSWERED)
    assert report.report.supported_recall == 1.0
    assert report.report.false_certification_rate == 0.0
    # two claims keep one sentence of three; the unsupported one keeps its best guess
    assert 2 / 9 <= report.evidence_kept < 1.0
