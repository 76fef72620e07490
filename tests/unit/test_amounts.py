"""Amounts a question names and the bands of money a sentence states (certiq.answering.amounts)."""

from __future__ import annotations

import pytest

from certiq.answering.amounts import (
    amounts_named,
    holds_an_amount_asked,
    names_what_is_paid_for,
    terms_with_amounts,
)
from certiq.answering.answer_types import can_answer


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("How many quotes do I need for a £30k job?", [30_000.0]),
        ("Who signs off a £150,000 contract?", [150_000.0]),
        ("Who approves spend over half a million?", [500_000.0]),
        ("Is a $2.5 million deal reviewed?", [2_500_000.0]),
        ("How many quotes do I need?", []),
    ],
)
def test_a_question_names_amounts_as_people_write_them(text: str, amounts: list[float]) -> None:
    assert amounts_named(text) == amounts


@pytest.mark.parametrize(
    ("sentence", "holds"),
    [
        ("From £100,000 to £499,999: the Director of the service.", True),
        ("From £10,000 to £99,999: the relevant Head of Service.", False),
        ("£500,000 and above: the Cabinet Member for Finance.", False),
        ("Goods and services below £10,000: one written quotation is enough.", False),
        ("Contracts of £75,000 or more need a formal tender.", True),
        ("Spend of more than £100,000 is reported to the board.", True),
        ("Up to £10,000: the budget holder.", False),
        # an open band is about amounts near its end: not a £150,000 contract
        ("Hospitality worth more than £50 per person must be approved.", False),
        # a bare amount states no band
        ("A charge of £10 is made for each replacement badge.", None),
    ],
)
def test_a_band_holds_the_amount_asked_or_not(sentence: str, holds: bool | None) -> None:
    assert holds_an_amount_asked("Who signs off a £150,000 contract?", sentence) is holds


def test_a_sentence_whose_band_holds_the_amount_holds_the_question_s_words_for_it() -> None:
    question = "How many quotes do I need for a £30k consultancy job?"
    terms = terms_with_amounts(question, "From £10,000 to £74,999: three written quotations.")
    assert "30k" in terms
    assert "30k" not in terms_with_amounts(question, "£75,000 or more: a formal tender.")


def test_a_band_of_other_amounts_is_no_answer_and_one_under_the_heading_doing_it_is() -> None:
    question = "Who signs off a £150,000 contract?"
    # GIVEN bands listed under a heading that names the approving
    heading = "4. Approval of Spend"
    # THEN the band holding the amount answers who approves it, another band does not
    assert can_answer(question, "From £100,000 to £499,999: the Director.", heading)
    assert not can_answer(question, "£500,000 and above: the Cabinet Member.", heading)
    # AND without the heading, a band naming no approving is no answer
    assert not can_answer(question, "From £100,000 to £499,999: the Director.")
    # AND asked whether an amount may be paid, a limit it passes answers: it says no
    cash = "Cash refunds may only be given for amounts of £100 or less."
    assert can_answer("patient wants £180 back in cash, can reception do that", cash)
    assert not can_answer("How is a £180 cash refund paid?", cash)
    # AND a lead-in naming it does as the heading does
    lead_in = "Contracts are signed as follows:"
    assert can_answer(question, "from £100,000 to £499,999: the Director;", None, lead_in)


@pytest.mark.parametrize(
    ("question", "sentence", "names_it"),
    [
        # what is paid for, whoever it is for: the owner and the money are no part of it
        (
            "Does the company pay for employees' gym membership?",
            "Systems are monitored in line with the employee privacy notice.",
            False,
        ),
        ("Does the company pay for employees' gym membership?", "Gym membership is paid.", True),
        ("Do we pay relocation costs for new starters?", "New starters may not work alone.", False),
        ("Do we pay relocation costs for new starters?", "Relocation is paid up to £8,000.", True),
        # not asked whether anything is paid for
        ("How much do we pay per mile?", "Systems are monitored.", None),
    ],
)
def test_asked_whether_something_is_paid_for_a_sentence_must_name_it(
    question: str, sentence: str, names_it: bool | None
) -> None:
    assert names_what_is_paid_for(question, sentence) is names_it
    # AND a sentence not naming it cannot answer
    if names_it is False:
        assert not can_answer(question, sentence)


