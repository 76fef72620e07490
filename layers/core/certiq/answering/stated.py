"""What a sentence states, read by its words: numbers and number words, money, durations,
frequencies, dates and times of day, phone numbers, e-mail addresses and websites, places, and
the words naming a kind of thing in other words (a penalty by a sanction, a temperature by its
degrees).
``certiq.answering.answer_types`` looks for these in a sentence when a question asks for one of
them ("How often ...?" is answered by "every two hours", not by "within 30 days"; "What is the
hotline's phone number?" by a sentence giving one)."""

from __future__ import annotations

import re
from typing import Final

NUMBER_WORDS: Final = (
    r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|billion|dozen|once|twice|half|single|double|none"
)

MONEY: Final = re.compile(
    r"[$€£¥]|\b(?:EUR|USD|GBP|CHF|dollars?|euros?|pounds?|cents?)\b|\d\s?%", re.IGNORECASE
)

AMOUNT_WORDS: Final = re.compile(rf"\b(?:{NUMBER_WORDS})\b", re.IGNORECASE)

# A number word alone is none: "ten hand hygiene episodes" say nothing of how long.
DURATION_WORDS: Final = re.compile(
    r"\b(?:daily|weekly|monthly|quarterly|yearly|annually|hourly|nightly|"
    r"until|till|indefinitely|permanently|forever|immediately|promptly|as long as|as soon as|"
    r"no longer than|lifetime|(?:day|night|week|month|quarter|year|hour|minute)s?)\b",
    re.IGNORECASE,
)

# A date: a year, a numeric date, a month or a weekday ("runs for 3 years" states none).
DATE_WORDS: Final = re.compile(
    r"\b(?:1[89]|20)\d\d\b|\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b"
    # A month by its name or abbreviation, whole: "decided", "marketing" and "separate" begin
    # as months do, and "may" is a month only as "May" or beside a day ("7 may").
    r"|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
    r"|(?-i:\bMay\b)|\b\d{1,2}(?:st|nd|rd|th)?\s+may\b|\bmay\s+\d{1,2}\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)

CLOCK: Final = re.compile(
    r"\b\d{1,2}[:.]\d\d\b|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)|\b(?:midnight|noon|midday)\b",
    re.IGNORECASE,
)

FREQUENCY_WORDS: Final = re.compile(
    # "every 2 hours" and "every two hours" alike, and "every operating day"
    rf"\b(?:(?:every|each|per)\s+(?:(?:\d+|{NUMBER_WORDS})\s+|other\s+|few\s+|[a-z]+\s+)?"
    r"(?:day|night|week|month|quarter|year|hour|minute|annum|cycle|release|sprint|shift|"
    r"session)s?|"
    r"once|twice|thrice|times|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|"
    r"annually|biannually|hourly|regularly|periodically|occasionally|continuously|constantly|"
    r"from time to time)\b",
    re.IGNORECASE,
)

# An amount of time, read out of a sentence asked for an amount of money.
AN_AMOUNT_OF_TIME: Final = re.compile(
    rf"\b(?:\d+(?:[.,]\d+)?|{NUMBER_WORDS})\s+(?:business\s+|working\s+|calendar\s+)?"
    # not "a day's pay"
    r"(?:second|minute|hour|day|night|week|month|quarter|year)s?\b(?!['\u2019])",
    re.IGNORECASE,
)

# Asked for a phone number, an e-mail address or a website, a sentence without one is no
# answer: "... the independent hotline run by SafeCall ..." gives no number to call. The thing
# asked for, not what does something: "What information does the website collect?" asks for
# information. A question may be the thing alone ("HR email address for leave questions?"),
# and a number to ring is a phone number ("What number do I ring after a crash?"), as the
# e-mail for someone is their address.
_ASKED_FOR: Final = r"(?=\s*(?:[?.!]|$|for\b|of\b|to\b|at\b|on\b))"
_CONTACT_ASKED: Final = re.compile(
    r"^\W*(?:(?:what|what's|whats|which|where|give|tell)\b[^?]*?\b|(?:[\w'-]+\s+){0,3}?)"
    rf"(?:(?P<phone>(?:phone|telephone|contact|fax|mobile)\s+(?:number|no\.?)\b{_ASKED_FOR}"
    r"|number\b(?=\s+(?:for|to\s+(?:ring|call|phone|dial)|(?:do|should|can|must)\s+(?:i|we|you)\s+"
    r"(?:ring|call|phone|dial))\b|\s*[?.!]*\s*$))"
    r"|(?P<email>e-?mail\s+address|(?:(?<=the\s)|(?<=their\s)|(?<=your\s)|(?<=its\s))e-?mail)"
    rf"\b{_ASKED_FOR}"
    rf"|(?P<website>website|web\s?site|web\s+address|url|web\s?page)\b{_ASKED_FOR})",
    re.IGNORECASE,
)
_CONTACT_STATED: Final = {
    "phone": re.compile(r"(?:\+?\d[\d ()-]{6,}\d)"),
    "email": re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+"),
    "website": re.compile(
        r"\bhttps?://\S+|\bwww\.\S+|\b[\w-]+\.(?:com|org|net|gov|uk|eu|io)\b", re.I
    ),
}


def contact_asked(question: str) -> re.Pattern[str] | None:
    """What a sentence must hold when the question asks for a phone number, an e-mail address
    or a website; None when it asks for none."""
    asked = _CONTACT_ASKED.search(question)
    if asked is None:
        return None
    return next(_CONTACT_STATED[kind] for kind, found in asked.groupdict().items() if found)


def names_another_place(question: str, sentence: str) -> bool:
    """The question names a place ("CCTV in Manchester") and the sentence another, not it
    ("CCTV footage from the Leeds office ...")."""
    asked = set(_IN_A_PLACE.findall(question))
    stated = set(_IN_A_PLACE.findall(sentence))
    if _ABROAD.search(question) and not _ABROAD.search(sentence):
        # "the hotel limit when travelling abroad": "£150 in London and £95 elsewhere in the
        # UK" names places at home
        return bool(stated)
    return bool(asked and stated) and not any(place in sentence for place in asked)


_IN_A_PLACE: Final = re.compile(r"\b(?:in|at|from)\s+(?:the\s+)?([A-Z][a-z]+)\b")
_ABROAD: Final = re.compile(
    r"\b(?:abroad|overseas|foreign|international(?:ly)?|another country|other countries|"
    r"outside (?:the\s+)?(?:UK|US|EU|country))\b",
    re.IGNORECASE,
)
