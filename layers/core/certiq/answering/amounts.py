"""Amounts of money, or periods of time, a question names, and the bands of them a sentence
states.

Policies state rules by bands: "Goods and services from £10,000 to £74,999: at least three
written quotations", "£500,000 and above: the Cabinet Member for Finance", "More than 30 days a
year needs the agreement of the Provost". A question names an amount instead ("How many quotes
do I need for a £30k job?", "I want to do 40 days of consultancy, who has to agree?"), which
shares no word with the band holding it. A sentence whose band holds the amount asked of is
about it; one stating only bands that do not hold it is about other amounts, and no answer.
A period is a band only after words that make it one ("up to 24 months", "more than 30 days"):
"at least six weeks before departure" is a deadline, not a band of trips. Temperatures are
read the same way: "If a fridge reads above 8°C, ..." is about a fridge showing 10 degrees, and
so are grades: "Employees on grade 7 and above must ..." is about someone on grade 8.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from certiq.text import content_terms

_NUMBER: Final = r"\d[\d,]*(?:\.\d+)?"
_SCALE: Final = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
# "£30k", "£150,000", "$2.5 million", "half a million"
_MONEY: Final = re.compile(
    rf"[£$€]\s?(?P<number>{_NUMBER})(?:\s?(?P<scale>k|m|bn|thousand|million|billion)\b)?"
    r"|\b(?P<half>half\s+a|a)\s+million\b",
    re.IGNORECASE,
)
# Words before or after an amount that make it one end of a band.
_BELOW: Final = re.compile(r"\b(?:below|under|less\s+than)\s*$", re.IGNORECASE)
_AT_MOST: Final = re.compile(
    r"\b(?:up\s+to|not\s+exceeding|no\s+more\s+than|at\s+most|maximum\s+of|max\.?)\s*$",
    re.IGNORECASE,
)
_AT_LEAST: Final = re.compile(r"\b(?:at\s+least|from|minimum\s+of)\s*$", re.IGNORECASE)
_ABOVE: Final = re.compile(
    r"\b(?:over|above|more\s+than|exceeding|in\s+excess\s+of)\s*$", re.IGNORECASE
)
_OR_MORE: Final = re.compile(r"^\s*(?:or\s+more|and\s+above|or\s+above|and\s+over|\+)", re.I)
_OR_LESS: Final = re.compile(r"^\s*(?:or\s+less|and\s+below|or\s+below|and\s+under)\b", re.I)
_TO: Final = re.compile(r"^\s*(?:to|-|–|and)\s*$", re.IGNORECASE)
_NUMBER_WORDS: Final = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90}
# "24 months", "six weeks", "30 working days", "a 7 hour shift": in days.
_PERIOD: Final = re.compile(
    rf"\b(?P<number>{_NUMBER}|{'|'.join(_NUMBER_WORDS)})\s+"
    r"(?:working\s+|calendar\s+|business\s+)?(?P<unit>minute|hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)
_DAYS: Final = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}
# "grade 8", "band 6", "level 3": a pay grade, read against "band 6 or above"
_GRADE: Final = re.compile(r"\b(?:grade|band|level)\s+(?P<number>\d{1,2})\b", re.IGNORECASE)
# "8°C", "-18°C", "10 degrees", "63 °C"
_TEMPERATURE: Final = re.compile(
    rf"(?<![\w.])(?P<number>-?{_NUMBER})\s?(?:°\s?[CF]\b|°|degrees?\b(?:\s+[CF]\b)?)", re.I
)
# What makes a period a band: of cases ("an embargo of up to 24 months"), not a deadline.
_PERIOD_BELOW: Final = re.compile(r"\b(?:under|less\s+than|shorter\s+than)\s*$", re.I)
_PERIOD_AT_MOST: Final = re.compile(
    r"\b(?:up\s+to|not\s+exceeding|no\s+more\s+than|no\s+longer\s+than)\s*$", re.I
)
_PERIOD_ABOVE: Final = re.compile(r"\b(?:over|more\s+than|longer\s+than|beyond)\s*$", re.I)


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    low_included: bool = True
    high_included: bool = True
    scaled: bool = True  # money, whose scale a band's end tells; not a temperature or a grade

    def holds(self, amount: float) -> bool:
        """The amount is in the band, and an open band's one end of a scaled amount is within
        a factor of _NEAR of it: "more than £50 per person" is about hospitality, not a
        £500,000 spend."""
        above = amount >= self.low if self.low_included else amount > self.low
        below = amount <= self.high if self.high_included else amount < self.high
        if not self.scaled:
            return above and below
        if math.isinf(self.high) and self.low > 0:
            below = below and amount <= self.low * _NEAR
        if math.isinf(self.low) and self.high > 0:
            above = above and amount >= self.high / _NEAR
        return above and below


_NEAR: Final = 100


def amounts_named(text: str) -> list[float]:
    """The amounts of money the text names, in its order."""
    return [_value(match) for match in _MONEY.finditer(text)]


def amount_terms(question: str) -> frozenset[str]:
    """The content terms that write the question's amounts ("30k", "150,000", "million"),
    temperatures ("10", "degrees") and grades ("grade", "8")."""
    return frozenset(
        term
        for pattern in (_MONEY, _TEMPERATURE, _GRADE)
        for match in pattern.finditer(question)
        for term in content_terms(match.group(0))
    )


def states_a_temperature(sentence: str) -> bool:
    """The sentence states a temperature ("5°C", "21 degrees")."""
    return _TEMPERATURE.search(sentence) is not None


def bands_stated(sentence: str) -> list[Band]:
    """The bands of money the sentence states: "from £10,000 to £74,999", "below £10,000",
    "£500,000 and above", "more than £100"; a bare amount ("a charge of £10") is none."""
    return _bands(sentence, _MONEY, _value, scaled=True)


def _bands(
    sentence: str,
    pattern: re.Pattern[str],
    value_of: Callable[[re.Match[str]], float],
    *,
    scaled: bool,
) -> list[Band]:
    """The bands of the values ``pattern`` finds that the sentence states."""
    matches = list(pattern.finditer(sentence))
    bands: list[Band] = []
    index = 0
    while index < len(matches):
        match = matches[index]
        before = sentence[: match.start()]
        after = sentence[match.end() :]
        value = value_of(match)
        following = matches[index + 1] if index + 1 < len(matches) else None
        if following is not None and _TO.match(sentence[match.end() : following.start()]):
            # "from £10,000 to £74,999", "between -1°C and 1°C"
            bands.append(Band(value, value_of(following), scaled=scaled))
            index += 2
            continue
        if _BELOW.search(before):
            bands.append(Band(-math.inf, value, high_included=False, scaled=scaled))
        elif _AT_MOST.search(before) or _OR_LESS.match(after):
            bands.append(Band(-math.inf, value, scaled=scaled))
        elif _ABOVE.search(before):
            bands.append(Band(value, math.inf, low_included=False, scaled=scaled))
        elif _AT_LEAST.search(before) or _OR_MORE.match(after):
            bands.append(Band(value, math.inf, scaled=scaled))
        index += 1
    return bands


def holds_an_amount_asked(question: str, sentence: str) -> bool | None:
    """True when a band the sentence states holds an amount (of money, else a temperature or a
    grade, else a period of time) the question names, False when it states bands and none
    holds one, None when either names none."""
    asked = _asked_amounts(question)
    bands = bands_stated(sentence)
    if asked and bands:
        return any(band.holds(amount) for band in bands for amount in asked)
    for pattern in (_TEMPERATURE, _GRADE):
        values = [_stated_number(match) for match in pattern.finditer(question)]
        value_bands = _bands(sentence, pattern, _stated_number, scaled=False)
        if values and value_bands:
            return any(band.holds(value) for band in value_bands for value in values)
    periods = _periods_named(question)
    period_bands = _period_bands(sentence)
    if not periods or not period_bands:
        return None
    return any(band.holds(period) for band in period_bands for period in periods)


def _asked_amounts(question: str) -> list[float]:
    """The amounts of money the question names; one asked of as more (or less) than an amount
    is just beyond it: "a goodwill gesture worth more than £50" is not one of up to £50."""
    return _named(question, _MONEY, _value, (_ABOVE, _BELOW), 0.005)


def _named(
    question: str,
    pattern: re.Pattern[str],
    value_of: Callable[[re.Match[str]], float],
    beyond: tuple[re.Pattern[str], re.Pattern[str]],
    step: float,
) -> list[float]:
    """The values ``pattern`` finds in the question, each ``step`` above (or below) itself
    after the words of ``beyond`` (more than, less than)."""
    above, below = beyond
    values = []
    for match in pattern.finditer(question):
        before, value = question[: match.start()], value_of(match)
        if above.search(before):
            value += step
        elif below.search(before):
            value -= step
        values.append(value)
    return values


def _days(match: re.Match[str]) -> float:
    number = match.group("number").lower()
    value = _NUMBER_WORDS.get(number)
    count = float(number.replace(",", "")) if value is None else float(value)
    return count * _DAYS[match.group("unit").lower()]


def _periods_named(question: str) -> list[float]:
    """The periods the question names, in days; one asked of as more (or less) than a period is
    just beyond it: "an embargo longer than 24 months"."""
    return _named(question, _PERIOD, _days, (_PERIOD_ABOVE, _PERIOD_BELOW), 0.5)


def _period_bands(sentence: str) -> list[Band]:
    """The bands of time the sentence states: "up to 24 months", "more than 30 days a year"."""
    bands = []
    for match in _PERIOD.finditer(sentence):
        before, days = sentence[: match.start()], _days(match)
        if _PERIOD_BELOW.search(before):
            bands.append(Band(-math.inf, days, high_included=False))
        elif _PERIOD_AT_MOST.search(before):
            bands.append(Band(-math.inf, days))
        elif _PERIOD_ABOVE.search(before):
            bands.append(Band(days, math.inf, low_included=False))
    return bands


def _stated_number(match: re.Match[str]) -> float:
    return float(match.group("number").replace(",", ""))


def _value(match: re.Match[str]) -> float:
    if match.group("half") is not None:
        return 5e5 if match.group("half").lower().startswith("half") else 1e6
    number = float(match.group("number").replace(",", "").rstrip("."))
    scale = match.group("scale")
    return number * _SCALE[scale.lower()] if scale else number


def terms_with_amounts(question: str, sentence: str) -> set[str]:
    """The sentence's content terms, and the question's amount written as the question writes
    it when a band of the sentence holds it: "From £100,000 to £499,999: the Director ..."
    holds "150,000" of "Who signs off a £150,000 contract?"."""
    terms = set(content_terms(sentence))
    if holds_an_amount_asked(question, sentence):
        terms |= amount_terms(question)
    return terms


# "Does the company pay for employees' gym membership?", "Do we pay relocation costs for new
# starters?": what is paid for, up to whom it is for or when.
_PAID_FOR: Final = re.compile(
    r"^\W*(?:do|does|will|would)\s+(?:we|you|they|the\s+[\w-]+|our\s+[\w-]+)\s+"
    r"(?:pay|cover|reimburse|refund|fund)\s+(?:for\s+)?(?P<paid>[^?]+?)\s*"
    r"(?:\?|$|\b(?:for|if|when|while|whilst|during|because|to)\b)",
    re.IGNORECASE,
)
_OWNER: Final = re.compile(r"\b\w+(?:'s|s')(?=\s)", re.IGNORECASE)  # "employees'", "staff's"
# Words naming money, not what it is paid for.
_ANY_MONEY: Final = frozenset(
    content_terms("cost costs fee fees expense expenses charge charges anything something any")
)


def names_what_is_paid_for(question: str, sentence: str) -> bool | None:
    """Asked whether something is paid for, whether the sentence names it: "Company systems
    are monitored ..., in line with the employee privacy notice" names no gym membership. None
    when the question asks no such thing."""
    asked = _PAID_FOR.match(question)
    if asked is None:
        return None
    paid = set(content_terms(_OWNER.sub(" ", asked.group("paid")))) - _ANY_MONEY
    return not paid or not paid.isdisjoint(content_terms(sentence))
