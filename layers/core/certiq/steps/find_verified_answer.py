"""Find verified answer: reuse an earlier fully verified answer to a near-identical question.

Runs after "Retrieve evidence", so a follow-up is looked up by its rewritten, standalone query.
On a hit the state takes the earlier certificate's claims (with their decisions), citations and
answer, and evidence rebuilt from the current chunks; the Choice after this state then skips
"Answer question" and "Verify claims" and goes to "Persist certificate", which seals a new
certificate naming the one it reused. Skipping Verify is safe because what Verify checks that
can change (each quote verbatim in its chunk, the documents' versions, the policy, the
verifier and the settings that shape an answer) is re-checked here before anything is reused
(certiq.retrieval.reuse).

``remember_verified_answer`` is the other half: Persist certificate calls it for every new answer
whose claims are all VERIFIED.
"""

from __future__ import annotations

from typing import Final, Protocol

from certiq.config import Settings
from certiq.models import (
    Certificate,
    EvidenceSpan,
    QuestionState,
    ReuseCheck,
    ReusedFrom,
    VerifiedAnswer,
)
from certiq.ports import (
    CertificateStore,
    DocumentStore,
    Embedder,
    SearchIndex,
    Signer,
    VerifiedAnswerStore,
    Verifier,
    embed_query_texts,
)
from certiq.retrieval.reuse import (
    Match,
    cited_evidence,
    fully_verified,
    near_identical,
    question_terms,
    stale_document,
    terms_key,
)
from certiq.trust.certificate import check


