"""The render policy: fail closed. Nothing is shown as verified unless its evidence supports it."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from itertools import groupby
from typing import TypeVar

from certiq.config import PolicySettings
from certiq.models import Citation, Claim, Decision, RenderState, Statement
from certiq.ports import BatchVerifier, Support, Verifier
from certiq.text import content_terms
from certiq.trust.claims import covers

T = TypeVar("T")
# A claim's judgement written as a dialogue with the verifier: it yields the evidence sets it
# needs judged next and is sent their supports, so that ``_judge_together`` can ask for every
# claim's next sets in one batch (a model's throughput grows with the batch) and the search
# reads the same whether one claim is judged or a whole answer.
Search = Generator[list[list[str]], list[Support], T]


def decide(
    claim: Claim, citations: Mapping[str, Citation], verifier: Verifier, policy: PolicySettings
) -> Decision:
    """Judges a claim on its valid citations only, keeping the fewest that suffice as evidence."""
    return decide_all([claim], citations, verifier, policy)[0]


def decide_all(
    claims: Sequence[Claim],
    citations: Mapping[str, Citation],
    verifier: Verifier,
    policy: PolicySettings,
) -> list[Decision]:
    """``decide`` for each claim, the claims judged side by side: each round of their evidence
    searches goes to the verifier as one batch. The decisions are those of one claim at a time."""
    return _judge_together(
        [claim.text for claim in claims],
        [_decision(claim, citations, verifier.name, policy) for claim in claims],
        verifier,
    )


def _decision(
    claim: Claim, citations: Mapping[str, Citation], verifier_name: str, policy: PolicySettings
) -> Search[Decision]:
    usable = [
        citations[cid] for cid in claim.citation_ids if cid in citations and citations[cid].valid
    ]
    if not usable:
        return Decision(
            state=RenderState.UNVERIFIED,
            entail=0.0,
            contradict=0.0,
            evidence=[],
            verifier=verifier_name,
            reason="no valid citation: nothing supports this claim",
        )
    evidence = yield from _minimal_evidence(claim.text, usable, policy)
    [support] = yield [[citation.read_as for citation in evidence]]
    if support.contradict >= policy.tau_contradict:
        state, reason = RenderState.BLOCKED, "the cited evidence contradicts this claim"
    elif support.entail >= policy.tau_entail and evidence and support.note is None:
        state, reason = RenderState.VERIFIED, "the cited evidence states this claim"
    elif support.note is not None:
        # The verifier could not judge (a refusal, malformed output): never verified, and why.
        state, reason = RenderState.UNVERIFIED, f"{verifier_name} could not judge: {support.note}"
    else:
        state, reason = (
            RenderState.UNVERIFIED,
            "the cited evidence does not state all of this claim",
        )
    if support.rationale:
        reason = f"{reason} ({verifier_name}: {support.rationale})"
    return Decision(
        state=state,
        entail=support.entail,
        contradict=support.contradict,
        evidence=[citation.id for citation in evidence],
        verifier=verifier_name,
        reason=reason,
    )


def _judge_together(
    claims: Sequence[str], searches: Sequence[Search[T]], verifier: Verifier
) -> list[T]:
    """Runs each claim's search to its end, asking the verifier for all their pending evidence
    sets at once, each (claim, set) once: searches repeat sets (the greedy selection and the
    final judgement), and each ask of an LLM judge is a request."""
    remembered = _Remembered(verifier)
    results: dict[int, T] = {}
    asks: dict[int, list[list[str]]] = {}

    def advance(index: int, supports: list[Support] | None) -> None:
        search = searches[index]
        try:
            asks[index] = next(search) if supports is None else search.send(supports)
        except StopIteration as finished:
            asks.pop(index, None)
            results[index] = finished.value

    for index in range(len(searches)):
        advance(index, None)
    while asks:
        round_ = list(asks.items())
        supports = remembered.assess_batch(
            [(claims[index], evidence) for index, sets in round_ for evidence in sets]
        )
        offset = 0
        for index, sets in round_:
            advance(index, supports[offset : offset + len(sets)])
            offset += len(sets)
    return [results[index] for index in range(len(searches))]


class _Remembered:
    """The verifier, asked once per (claim, evidence set); a batch verifier is asked for every
    pair not asked yet at once, other verifiers one pair at a time."""

    def __init__(self, inner: Verifier) -> None:
        self._inner = inner
        self._answers: dict[tuple[str, tuple[str, ...]], Support] = {}

    def assess_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Support]:
        keys = [(claim, tuple(evidence)) for claim, evidence in pairs]
        missing = [key for key in dict.fromkeys(keys) if key not in self._answers]
        if isinstance(self._inner, BatchVerifier) and missing:
            answers = self._inner.assess_batch(missing)
        else:
            answers = [self._inner.assess(claim, evidence) for claim, evidence in missing]
        for key, support in zip(missing, answers, strict=True):
            self._answers[key] = support
        return [self._answers[key] for key in keys]


def minimal_evidence(
    claim: str, citations: Sequence[Citation], verifier: Verifier, policy: PolicySettings
) -> list[Citation]:
    """The fewest citations whose combined support passes tau_entail, padded to min_evidence.

    Greedy: add the citation that raises support most until the threshold is passed; once one
    is chosen, only citations holding a word of the claim that the chosen lack are tried (one
    that adds none of the claim's words is not what the evidence is missing, and trying every
    pair and triple of quotes was most of an answer's verification time). Then, while fewer
    than policy.min_evidence are chosen, add the next best citations by their own support,
    each only if it supports the claim on its own (entail >= tau_entail, contradict under
    tau_contradict) and does not weaken the combined support: padding adds corroboration, never
    doubt, so a claim with one supporting citation keeps one however high the minimum.
    """
    return _judge_together([claim], [_minimal_evidence(claim, citations, policy)], verifier)[0]


def _minimal_evidence(
    claim: str, citations: Sequence[Citation], policy: PolicySettings
) -> Search[list[Citation]]:
    chosen: list[Citation] = []
    remaining = list(citations)
    best = 0.0
    while remaining:
        trying = _adding_words_of(claim, chosen, remaining) if chosen else remaining
        if not trying:
            break
        supports = yield [[c.read_as for c in [*chosen, candidate]] for candidate in trying]
        scored = [(support.entail, c) for support, c in zip(supports, trying, strict=True)]
        score, candidate = max(scored, key=lambda item: item[0])
        if score <= best and chosen:
            break
        chosen.append(candidate)
        remaining.remove(candidate)
        best = score
        if best >= policy.tau_entail:
            break
    if len(chosen) >= policy.min_evidence or not remaining:
        return chosen
    return (yield from _pad(chosen, remaining, policy))


def _adding_words_of(
    claim: str, chosen: Sequence[Citation], remaining: Sequence[Citation]
) -> list[Citation]:
    """The remaining citations that hold a content word of the claim the chosen ones lack."""
    lacking = set(content_terms(claim)).difference(
        *(content_terms(citation.read_as) for citation in chosen)
    )
    return [c for c in remaining if lacking.intersection(content_terms(c.read_as))]


def _pad(
    chosen: list[Citation], remaining: list[Citation], policy: PolicySettings
) -> Search[list[Citation]]:
    combined, *alone = yield [
        [c.read_as for c in chosen],
        *([candidate.read_as] for candidate in remaining),
    ]
    own = list(zip(alone, remaining, strict=True))
    own.sort(key=lambda item: item[0].entail, reverse=True)  # stable: citation order on ties
    for support, candidate in own:
        if len(chosen) >= policy.min_evidence:
            break
        if support.entail < policy.tau_entail or support.contradict >= policy.tau_contradict:
            continue
        [trial] = yield [[c.read_as for c in [*chosen, candidate]]]
        if trial.entail < combined.entail or trial.contradict > max(
            combined.contradict, support.contradict
        ):
            continue
        chosen.append(candidate)
        combined = trial
    return chosen


def statements(
    claims: Sequence[Claim], policy: PolicySettings, citations: Sequence[Citation] = ()
) -> list[Statement]:
    """The answer sentence by sentence, each shown whole in the draft's words or withheld.

    A sentence is VERIFIED when every claim compiled from it is and together they use every
    word of it; BLOCKED when any of its claims is; otherwise UNVERIFIED (one claim unsupported,
    or words no claim judged). VERIFIED sentences are shown, UNVERIFIED ones too when the
    policy marks them (unverified = mark), BLOCKED ones never: nothing reads stronger than the
    draft said, no fragment of a sentence stands in for it, and what is withheld says why.
    Given the ``citations``, each carries the reader's score of its evidence.
    """
    read = {c.id: c.answers for c in citations if c.answers is not None}
    result: list[Statement] = []
    for source, group in groupby(claims, key=lambda claim: claim.source or claim.text):
        members = [claim for claim in group if claim.decision is not None]
        if not members:
            continue
        blocked = [c for c in members if c.decision and c.decision.state is RenderState.BLOCKED]
        unverified = [
            c for c in members if c.decision and c.decision.state is RenderState.UNVERIFIED
        ]
        if blocked:
            state, deciding = RenderState.BLOCKED, blocked[0]
        elif unverified:
            state, deciding = RenderState.UNVERIFIED, unverified[0]
        elif covers(source, members):
            state, deciding = RenderState.VERIFIED, members[0]
        else:
            state, deciding = RenderState.UNVERIFIED, None
        shown = state is RenderState.VERIFIED or (
            state is RenderState.UNVERIFIED and policy.unverified == "mark"
        )
        if deciding is None:
            reason = "part of this sentence was not judged: its claims leave words of it out"
        else:
            assert deciding.decision is not None
            reason = deciding.decision.reason
        if shown:
            cited = [cid for c in members if c.decision for cid in c.decision.evidence]
        elif deciding is not None and deciding.decision is not None:
            cited = deciding.decision.evidence or deciding.citation_ids
        else:
            cited = [cid for c in members for cid in c.citation_ids]
        result.append(
            Statement(
                text=source,
                state=state,
                shown=shown,
                claim_ids=[claim.id for claim in members],
                citation_ids=list(dict.fromkeys(cited)),
                reason=reason,
                answers_question=max((read[c] for c in cited if c in read), default=None),
            )
        )
    return result


def shown_claims(claims: Sequence[Claim], policy: PolicySettings) -> list[Claim]:
    """The claims of the sentences a user may see (see ``statements``)."""
    shown = {cid for s in statements(claims, policy) if s.shown for cid in s.claim_ids}
    return [claim for claim in claims if claim.id in shown]


def render(claims: Sequence[Claim], policy: PolicySettings) -> str:
    """The answer as shown: the shown statements, each with the citations of its minimal
    evidence, an unverified one marked."""
    return " ".join(
        f"{s.text}{_cite(s.citation_ids)}"
        + ("" if s.state is RenderState.VERIFIED else " (unverified)")
        for s in statements(claims, policy)
        if s.shown
    )


def _cite(citation_ids: Iterable[str]) -> str:
    return "".join(f" [{cid}]" for cid in dict.fromkeys(citation_ids))
