"""What a sentence's opening pronoun stands for (certiq.answering.antecedents), and the offline
answerer reading a sentence with it."""

from __future__ import annotations

import pytest

from certiq.answering.antecedents import antecedent
from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import AnswerSettings
from certiq.models import SearchHit
from certiq.retrieval.spans import select_spans
from tests.fakes import make_chunk


@pytest.mark.parametrize(
    ("text", "stands_for"),
    [
        (
            "Mental health first aiders are volunteers trained on a two-day course. "
            "They are not paid the first aid allowance",
            "Mental health first aiders",
        ),
        # after a short phrase of place or time
        (
            "Drones may not be flown inside any building. Outdoors, they may be flown only with "
            "written approval",
            "Drones",
        ),
        # "This policy" is a determiner and its noun, not a pronoun
        ("Backups are kept for 35 days. This policy applies to every system", None),
        # a clause of condition is no subject
        ("If a device is lost, tell the service desk. It must be wiped", None),
        # a subject too long to be one
        (
            "Every member of staff who works at any of the four sites of the Trust on a weekend "
            "must sign in. They are given a badge",
            None,
        ),
    ],
)
def test_an_opening_pronoun_stands_for_the_subject_of_the_sentence_before(
    text: str, stands_for: str | None
) -> None:
    # GIVEN two sentences WHEN the second is read THEN its pronoun stands for the first's subject
    assert antecedent(make_chunk(text).sentences, 1) == stands_for


def test_the_first_sentence_and_one_under_another_heading_stand_for_nothing_before() -> None:
    # GIVEN a pronoun opening a chunk, and one opening a new section
    chunk = make_chunk("Pool cars are booked online. They must be returned clean")
    first, second = chunk.sentences
    moved = [first, second.model_copy(update={"section": "4. Returning a car"})]
    # THEN neither stands for anything
    assert antecedent(chunk.sentences, 0) is None
    assert antecedent(moved, 1) is None


def test_a_sentence_opening_with_a_pronoun_answers_of_what_it_stands_for() -> None:
    # GIVEN a rule whose subject is in the sentence before it, ranked first but far from the
    # question in meaning, and that sentence, near it
    text = (
        "Mental health first aiders are volunteers trained on a two-day course. "
        "They are not paid the first aid allowance"
    )
    question = "Do mental health first aiders get the allowance too?"
    spans = select_spans(question, [SearchHit(chunk=make_chunk(text), score=1.0)], 2)
    subject, rule = sorted(spans, key=lambda span: span.start)
    evidence = [
        rule.model_copy(update={"score": 0.6, "similarity": 0.2}),
        subject.model_copy(update={"score": 0.5, "similarity": 0.6}),
    ]
    # WHEN the offline answerer drafts
    shown = [s.text for s in ExtractiveAnswerer(AnswerSettings()).select(question, evidence)]
    # THEN the rule is shown first, in its own words, read with what "They" stands for
    assert rule.antecedent == "Mental health first aiders"
    assert shown[0] == "They are not paid the first aid allowance"
