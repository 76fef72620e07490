"""The offline verifier: does the cited evidence say what the claim says, word for word?

Lexical, so it is strict rather than clever: every content word of the claim must appear in the
evidence, numbers must match exactly, and a negation on one side but not the other counts as a
contradiction. A paraphrase it cannot see comes out UNVERIFIED, which is the safe direction.
"""

from __future__ import annotations

from collections.abc import Sequence

from certiq.ports import Support
from certiq.text import content_terms, has_negation, numbers


class LexicalVerifier:
    """Implements the Verifier port; its verdicts are labelled "lexical"."""

    @property
    def name(self) -> str:
        return "lexical"

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        claim_terms = set(content_terms(claim))
        if not claim_terms or not evidence:
            return Support(entail=0.0, contradict=0.0)
        joined = " ".join(evidence)
        coverage = len(claim_terms & set(content_terms(joined))) / len(claim_terms)
        if not numbers(claim) <= numbers(joined):
            # A number the evidence does not state cannot be certified, however similar the rest.
            return Support(entail=0.0, contradict=0.0)
        if has_negation(claim) != has_negation(joined):
            return Support(entail=0.0, contradict=round(coverage, 6))
        return Support(entail=round(coverage, 6), contradict=0.0)
