"""A misspelt word of a question read as the evidence's word (certiq.answering.spelling)."""

from __future__ import annotations

import pytest

from certiq.answering.spelling import corrected
from certiq.config import AnswerSettings
from tests.unit.test_answering import scored

EVIDENCE = (
    "Most investigations are expected to finish within three months.",
    "Visitor records are kept for 12 months and then deleted.",
    "The supplier signs the contract before any work starts.",
    "Records of each concern are kept for six years.",
)


@pytest.mark.parametrize(
    ("question", "read"),
    [
        # one edit from an evidence word, or its stem; two for a long word
        ("How long are visiter records kept?", "How long are visitor records kept?"),
        ("How long are recrods kept?", "How long are records kept?"),
        ("how long does an investigaton take", "how long does an investigations take"),
        # a word questions ask with, in the evidence or not
        ("whats the out of hours numbr for it", "whats the out of hours number for it"),
        # an English word stays, however near an evidence word it is
        ("Who do I contact?", "Who do I contact?"),
        # and so does a short word, and one near no evidence word
        ("Who sings it?", "Who sings it?"),
        ("Is there a creche?", "Is there a creche?"),
    ],
)
def test_a_misspelt_word_is_read_as_the_evidence_word_it_is_one_edit_from(
    question: str, read: str
) -> None:
    assert corrected(question, EVIDENCE) == read


def test_a_word_near_two_evidence_words_of_different_stems_stays() -> None:
    # GIVEN evidence holding two words one edit from "carss", of different stems
    texts = ("Cards are issued to staff.", "Carts are parked outside.")
    # THEN the question's word is left as written
    assert corrected("Are carss allowed?", texts) == "Are carss allowed?"


@pytest.mark.parametrize(
    ("question", "read"),
    [
        # an acronym the evidence never writes is the one run of its words it stands for
        ("How often is the DSE check?", "How often is the display screen equipment check?"),
        ("Is a PO number needed?", "Is a purchase order number needed?"),
        # one the evidence writes stays, and so does one of two runs or none
        ("Who is the DPO?", "Who is the DPO?"),
        ("Who approves a PR?", "Who approves a PR?"),
        ("Is MFA needed?", "Is MFA needed?"),
        # a small word may stand inside the run, and a word no English one may be typed in
        # lower case
        ("Is the BYOD policy new?", "Is the bring your own device policy new?"),
        ("Can my byod phone get e-mail?", "Can my bring your own device phone get e-mail?"),
        # a short form is the word it is short for
        ("whats mat pay", "whats maternity pay"),
        ("whats the number for occ health", "whats the number for occupational health"),
        ("my laptop got nicked", "my laptop got stolen"),
        ("how long do we hang on to a jumper", "how long do we keep a jumper"),
        ("who do I ring", "who do I call"),
        ("the most I can spend in one go", "the most I can spend per transaction"),
        ("how many hrs is it good for?", "how many hours is it valid for?"),
        ("pool car has broken down, who do I call", "pool car has breakdown, who do I call"),
        ("can my boss turn down my leave", "can my manager refuse my leave"),
        ("do they have to explain why?", "do they have to give a reason?"),
        ("I got a parking ticket", "I got a parking fine"),
        ("if I give a colleague a lift", "if I carry a passenger"),
        ("a ticket to the conference", "a ticket to the conference"),
        ("is it good for you", "is it good for you"),
        ("can the porter look back through the recordings", "can the porter review the recordings"),
        ("a guest left a ring in room 214", "a guest left a ring in room 214"),
        ("how much cover does a subbie need", "how much cover does a subcontractor need"),
        ("what temp should the fridge be at", "what temperature should the fridge be at"),
        ("can a temp work nights", "can a temp work nights"),
        # a clipped word is the one evidence word it begins
        ("how long are ortho models kept", "how long are orthodontic models kept"),
        # not when it begins words of two stems, nor when it is a word itself
        ("is the admin team in", "is the admin team in"),
        ("Is there a temp agency rule?", "Is there a temp agency rule?"),
        # a word written in capitals stands for nothing: "OK" is no "office keys"
        ("Is it OK to copy them?", "Is it OK to copy them?"),
    ],
)
def test_an_acronym_is_read_as_the_evidence_words_it_stands_for(question: str, read: str) -> None:
    texts = (
        "Staff repeat the display screen equipment check yearly.",
        "Invoices without a purchase order number are returned. See 5. Purchase Orders.",
        "The DPO owns this policy.",
        "Press releases are drafted by the comms team; the public relations team reviews them.",
        "Procurement or finance may ask.",
        "Office keys are held at reception.",
        "This Bring Your Own Device policy covers phones.",
        "Orthodontic models are kept until the patient's 25th birthday.",
        "Administrators and the administration office hold keys.",
        "Temperatures are logged; temporary staff may not log them.",
    )
    assert corrected(question, texts) == read


def test_the_answerer_reads_a_misspelt_question_as_meant() -> None:
    from certiq.answering.extractive import ExtractiveAnswerer

    # GIVEN the visitor records' period, and another record's scored above it
    evidence = scored((EVIDENCE[3], 0.8), (EVIDENCE[1], 0.7), file_name="procedure.pdf")
    # WHEN asked with "visitor" misspelt
    draft = ExtractiveAnswerer(AnswerSettings()).select(
        "How long are visiter records kept?", evidence
    )
    # THEN the visitor records' period is the answer
    assert [s.text for s in draft] == [EVIDENCE[1]]
