"""split_sentences: offsets of whole sentences, never cut at abbreviations, numbers or citations."""

from __future__ import annotations

import pytest

from certiq.sentences import split_sentences


def sentences(text: str) -> list[str]:
    spans = split_sentences(text)
    # Every span is non-empty, trimmed, in order and not overlapping.
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        assert not text[start].isspace() and not text[end - 1].isspace()
        previous_end = end
    return [text[start:end] for start, end in spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Backups are kept for 35 days. Then they are deleted.",
            ["Backups are kept for 35 days.", "Then they are deleted."],
        ),
        ("Is it encrypted? Yes! It uses AES.", ["Is it encrypted?", "Yes!", "It uses AES."]),
        (
            'The DPO said "Delete it." Then the team deleted it.',
            ['The DPO said "Delete it."', "Then the team deleted it."],
        ),
        (
            "Logs are kept for 13 months. 2024 was the first year.",
            ["Logs are kept for 13 months.", "2024 was the first year."],
        ),
        (
            "Retention ends. (See annex.) Deletion follows.",
            ["Retention ends.", "(See annex.)", "Deletion follows."],
        ),
        ("Wait... The job failed.", ["Wait...", "The job failed."]),
        ("لا يوجد. نعم هذا صحيح.", ["لا يوجد.", "نعم هذا صحيح."]),
    ],
)
def test_splits_after_end_punctuation_before_a_new_sentence(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Use a manager, e.g. Bitwarden, for all passwords.",
        "Keep logs, i.e. audit trails, for a year.",
        "Dr. Smith and Mr. Jones approved it.",
        "Results are shown in Fig. 3 of the report.",
        "Smith et al. [12] describe the method.",
        "The U.S. office follows the same rule.",
        "Ask for form No. 5 at the front desk.",
        "The error rate fell to 3.5 percent in 2023.",
        "Section 4.2.1 sets the deadline.",
        "As shown in [12], deletion is final.",
        "The report by J. Smith is attached.",
        "Backups ran at 5 p.m. Monday through Friday.",
        "It ends here. and this continues lowercase.",
    ],
)
def test_keeps_abbreviations_numbers_and_citations_inside_one_sentence(text: str) -> None:
    assert sentences(text) == [text]


def test_a_number_at_the_end_of_a_sentence_still_ends_it() -> None:
    text = "The limit is 14. Passwords must be longer."
    assert sentences(text) == ["The limit is 14.", "Passwords must be longer."]


def test_ambiguous_abbreviations_end_a_sentence_when_no_number_follows() -> None:
    text = "Is reuse allowed? The answer is no. Passwords are unique."
    assert sentences(text) == ["Is reuse allowed?", "The answer is no.", "Passwords are unique."]


def test_a_letter_after_a_label_is_not_an_initial() -> None:
    text = "Details are in Appendix A. The table lists every system."
    assert sentences(text) == ["Details are in Appendix A.", "The table lists every system."]


def test_numbered_headings_are_not_sentences_of_their_own() -> None:
    # GIVEN a heading numbered "1." at the start of a line, and an item after a sentence end
    text = "1. Purpose\nThis policy applies to all staff. 2. Scope is defined below."

    # THEN the list numbers stay with their text
    assert sentences(text) == [
        "1. Purpose\nThis policy applies to all staff.",
        "2. Scope is defined below.",
    ]


def test_blank_lines_end_sentences_even_without_punctuation() -> None:
    text = "4. Retention periods\n\nBackups are kept for 35 days.\n  \nContact the DPO"
    assert sentences(text) == [
        "4. Retention periods",
        "Backups are kept for 35 days.",
        "Contact the DPO",
    ]


def test_bulleted_lines_are_sentences_without_their_bullet() -> None:
    text = "Periods:\n• Backups: 35 days\n• Invoices: 7 years\n• Tickets: 3 years"
    assert sentences(text) == [
        "Periods:",
        "Backups: 35 days",
        "Invoices: 7 years",
        "Tickets: 3 years",
    ]


def test_a_line_break_inside_a_sentence_does_not_end_it() -> None:
    text = "Backups of customer data are kept\nfor 35 days and then deleted."
    assert sentences(text) == [text]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\n", "•  "])
def test_no_text_gives_no_sentences(text: str) -> None:
    assert split_sentences(text) == []


def test_offsets_cover_all_the_words_of_the_text() -> None:
    # GIVEN a text with leading and trailing whitespace
    text = "  First one. Second one!\n\nThird one?  "

    # WHEN split
    spans = split_sentences(text)

    # THEN joining the sentences gives back every word, in order
    assert " ".join(text[a:b] for a, b in spans).split() == text.split()
    assert spans[0] == (2, 12)


def test_end_marks_are_found_as_the_end_pattern_would_find_them() -> None:
    # GIVEN texts made of end marks, closers, spaces and letters in every order
    import random

    from certiq.sentences import _END, _end_punctuation

    rng = random.Random(11)
    alphabet = ".!?…\"'”’»)] \nab"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        # WHEN the end marks are found without the regular expression
        # THEN they are exactly the regular expression's matches
        assert _end_punctuation(text) == [m.span() for m in _END.finditer(text)], repr(text)
