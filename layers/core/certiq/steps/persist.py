"""Persist certificate: seal, sign and store what was shown and why, then publish the response."""

from __future__ import annotations

from typing import Protocol

from certiq.errors import AlreadyExists
from certiq.models import (
    AnswerOutcome,
    Certificate,
    CertifiedDocument,
    QuestionState,
    QuestionStatus,
)
from certiq.ports import (
    CertificateArchive,
    CertificateStore,
    Clock,
    DocumentStore,
    QuestionStore,
    Signer,
)
from certiq.steps.find_verified_answer import RememberDeps, remember_verified_answer
from certiq.steps.response import (
    build_response,
    reads_as_table,
    related_reading,
    searched_untranslated,
    shown_question,
)
from certiq.trust.certificate import seal_and_sign


class PersistDeps(RememberDeps, Protocol):
    """What Persist certificate uses: a Deps is one, and the step can reach nothing else."""

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def certificates(self) -> CertificateStore: ...

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def signer(self) -> Signer: ...

    @property
    def archive(self) -> CertificateArchive | None: ...

    @property
    def clock(self) -> Clock: ...


NO_ANSWER = "The documents do not state the answer to this question."
# Only sentences are answers; a table may hold what was asked, and saying the documents do not
# state it would withhold a fact a reader can see in the table offered beside the note.
NO_SENTENCE_BUT_TABLE = (
    "No sentence of the documents states the answer to this question; the table offered as "
    "related reading may hold it (tables are shown, not checked)."
)
# Searched in a language the documents are not in, nothing found says little about them.
NOT_FOUND_AS_WRITTEN = "Nothing in the documents answers the question as it was written."
# The answer addresses some parts of the question; these the documents do not state.
PART_NOT_STATED = "The documents do not state the answer to this part of the question: "
PARTS_NOT_STATED = "The documents do not state the answer to these parts of the question: "


def persist(state: QuestionState, deps: PersistDeps) -> QuestionState:
    certificate_id = f"cert-{state.question_id}"
    unsealed = _unsealed(certificate_id, state, deps)
    try:
        certificate = deps.certificates.append(
            state.tenant,
            lambda previous: seal_and_sign(
                unsealed.model_copy(update={"previous_seal": previous}), deps.signer
            ),
        )
    except AlreadyExists:
        # A retried Persist finds its own earlier write: keep it, never overwrite.
        stored = deps.certificates.get(certificate_id)
        if stored is None or stored.question_id != state.question_id:
            raise
        certificate = stored
    if deps.archive is not None:
        # After the store: a retry after a failed archive write archives the stored certificate.
        deps.archive.put(certificate)
    remember_verified_answer(state, certificate, deps)
    state = state.model_copy(
        update={"certificate_id": certificate_id, "status": QuestionStatus.COMPLETE}
    )
    untranslated = searched_untranslated(state)
    message = None if state.answer else NOT_FOUND_AS_WRITTEN if untranslated else NO_ANSWER
    if message == NO_ANSWER and any(
        reads_as_table(passage) for passage in related_reading(state, AnswerOutcome.NOT_STATED)
    ):
        message = NO_SENTENCE_BUT_TABLE
    if state.answer and state.unanswered:
        parts = " ".join(_asked(part) for part in state.unanswered)
        message = (PART_NOT_STATED if len(state.unanswered) == 1 else PARTS_NOT_STATED) + parts
    if state.translation is not None and state.translation.note:
        message = " ".join(filter(None, [message, state.translation.note]))
    if state.shown is not None and state.shown.note:
        message = " ".join(filter(None, [message, state.shown.note]))
    response = build_response(
        state, QuestionStatus.COMPLETE, deps.documents, deps.settings.policy, message=message
    )
    deps.questions.complete(state.question_id, response)
    return state


def _unsealed(certificate_id: str, state: QuestionState, deps: PersistDeps) -> Certificate:
    cited = {citation.doc_id for citation in state.citations}
    documents = {
        span.doc_id: CertifiedDocument(
            doc_id=span.doc_id, file_name=span.file_name, sha256=span.sha256, version=span.version
        )
        for span in state.evidence
        if span.doc_id in cited
    }
    return Certificate(
        certificate_id=certificate_id,
        question_id=state.question_id,
        tenant=state.tenant,
        question=shown_question(state),  # as asked (redacted), not the translation searched
        answer=state.answer,
        claims=state.claims,
        citations=state.citations,
        documents=sorted(documents.values(), key=lambda document: document.doc_id),
        policy=deps.settings.policy.model_dump(mode="json"),
        config_hash=deps.settings.config_hash(),
        created_at=deps.clock.now(),
        shown=state.shown,
        reused_from=state.reused_from,
        usage=state.usage,
        field_digests={},
        seal="",
        signature="",
        signing_key_id="",
    )


def _asked(part: str) -> str:
    """A part of the question as the note quotes it: in quotes, ending with a question mark."""
    return f'"{part.rstrip(" ?.!")}?"'
