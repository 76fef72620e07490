"""Validate question: refuses what cannot be answered as asked, and ends those questions here."""

from __future__ import annotations

from certiq.guardrails.validation import status_for, validate_question
from certiq.models import QuestionState, QuestionStatus
from certiq.steps.deps import Deps
from certiq.steps.response import build_response


def validate(state: QuestionState, deps: Deps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.MODERATING_QUESTION)
    validation = validate_question(state.question, deps.settings.validation)
    status = status_for(validation)
    state = state.model_copy(update={"validation": validation, "status": status})
    if not validation.ok:
        # The Choice after this state ends the execution: this is the question's final record.
        response = build_response(
            state, status, deps.documents, deps.settings.policy, message=validation.message
        )
        deps.questions.complete(state.question_id, response)
    return state
