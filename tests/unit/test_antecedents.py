"""What a sentence's opening pronoun stands for (certiq.answering.antecedents), and the offline
answerer reading a sentence with it."""

from __future__ import annotations

import pytest

from certiq.answering.antecedents import antecedent
from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import AnswerSettings
from certiq.models import Chunk, SearchHit, Sentence
from certiq.retrieval.spans import select_spans
from tests.fakes import make_box, make_chunk


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


REFUNDS = (
    "Where a refund is agreed, it is approved as follows:",
    "up to £250: the Practice Manager;",
    "from £250.01 to £1,000: the Regional Operations Manager;",
    "above £1,000: the Clinical Director together with the Finance Director.",
    "Reception team leaders may offer a goodwill gesture of up to £50.",
)


def listed(*texts: str, section: str = "5. Refunds") -> Chunk:
    """A chunk of these sentences, one a line, as a list and its lead-in are ingested."""
    chunk = make_chunk(" ".join(texts))
    sentences, start = [], 0
    for text in texts:
        sentences.append(
            Sentence(
                text=text,
                start=start,
                end=start + len(text),
                page=1,
                boxes=[make_box(1)],
                section=section,
            )
        )
        start += len(text) + 1
    return chunk.model_copy(update={"sentences": sentences})


def test_a_list_item_continues_the_lead_in_above_its_list() -> None:
    # GIVEN a lead-in ending in a colon, its items opening in lower case, and a sentence after
    sentences = listed(*REFUNDS).sentences
    # THEN each item continues the lead-in, over the items before it
    assert antecedent(sentences, 1) == REFUNDS[0]
    assert antecedent(sentences, 3) == REFUNDS[0]
    # AND a sentence opening in capitals, and the lead-in itself, continue nothing
    assert antecedent(sentences, 4) is None
    assert antecedent(sentences, 0) is None


def test_an_item_without_a_lead_in_or_under_another_heading_continues_nothing() -> None:
    # GIVEN lower-case lines after a full sentence, and an item in a section of its own
    plain = listed("Refunds are paid by card.", "up to £250: the Practice Manager;").sentences
    moved = [plain[0].model_copy(update={"text": REFUNDS[0]}), plain[1]]
    moved[1] = moved[1].model_copy(update={"section": "6. Guarantees"})
    # THEN neither continues anything
    assert antecedent(plain, 1) is None
    assert antecedent(moved, 1) is None


@pytest.mark.parametrize(
    ("question", "band"),
    [
        ("who approves a refund of £1,500", REFUNDS[3]),
        # signing off is approving, and the item's ";" only says the list goes on
        ("Who signs off a £600 refund for a private patient?", REFUNDS[2]),
    ],
)
def test_who_approves_an_amount_is_answered_by_the_band_its_lead_in_approves(
    question: str, band: str
) -> None:
    # GIVEN the list's sentences as evidence, the lead-in ranked first
    hit = SearchHit(chunk=listed(*REFUNDS), score=1.0)
    evidence = [
        span.model_copy(update={"score": 0.5 - index / 10, "similarity": 0.3})
        for index, span in enumerate(select_spans(question, [hit], 5))
    ]
    # WHEN the offline answerer drafts
    shown = [s.text for s in ExtractiveAnswerer(AnswerSettings()).select(question, evidence)]
    # THEN it shows the band holding the amount, in the document's words
    assert shown == [band]
