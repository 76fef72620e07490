"""What kind of answer a question asks for, and which sentences can be one."""

from __future__ import annotations

import pytest

from certiq.answering.answer_types import can_answer, topic


@pytest.mark.parametrize(
    ("question", "sentence", "answers"),
    [
        # An amount is a number, written in digits or in words
        ("How many characters must a password have?", "Passwords need 14 characters.", True),
        ("How many characters must a password have?", "Passwords need fourteen characters.", True),
        ("How many characters must a password have?", "Passwords must not be shared.", False),
        ("What is the maximum fine for sharing passwords?", "Sharing is not allowed.", False),
        ("How much does the plan cost?", "The plan costs EUR 1,200 a year.", True),
        # A duration or frequency may be stated without digits
        ("How long are backups kept?", "Backups are kept for 35 days.", True),
        ("How long are backups kept?", "Backups are kept until the contract ends.", True),
        ("How long are backups kept?", "Backups are kept as long as the account is open.", True),
        ("How often are keys rotated?", "Keys are rotated monthly.", True),
        ("How long are backups kept?", "Backups are encrypted at rest.", False),
        # Other questions ask for no particular kind
        ("Who approves a legal hold?", "The General Counsel approves it.", True),
        ("Where is customer data stored?", "Customer data is stored in Frankfurt.", True),
        ("Combien de caractères faut-il ?", "Les mots de passe sont partagés.", True),
    ],
)
def test_a_sentence_can_answer_only_with_the_kind_of_answer_asked_for(
    question: str, sentence: str, answers: bool
) -> None:
    assert can_answer(question, sentence) is answers


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("How often must access rights be reviewed?", "must access rights be reviewed"),
        ("What is the maximum fine for sharing passwords?", "fine for sharing passwords"),
        ("Hi, I am [NAME_1] ([EMAIL_1]): how long are backups kept?", "are backups kept"),
        ("Who approves a legal hold?", "Who approves a legal hold?"),
    ],
)
def test_the_topic_of_a_question_leaves_out_the_words_asking_for_a_quantity(
    question: str, about: str
) -> None:
    assert " ".join(topic(question).split()) == about
