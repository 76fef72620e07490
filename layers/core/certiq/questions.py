"""Receiving a question: the one place a question record is created, for the API and the CLI."""

from __future__ import annotations

import uuid

from certiq.deps import Deps
from certiq.models import QuestionRecord, QuestionState, QuestionStatus, RetrievalMode


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