class RememberDeps(Protocol):
    """What keeping a verified answer for reuse uses (Persist keeps one, too)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def answers(self) -> VerifiedAnswerStore | None: ...

    @property
    def embedder(self) -> Embedder | None: ...


class FindDeps(RememberDeps, Protocol):
    """What Find verified answer uses: a Deps is one, and the step can reach nothing else."""

    @property
    def certificates(self) -> CertificateStore: ...

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def index(self) -> SearchIndex: ...

    @property
    def signer(self) -> Signer: ...

    @property
    def verifier(self) -> Verifier: ...


# Matches re-checked at most, best first: each costs reads (documents, certificate, chunks), and
# matches past the first few are older answers to the same question, stale for the same reason.
MAX_CHECKED: Final = 5


def find_verified_answer(state: QuestionState, deps: FindDeps) -> QuestionState:
    settings = deps.settings.reuse
    if not settings.enabled:
        return _miss(state, 0, "reuse is off (CERTIQ_REUSE__ENABLED=false)")
    if deps.answers is None:
        return _miss(
            state, 0, "no store of verified answers is configured (aws: CERTIQ_AWS__ANSWERS_TABLE)"
        )
    query = searched_text(state)
    terms = question_terms(query)
    if not terms:
        return _miss(state, 0, "the question has no identifying terms")
    candidates = [
        answer
        for answer in deps.answers.candidates(
            state.tenant, state.collection, terms_key(terms), settings.max_candidates
        )
        # The store scopes by tenant and collection already; checked again, as it costs nothing.
        if (answer.tenant, answer.collection) == (state.tenant, state.collection)
        and answer.question_id != state.question_id
    ]
    matches = near_identical(
        query,
        candidates,
        min_term_overlap=settings.min_term_overlap,
        min_similarity=settings.min_similarity,
        embedder=deps.embedder,
    )
    if not matches:
        return _miss(state, len(candidates), "no earlier verified answer to the same question")
    reasons: list[str] = []
    for match in matches[:MAX_CHECKED]:
        certificate, evidence, reason = _reusable(match, state, deps)
        if certificate is None:
            reasons.append(f"{match.answer.question_id}: {reason}")
            continue
        note = f"reused the verified answer of question {match.answer.question_id}"
        return _hit(
            state, certificate, evidence, match, ReuseCheck(candidates=len(candidates), note=note)
        )
    unchecked = len(matches) - MAX_CHECKED
    if unchecked > 0:
        reasons.append(f"{unchecked} older not checked")
    return _miss(
        state, len(candidates), "earlier verified answers not reusable: " + "; ".join(reasons)
    )


def remember_verified_answer(
    state: QuestionState, certificate: Certificate, deps: RememberDeps
) -> bool:
    """Keeps a new, fully verified answer for later questions; True when it was kept."""
    if (
        not deps.settings.reuse.enabled
        or deps.answers is None
        or state.reused_from is not None  # the original stays the one to reuse
        or not fully_verified(certificate)
    ):
        return False
    query = searched_text(state)
    terms = question_terms(query)
    if not terms:
        return False
    embedder = deps.embedder
    deps.answers.put(
        VerifiedAnswer(
            tenant=state.tenant,
            question_id=state.question_id,
            certificate_id=certificate.certificate_id,
            question=query,
            terms_key=terms_key(terms),
            collection=state.collection,
            embedder=embedder.name if embedder is not None else None,
            embedding=(
                embed_query_texts(embedder, [query])[0].tolist() if embedder is not None else None
            ),
            documents=certificate.documents,
            created_at=state.received_at,
        )
    )
    return True


def searched_text(state: QuestionState) -> str:
    """What the question was searched as: its rewritten query in a conversation, else itself."""
    return state.search.query if state.search is not None else state.question


def _reusable(
    match: Match, state: QuestionState, deps: FindDeps
) -> tuple[Certificate | None, list[EvidenceSpan], str]:
    """The candidate's certificate and re-checked evidence, or None and why it cannot be reused."""
    answer = match.answer
    stale = stale_document(state.tenant, answer.documents, deps.documents)
    if stale:
        return None, [], stale
    certificate = deps.certificates.get(answer.certificate_id)
    if certificate is None or certificate.tenant != state.tenant:
        return None, [], f"certificate {answer.certificate_id} not found"
    if not check(certificate, deps.signer).valid:
        return None, [], f"certificate {answer.certificate_id} does not check"
    if not fully_verified(certificate):
        return None, [], "not every claim was verified"
    if certificate.policy != deps.settings.policy.model_dump(mode="json"):
        return None, [], "the render policy changed since"
    if certificate.config_hash != deps.settings.config_hash():
        # Another ranker or answerer (CERTIQ_RETRIEVAL__SPAN_SCORER, the answer settings) may
        # choose other sentences: the earlier answer is not the one asked for now.
        return None, [], "the settings that shape an answer changed since"
    verifiers = {claim.decision.verifier for claim in certificate.claims if claim.decision}
    if verifiers != {deps.verifier.name}:
        return None, [], f"verified by {', '.join(sorted(verifiers))}, not {deps.verifier.name}"
    if sorted(certificate.documents, key=lambda d: d.doc_id) != sorted(
        answer.documents, key=lambda d: d.doc_id
    ):
        return None, [], "its record and its certificate name different documents"
    evidence, reason = cited_evidence(certificate, deps.index)
    if reason is not None:
        return None, [], reason
    return certificate, evidence, ""


def _hit(
    state: QuestionState,
    certificate: Certificate,
    evidence: list[EvidenceSpan],
    match: Match,
    reuse: ReuseCheck,
) -> QuestionState:
    cited = {(span.chunk_id, span.start) for span in evidence}
    retrieved = [span for span in state.evidence if (span.chunk_id, span.start) not in cited]
    return state.model_copy(
        update={
            "reuse": reuse,
            "reused_from": ReusedFrom(
                question_id=certificate.question_id,
                certificate_id=certificate.certificate_id,
                question=match.answer.question,
                similarity=match.similarity,
            ),
            "evidence": [*evidence, *retrieved],
            "draft": [],
            "citations": certificate.citations,
            "claims": certificate.claims,
            "answer": certificate.answer,
        }
    )


def _miss(state: QuestionState, candidates: int, note: str) -> QuestionState:
    return state.model_copy(update={"reuse": ReuseCheck(candidates=candidates, note=note)})
