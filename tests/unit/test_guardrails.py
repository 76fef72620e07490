"""Validate, redact and language detection: the guardrails of the first states."""

from __future__ import annotations

import pytest

from certiq.config import ValidationSettings
from certiq.guardrails.language import UNDETERMINED, FunctionWordDetector
from certiq.guardrails.pii import redact
from certiq.guardrails.validation import TOO_LONG, TOO_SHORT, status_for, validate_question
from certiq.models import QuestionStatus

SETTINGS = ValidationSettings(min_words=3, max_chars=200)


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_empty_question_is_rejected(question: str) -> None:
    # GIVEN an empty or blank question / WHEN it is validated
    validation = validate_question(question, SETTINGS)
    # THEN it is refused as REJECTED with a reason
    assert not validation.ok
    assert validation.reason_code == "EMPTY_QUESTION"
    assert status_for(validation) is QuestionStatus.REJECTED


def test_over_long_question_is_rejected_with_the_limit_in_the_message() -> None:
    validation = validate_question("why " * 60, SETTINGS)
    assert validation.reason_code == TOO_LONG
    assert "200" in (validation.message or "")
    assert status_for(validation) is QuestionStatus.REJECTED


def test_two_word_question_asks_for_clarification_not_an_error() -> None:
    validation = validate_question("backup retention?", SETTINGS)
    assert validation.reason_code == TOO_SHORT
    assert status_for(validation) is QuestionStatus.NEEDS_CLARIFICATION


def test_ordinary_question_passes() -> None:
    validation = validate_question("How long are backups kept?", SETTINGS)
    assert validation.ok and validation.reason_code is None


def test_redact_replaces_emails_and_phones_with_consistent_typed_placeholders() -> None:
    # GIVEN a question holding the same email twice and two phone numbers
    text = "Write to ann@example.org or call +1 416-555-0199; ann@example.org or (514) 555 0100."
    # WHEN it is redacted
    result = redact(text)
    # THEN each distinct value gets one placeholder of its type and none of the values remain
    assert result.text == "Write to [EMAIL_1] or call [PHONE_1]; [EMAIL_1] or [PHONE_2]."
    assert result.types == ["EMAIL", "PHONE"]


@pytest.mark.parametrize(
    "text",
    ["Retention is 35 days since 2023-01-15.", "Section 12.3.4 applies.", "Pay 1,000,000 USD"],
)
def test_redact_leaves_dates_numbers_and_section_numbers_alone(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("How long are backups of customer data kept?", "en"),
        ("Combien de temps les sauvegardes des données sont-elles conservées ?", "fr"),
        ("Wie lange werden die Sicherungen der Kundendaten aufbewahrt?", "de"),
        ("retention", UNDETERMINED),
    ],
)
def test_language_detection(text: str, language: str) -> None:
    assert FunctionWordDetector().detect(text) == language