@pytest.mark.parametrize(
    ("question", "sentence", "holds"),
    [
        # a period asked of as more than another is beyond a band ending there
        ("Who approves an embargo longer than 24 months?", "An embargo of up to 24 months.", False),
        ("Who signs off compassionate leave longer than five days?", "Up to five days.", False),
        # a period named is in the band beyond a shorter one, and not in one below it
        (
            "I want 40 days of consultancy, who agrees?",
            "More than 30 days needs the Provost.",
            True,
        ),
        ("I want 40 days of consultancy, who agrees?", "Up to 30 days needs the Head.", False),
        # a deadline is no band
        ("I leave in 10 days, when do I register?", "Register at least 14 days before.", None),
        # so is an amount of money asked of as more than another
        ("Who approves a gift worth more than £50?", "Gifts of up to £50 need no approval.", False),
        ("Who approves a gift worth more than £50?", "Gifts over £50 need the Director.", True),
        # money is read first, and a period only where no money is asked
        ("Who approves £80 for two days?", "Up to £50 a head.", False),
    ],
)
def test_a_period_asked_of_is_held_by_a_band_of_time(
    question: str, sentence: str, holds: bool | None
) -> None:
    assert holds_an_amount_asked(question, sentence) is holds


@pytest.mark.parametrize(
    ("question", "sentence", "holds"),
    [
        # a shift's hours are in the band of hours a rule is for, or not
        (
            "I'm on a 7 hour shift, do I get a break?",
            "Team members working more than 6 hours take an unpaid break of 30 minutes.",
            True,
        ),
        (
            "I'm on a 7 hour shift, do I get a break?",
            "Shifts of more than 10 hours include an additional paid break of 15 minutes.",
            False,
        ),
        # a temperature read is in the band a rule is for, or not, below zero too
        (
            "the fridge is showing 10 degrees, what should I do",
            "If a fridge reads above 8°C, the chef moves its contents to another unit.",
            True,
        ),
        (
            "the fridge is showing 10 degrees, what should I do",
            "Fridges must run at 5°C or below and freezers at -18°C or below.",
            False,
        ),
        ("the freezer says -20°C, is that ok", "Freezers run at -18°C or below.", True),
        ("probe reads 3 degrees in iced water", "It must read between -1°C and 1°C.", False),
        # a temperature stated without a band is no band
        ("the fridge is showing 10 degrees", "Food is reheated to 75°C.", None),
        # and a grade is in the band of grades a rule is for, or not
        ("I'm grade 8, can I do bar work?", "Employees on grade 7 and above must ask.", True),
        ("I'm grade 8, can I do bar work?", "Staff below grade 7 need only tell a manager.", False),
        ("Who signs off a new band 7 role?", "Posts graded at band 6 or above need the FD.", True),
    ],
)
def test_hours_and_temperatures_asked_of_are_held_by_bands_of_them(
    question: str, sentence: str, holds: bool | None
) -> None:
    assert holds_an_amount_asked(question, sentence) is holds


def test_a_band_of_hours_a_shift_is_not_in_does_not_answer_whether_it_gets_a_break() -> None:
    # GIVEN a rule for shifts longer than the one asked of, and one that restricts an amount
    question = "I'm on a 7 hour shift, do I get a break?"
    longer = "Shifts of more than 10 hours include an additional paid break of 15 minutes."
    # THEN the first is no answer, but a limit answers whether a larger amount may be paid
    assert not can_answer(question, longer)
    assert can_answer(
        "patient wants £180 back in cash, can reception do that",
        "Cash refunds may only be given for amounts of £100 or less.",
    )
