"""Record failure: the Catch target. Marks the question FAILED with the error that ended it."""

from __future__ import annotations

from certiq.guardrails.pii import redact
from certiq.models import QuestionState, QuestionStatus
from certiq.steps.deps import Deps
from certiq.steps.response import build_response


def record_failure(state: QuestionState, deps: Deps) -> QuestionState:
    error = state.error.Error if state.error else "UnknownError"
    # An error message may quote its input: mask personal data before it is stored.
    cause = redact(state.error.Cause).text if state.error else ""
    state = state.model_copy(update={"status": QuestionStatus.FAILED})
    response = build_response(
        state,
        QuestionStatus.FAILED,
        deps.documents,
        deps.settings.policy,
        message=f"The question could not be answered ({error}). It can be asked again.",
    )
    deps.questions.complete(state.question_id, response)
    # After complete(), so a poller never sees FAILED without the response beside it.
    deps.questions.set_status(state.question_id, QuestionStatus.FAILED, reason=f"{error}: {cause}")
    return state
