"""Questions in parts (certiq.answering.parts)."""

from __future__ import annotations

import pytest

from certiq.answering.parts import question_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What is the liability cap and which insurance must the supplier hold?",
            ["What is the liability cap", "which insurance must the supplier hold?"],
        ),
        ("Who approves it; when is it renewed?", ["Who approves it", "when is it renewed?"]),
        ("How long are backups kept?", ["How long are backups kept?"]),
        ("Which cats and dogs are allowed?", ["Which cats and dogs are allowed?"]),
        # a yes/no question after "and" (a verb, then its subject) is a part of its own
        (
            "How long are invoices kept and is the office Wi-Fi password stated?",
            ["How long are invoices kept", "is the office Wi-Fi password stated?"],
        ),
        ("Is my data sold and can I opt out?", ["Is my data sold", "can I opt out?"]),
        # a verb going on with the same subject is not
        ("Who approves and must sign the form?", ["Who approves and must sign the form?"]),
        # "and when?" asks when of the same thing: not a part of its own
        (
            "Who must be told about a breach, and when?",
            ["Who must be told about a breach, and when?"],
        ),
        # nor is a part that brings no word of its own; the part after it is
        (
            "Who must be told about a breach, and when must they be told, and what fine applies?",
            ["Who must be told about a breach, and when must they be told", "what fine applies?"],
        ),
    ],
)
def test_a_question_is_cut_where_and_starts_another_question(
    question: str, parts: list[str]
) -> None:
    assert question_parts(question) == parts
