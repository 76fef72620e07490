"""Receiving a question: the one place a question record is created, for the API and the CLI."""

from __future__ import annotations

import uuid

from certiq.deps import Deps
from certiq.models import (
    DocumentStatus,
    QuestionRecord,
    QuestionState,
    QuestionStatus,
    RetrievalMode,
)


def receive(
    question: str,
    deps: Deps,
    *,
    tenant: str | None = None,
    conversation_id: str | None = None,
    collection: str | None = None,
    language: str | None = None,
    retrieval_mode: RetrievalMode | None = None,
) -> QuestionState:
    """Records the question as RECEIVED and returns the state the state machine starts from."""
    now = deps.clock.now()
    state = QuestionState(
        question_id=str(uuid.uuid4()),
        tenant=tenant or deps.settings.tenant,
        question=question,
        conversation_id=conversation_id,
        collection=collection,
        retrieval_mode=retrieval_mode,
        requested_language=language,
        received_at=now,
    )
    deps.questions.create(
        QuestionRecord(
            question_id=state.question_id,
            tenant=state.tenant,
            status=QuestionStatus.RECEIVED,
            created_at=now,
            updated_at=now,
            conversation_id=conversation_id,
        )
    )
    return state


def unknown_collection(collection: str, deps: Deps, tenant: str | None = None) -> str | None:
    """Why a question cannot be asked in ``collection``, in words; None when it can.

    A collection exists while a document of the tenant is in it (queued, being ingested,
    indexed or failed; a deleted one no longer counts). Asked in one that does not, a question
    would only find nothing and say the documents do not state the answer.
    """
    records = deps.documents.list(tenant or deps.settings.tenant)
    live = [record for record in records if record.status is not DocumentStatus.DELETED]
    if any(record.collection == collection for record in live):
        return None
    names = sorted({record.collection for record in live if record.collection})
    known = f"the collections are {', '.join(names)}" if names else "there are no collections"
    return f"no collection {collection!r}: no document is in it ({known})"
