"""Validate question: refuses what cannot be answered as asked, and ends those questions here.

A question that ends here never reached Redact: what is stored and returned in its place is its
redacted form (certiq.steps.redact.mask_question), never the raw text.
"""

from __future__ import annotations

from typing import Protocol

from certiq.guardrails.validation import status_for, validate_question
from certiq.models import QuestionState, QuestionStatus
from certiq.ports import DocumentStore, InjectionScreen, QuestionStore
from certiq.steps.redact import MaskDeps, mask_question
from certiq.steps.response import build_response


class ValidateDeps(MaskDeps, Protocol):
    """What Validate question uses: a Deps is one, and the step can reach nothing else."""

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def injection(self) -> InjectionScreen | None: ...


# A question no rule refuses, for warm_up.
WARM_UP_QUESTION = "How long are backups of customer data kept?"


def validate(state: QuestionState, deps: ValidateDeps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.MODERATING_QUESTION)
    validation = validate_question(
        state.question, deps.settings.validation, earlier_questions(state, deps), deps.injection
    )
    status = status_for(validation)
    state = state.model_copy(update={"validation": validation, "status": status})
    if not validation.ok:
        state = mask_question(state, deps, note="the question ended at Validate")
        # The Choice after this state ends the execution: this is the question's final record.
        response = build_response(
            state, status, deps.documents, deps.settings.policy, message=validation.message
        )
        deps.questions.complete(state.question_id, response)
    return state


def earlier_questions(state: QuestionState, deps: ValidateDeps) -> list[str]:
    """The (redacted) questions asked before this one in its conversation, oldest first."""
    if state.conversation_id is None:
        return []
    return [
        record.response.question
        for record in deps.questions.conversation(state.tenant, state.conversation_id)
        if record.question_id != state.question_id
        and record.response is not None
        and record.created_at <= state.received_at
    ]


def warm_up(deps: ValidateDeps) -> None:
    """Checks a harmless question, storing nothing: a SnapStart snapshot then holds the pattern
    lists compiled (about 150 ms) and the injection classifier's model loaded."""
    validate_question(WARM_UP_QUESTION, deps.settings.validation, [], deps.injection)
