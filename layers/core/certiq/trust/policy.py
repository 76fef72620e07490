"""The render policy: fail closed. Nothing is shown as verified unless its evidence supports it."""

from __future__ import annotations

from collections.abc import Sequence

from certiq.config import PolicySettings
from certiq.models import Citation, Claim, Decision, RenderState
from certiq.ports import Verifier


def decide(
    claim: Claim, citations: dict[str, Citation], verifier: Verifier, policy: PolicySettings
) -> Decision:
    """Judges a claim on its valid citations only, keeping the fewest that suffice as evidence."""
    usable = [
        citations[cid] for cid in claim.citation_ids if cid in citations and citations[cid].valid
    ]
    if not usable:
        return Decision(
            state=RenderState.UNVERIFIED,
            entail=0.0,
            contradict=0.0,
            evidence=[],
            verifier=verifier.name,
            reason="no valid citation: nothing supports this claim",
        )
    evidence = minimal_evidence(claim.text, usable, verifier, policy.tau_entail)
    support = verifier.assess(claim.text, [citation.quote for citation in evidence])
    if support.contradict >= policy.tau_contradict:
        state, reason = RenderState.BLOCKED, "the cited evidence contradicts this claim"
    elif support.entail >= policy.tau_entail and evidence:
        state, reason = RenderState.VERIFIED, "the cited evidence states this claim"
    else:
        state, reason = (
            RenderState.UNVERIFIED,
            "the cited evidence does not state all of this claim",
        )
    return Decision(
        state=state,
        entail=support.entail,
        contradict=support.contradict,
        evidence=[citation.id for citation in evidence],
        verifier=verifier.name,
        reason=reason,
    )


def minimal_evidence(
    claim: str, citations: Sequence[Citation], verifier: Verifier, threshold: float
) -> list[Citation]:
    """Greedy: add the citation that raises support most until the threshold is passed."""
    chosen: list[Citation] = []
    remaining = list(citations)
    best = 0.0
    while remaining:
        scored = [
            (verifier.assess(claim, [c.quote for c in [*chosen, candidate]]).entail, candidate)
            for candidate in remaining
        ]
        score, candidate = max(scored, key=lambda item: item[0])
        if score <= best and chosen:
            break
        chosen.append(candidate)
        remaining.remove(candidate)
        best = score
        if best >= threshold:
            break
    return chosen


def shown_claims(claims: Sequence[Claim], policy: PolicySettings) -> list[Claim]:
    """The claims a user may see: verified ones, unverified ones unless dropped, never blocked."""
    return [
        claim
        for claim in claims
        if claim.decision is not None
        and (
            claim.decision.state is RenderState.VERIFIED
            or (claim.decision.state is RenderState.UNVERIFIED and policy.unverified == "mark")
        )
    ]


def render(claims: Sequence[Claim], policy: PolicySettings) -> str:
    """The answer as shown, each claim followed by the citations of its minimal evidence."""
    parts: list[str] = []
    for claim in shown_claims(claims, policy):
        assert claim.decision is not None
        cited = "".join(f" [{cid}]" for cid in claim.decision.evidence)
        marker = "" if claim.decision.state is RenderState.VERIFIED else " (unverified)"
        parts.append(f"{claim.text}{cited}{marker}")
    return " ".join(parts)
