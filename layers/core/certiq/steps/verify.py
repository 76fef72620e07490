"""Verify claims: the draft's sentences are compiled into atomic claims (a sentence quoted word for
word from its evidence is judged whole), a citation counts only if
its quote is verbatim in its chunk, and a claim is shown as VERIFIED only if its valid citations
support it (fail closed)."""

from __future__ import annotations

from typing import Protocol

from certiq.config import Settings
from certiq.models import QuestionState, QuestionStatus
from certiq.ports import ClaimSplitter, QuestionStore, SearchIndex, Verifier
from certiq.trust.claims import compile_claims, quoted_whole
from certiq.trust.policy import decide_all, render


class VerifyDeps(Protocol):
    """What Verify claims uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def index(self) -> SearchIndex: ...

    @property
    def verifier(self) -> Verifier: ...

    @property
    def claim_splitter(self) -> ClaimSplitter | None: ...


def verify(state: QuestionState, deps: VerifyDeps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.VERIFYING)
    chunks = deps.index.get_chunks(state.tenant, sorted({c.chunk_id for c in state.citations}))
    citations = [
        citation.model_copy(
            update={
                "valid": citation.chunk_id in chunks
                and chunks[citation.chunk_id].text[citation.start : citation.end] == citation.quote
            }
        )
        for citation in state.citations
    ]
    by_id = {citation.id: citation for citation in citations}
    policy = deps.settings.policy
    valid_quotes = {cid: citation.quote for cid, citation in by_id.items() if citation.valid}
    sentences = [
        quoted_whole(
            sentence, [valid_quotes[cid] for cid in sentence.citation_ids if cid in valid_quotes]
        )
        for sentence in state.claims
    ]
    compiled = compile_claims(sentences, deps.claim_splitter)
    claims = [
        claim.model_copy(update={"decision": decision})
        for claim, decision in zip(
            compiled, decide_all(compiled, by_id, deps.verifier, policy), strict=True
        )
    ]
    return state.model_copy(
        update={
            "status": QuestionStatus.VERIFYING,
            "citations": citations,
            "claims": claims,
            "answer": render(claims, policy),
        }
    )
