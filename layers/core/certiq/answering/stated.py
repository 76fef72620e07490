"""What a sentence states, read by its words: numbers and number words, money, durations,
frequencies, dates and times of day. ``certiq.answering.answer_types`` looks for these in a
sentence when a question asks for one of them ("How often ...?" is answered by "every two
hours", not by "within 30 days")."""

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

DURATION_WORDS: Final = re.compile(
    rf"\b(?:{NUMBER_WORDS}|daily|weekly|monthly|quarterly|yearly|annually|hourly|nightly|"
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
    # "every 2 hours" and "every two hours" alike
    rf"\b(?:(?:every|each|per)\s+(?:(?:\d+|{NUMBER_WORDS})\s+|other\s+|few\s+|business\s+|"
    r"calendar\s+)?"
    r"(?:day|night|week|month|quarter|year|hour|minute|annum|cycle|release|sprint)s?|"
    r"once|twice|thrice|times|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|"
    r"annually|biannually|hourly|regularly|periodically|occasionally|continuously|constantly|"
    r"from time to time)\b",
    re.IGNORECASE,
)
