"""Who holds a role: what a "who is the X" question asks, and the sentences that say it."""

from __future__ import annotations

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.who import (
    acted_on,
    does_it,
    identifies,
    names_what_is_acted_on,
    role_asked,
)
from certiq.config import AnswerSettings
from certiq.text import content_terms
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
        ("Speaking Up Guardian", "Contact the Speaking Up Guardian, Priya Lennox, on 0161.", True),
        ("Speaking Up Guardian", "Contact the Speaking Up Guardian, or the Chair.", False),
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


@pytest.mark.parametrize(
    ("action", "sentence", "done"),
    [
        ("review", "The plan is reviewed by the CISO at least once a year.", True),
        ("review", "The review records the root cause and the timeline.", False),  # a thing
        ("lead", "The Incident Commander leads the response.", True),
        ("lead", "The Communications Lead drafts all public statements.", False),  # a title
        # the action's noun before "of" its doer
        ("approve", "Late claims are paid only with the approval of the Finance Director.", True),
    ],
)
def test_a_sentence_does_the_action_only_as_something_done(
    action: str, sentence: str, done: bool
) -> None:
    assert does_it(action, sentence) is done


def test_asked_who_does_something_the_sentence_where_someone_does_it_comes_first() -> None:
    # GIVEN a sentence where the review is a thing, scored first, and one where the CISO reviews
    evidence = scored(
        ("The review records the root cause, the timeline and each action's owner.", 0.8),
        ("This plan is tested twice a year and reviewed by the CISO once a year.", 0.6),
        file_name="incident-response-plan.pdf",
    )
    # WHEN asked who reviews the plan / THEN the CISO's sentence answers, alone
    draft = ExtractiveAnswerer(AnswerSettings()).select(
        "Who reviews the incident response plan?", evidence
    )
    assert [s.text for s in draft] == [evidence[1].text]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Who must approve access to production systems?", "access production systems"),
        ("Who audits the supplier's security?", "supplier security"),
        ("Who can access the user's data?", ""),  # anyone's data, in any words
        ("Who receives my information from this website?", ""),  # the site is the document's
        ("Who is responsible for backups?", ""),  # a role, not an action
        ("How long are backups kept?", ""),
        # the case it is asked of, first, then "it"
        (
            "I forgot a mileage claim from four months ago - who can approve it now?",
            "forgot mileage claim four months ago",
        ),
        ("If the CEO is away, who signs off a statement?", "off statement"),
    ],
)
def test_what_a_who_question_asks_is_acted_on(question: str, named: str) -> None:
    assert acted_on(question) == frozenset(content_terms(named))


def test_a_request_to_depart_from_a_policy_is_an_exception_to_it() -> None:
    # GIVEN what a who-question says is acted on: requests to keep data longer
    done_to = acted_on("Who approves requests to keep data longer?")
    # THEN a sentence on approving exceptions names it, one on approving access does not
    assert names_what_is_acted_on(done_to, set(content_terms("approves exceptions")))
    assert not names_what_is_acted_on(done_to, set(content_terms("approves access")))


def test_a_request_for_one_thing_is_not_a_request_for_another() -> None:
    # GIVEN what a who-question says is acted on: a request for a new card
    done_to = acted_on("Who approves a request for a new card?")
    # THEN approving requests for more days of leave does not name it, approving new cards does
    assert not names_what_is_acted_on(done_to, set(content_terms("requests for more days")))
    assert names_what_is_acted_on(done_to, set(content_terms("approves new cards")))


def test_asked_who_after_the_case_one_doing_it_answers_however_long_the_case() -> None:
    # GIVEN a rule on who approves late claims, sharing two of the question's many words
    question = "I forgot to put in a mileage claim from four months ago - who can approve it now?"
    evidence = scored(
        ("Claims made after that are paid only with the approval of the Finance Director.", 0.6),
    )
    # WHEN the offline answerer drafts / THEN the rule answers
    draft = ExtractiveAnswerer(AnswerSettings()).select(question, evidence)
    assert [s.text for s in draft] == [evidence[0].text]
