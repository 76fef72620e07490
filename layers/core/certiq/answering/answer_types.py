"""What kind of answer a question asks for, and whether a sentence can be one.

A question asking for a quantity ("How many days ...", "What is the maximum fine ...") is not
answered by a sentence that states no quantity: "Sharing passwords is not allowed." shares the
question's words but says nothing of a fine. The offline answerer passes over such sentences,
so that it says the documents do not state the answer instead of showing a related rule as one.

English question forms only; a question in another language asks for no particular kind.
"""

from __future__ import annotations

import re
from typing import Final

from certiq.text import numbers

# Asking for an amount: only a sentence with a number (or a number word) can answer.
_AMOUNT: Final = re.compile(
    r"\bhow (?:many|much)\b"
    r"|\bwhat (?:is|are|was|were) the (?:maximum|minimum|max|min|total|number|amount|"
    r"percentage|proportion|share|rate|limit|cap)\b"
    r"|\bwhat (?:percentage|proportion|number|amount)\b",
    re.IGNORECASE,
)
# Asking for a duration or a frequency: a number, or the words that state one without digits.
_DURATION: Final = re.compile(r"\bhow (?:long|often|frequently|soon)\b", re.IGNORECASE)
_NUMBER_WORDS: Final = (
    r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|billion|dozen|once|twice|half|single|double|none"
)
_AMOUNT_WORDS: Final = re.compile(rf"\b(?:{_NUMBER_WORDS})\b", re.IGNORECASE)
_DURATION_WORDS: Final = re.compile(
    rf"\b(?:{_NUMBER_WORDS}|daily|weekly|monthly|quarterly|yearly|annually|hourly|nightly|"
    r"until|till|indefinitely|permanently|forever|immediately|promptly|as long as|as soon as|"
    r"no longer than|lifetime|(?:day|week|month|quarter|year|hour|minute)s?)\b",
    re.IGNORECASE,
)


def asks_for_amount(question: str) -> bool:
    return _AMOUNT.search(question) is not None


def asks_for_duration(question: str) -> bool:
    return _DURATION.search(question) is not None


def asks_for_a_quantity(question: str) -> bool:
    """An amount, a duration or a frequency."""
    return asks_for_amount(question) or asks_for_duration(question)


def topic(question: str) -> str:
    """What the answer must be about: the words after the ones asking for a quantity, to the end
    of that sentence. "How often must access rights be reviewed?" is about "must access rights
    be reviewed", not "often"; "Hi, I am [NAME_1]: how long are backups kept?" is about "are
    backups kept". The question itself when it asks for no quantity."""
    cue = _AMOUNT.search(question) or _DURATION.search(question)
    if cue is None:
        return question
    rest = re.split(r"[?.!;:]", question[cue.end() :], maxsplit=1)[0]
    return rest if rest.strip() else question


def can_answer(question: str, sentence: str) -> bool:
    """False when the question asks for an amount, a duration or a frequency that the sentence
    does not state in any form; True otherwise (nothing is known against it)."""
    if asks_for_amount(question):
        return bool(numbers(sentence)) or _AMOUNT_WORDS.search(sentence) is not None
    if asks_for_duration(question):
        return bool(numbers(sentence)) or _DURATION_WORDS.search(sentence) is not None
    return True
