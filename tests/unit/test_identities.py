"""Who holds a role: what a "who is the X" question asks, and the sentences that say it."""

from __future__ import annotations

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.identities import identifies, role_asked
from certiq.config import AnswerSettings
from tests.unit.test_answering import scored


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Who is the Data Protection Officer?", "Data Protection Officer"),
        ("Who is the Incident Commander before the CISO takes over?", "Incident Commander"),
        ("Who is the CEO of Northwind Analytics?", "CEO"),
        ("Who is the company's external auditor?", "external auditor"),
        ("Who is the owner of the plan?", "owner"),
        ("Who is the contact for privacy questions?", None),  # a contact, not a role
        ("Who approves exceptions?", None),
    ],
)
def test_a_who_is_the_question_asks_who_holds_a_role(question: str, role: str | None) -> None:
    assert role_asked(question) == role


@pytest.mark.parametrize(
    ("role", "sentence", "says_who"),
    [
        (
            "Incident Commander",
            "The on-call engineer is the Incident Commander until relieved.",
            True,
        ),
        ("owner", "Owner: Chief Information Security Officer.", True),
        ("Data Protection Officer", "The Data Protection Officer (DPO) is Jane Smith.", True),
        ("Data Protection Officer", "Jane Smith, our Data Protection Officer, approves it.", True),
        ("Data Protection Officer", "The Data Protection Officer is the head of legal.", True),
        ("Data Protection Officer", "The Data Protection Officer (DPO) owns this policy.", False),
        ("Data Protection Officer", "The Data Protection Officer is responsible for it.", False),
    ],
)
def test_a_sentence_says_who_holds_a_role_only_by_naming_its_holder(
    role: str, sentence: str, says_who: bool
) -> None:
    assert identifies(role, sentence) is says_who


def test_asked_who_holds_a_role_what_the_role_does_is_no_answer() -> None:
    # GIVEN sentences about what the DPO does, and none saying who the DPO is
    evidence = scored(
        ("The Data Protection Officer (DPO) owns this policy and approves exceptions.", 0.8),
        ("The Data Protection Officer decides whether a breach must be notified.", 0.7),
    )
    answerer = ExtractiveAnswerer(AnswerSettings())
    # WHEN asked who the DPO is / THEN the documents do not say
    assert answerer.select("Who is the Data Protection Officer?", evidence) == []
    # AND asked what the DPO does, they answer
    assert answerer.select("What does the Data Protection Officer decide?", evidence)
