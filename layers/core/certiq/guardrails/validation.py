"""Validate: decides whether a question can be answered as asked."""

from __future__ import annotations

from certiq.config import ValidationSettings
from certiq.models import QuestionStatus, Validation
from certiq.text import words

EMPTY = "EMPTY_QUESTION"
TOO_LONG = "QUESTION_TOO_LONG"
TOO_SHORT = "QUESTION_TOO_SHORT"


def validate_question(question: str, settings: ValidationSettings) -> Validation:
    """Empty and over-long questions are rejected; very short ones ask for more detail."""
    stripped = question.strip()
    if not stripped:
        return Validation(ok=False, reason_code=EMPTY, message="The question is empty.")
    if len(stripped) > settings.max_chars:
        return Validation(
            ok=False,
            reason_code=TOO_LONG,
            message=f"The question is longer than {settings.max_chars} characters; shorten it.",
        )
    if len(words(stripped)) < settings.min_words:
        return Validation(
            ok=False,
            reason_code=TOO_SHORT,
            message=(
                "Could you say a little more? A question of a few words, such as "
                "'How long are backups kept?', finds better evidence."
            ),
        )
    return Validation(ok=True)


def status_for(validation: Validation) -> QuestionStatus:
    """Short questions need clarification (not an error); anything else refused is REJECTED."""
    if validation.ok:
        return QuestionStatus.MODERATING_QUESTION
    if validation.reason_code == TOO_SHORT:
        return QuestionStatus.NEEDS_CLARIFICATION
    return QuestionStatus.REJECTED
