"""Redact personal data: nothing after this state sees the raw question."""

from __future__ import annotations

from certiq.guardrails.pii import redact as redact_text
from certiq.models import QuestionState, Redaction
from certiq.steps.deps import Deps


def redact(state: QuestionState, deps: Deps) -> QuestionState:
    result = redact_text(state.question)
    return state.model_copy(
        update={
            "question": result.text,
            "redaction": Redaction(count=len(result.placeholders), types=result.types),
        }
    )
