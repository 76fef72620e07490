"""Questions in parts (certiq.answering.parts)."""

from __future__ import annotations

import pytest

from certiq.answering.parts import question_parts, read_parts


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
        # things compared are each asked: the same of each, or each as its own question
        (
            "What do we pay per mile in my own car vs on a motorbike?",
            ["What do we pay per mile in my own car", "What do we pay per mile on a motorbike?"],
        ),
        (
            "how much notice for paternity leave vs unpaid parental leave",
            ["how much notice for paternity leave", "how much notice for unpaid parental leave"],
        ),
        (
            "how long have i got to log a near miss vs an actual accident",
            [
                "how long have i got to log a near miss",
                "how long have i got to log an actual accident",
            ],
        ),
        # or in place of what the first asks about
        (
            "How long are invoices kept vs backups?",
            ["How long are invoices kept", "How long are backups kept"],
        ),
        (
            "compare who approves a £70k post with who approves a replacement",
            ["who approves a £70k post", "who approves a replacement"],
        ),
        (
            "compare the notice for an event with the notice for filming",
            ["What is the notice for an event?", "What is the notice for filming?"],
        ),
        # but asking who does it asks for someone, which a part before asking how often does not
        (
            "How often are the bins emptied and who empties them?",
            ["How often are the bins emptied", "who empties them?"],
        ),
    ],
)
def test_a_question_is_cut_where_and_starts_another_question(
    question: str, parts: list[str]
) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What is the difference between SEV1 and SEV2?", ["What is SEV1?", "What is SEV2?"]),
        (
            "What are the differences between a SEV2 and a SEV3 incident?",
            ["What is SEV2?", "What is SEV3 incident?"],
        ),
    ],
)
def test_a_difference_is_asked_as_what_each_is(question: str, parts: list[str]) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        # "them" is what the first part asks about, named in the part that says "them"
        (
            "How long are application logs kept and who can access them?",
            ["How long are application logs kept", "who can access application logs?"],
        ),
        (
            "What is the liability cap and who agreed to it?",
            ["What is the liability cap", "who agreed to the liability cap?"],
        ),
        # and who does what to it: "they" are what is acted on
        (
            "who approves exceptions to the retention policy and how long do they last?",
            [
                "who approves exceptions to the retention policy",
                "how long do exceptions to the retention policy last?",
            ],
        ),
        # "What's X" and "How much is X" say it plainly too; a word naming what is asked of the
        # thing (its number) is not the thing
        (
            "How much is the first aid allowance, and is it taxed?",
            ["How much is the first aid allowance", "is the first aid allowance taxed?"],
        ),
        (
            "What's the IT service desk number, and are they open at weekends?",
            ["What's the IT service desk number", "are the IT service desk open at weekends?"],
        ),
        # and after whether something is done to it
        (
            "Is the acceptable use policy reviewed, and is it signed by the CEO?",
            [
                "Is the acceptable use policy reviewed",
                "is the acceptable use policy signed by the CEO?",
            ],
        ),
        # and after whether one is given something
        (
            "I'm on a 7 hour shift, do I get a break and is it paid?",
            ["I'm on a 7 hour shift, do I get a break", "is a break paid?"],
        ),
        # and after a quantity of something it has
        (
            "how many characters does a password need at least, and how often do I have to "
            "change it",
            [
                "how many characters does a password need at least",
                "how often do I have to change a password",
            ],
        ),
        # the first part saying no plain subject, "it" stays as written
        ("Who approves it; when is it renewed?", ["Who approves it", "when is it renewed?"]),
    ],
)
def test_a_later_part_is_read_naming_what_its_pronoun_stands_for(
    question: str, parts: list[str]
) -> None:
    assert read_parts(question) == parts
