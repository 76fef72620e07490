"""Word-level text handling shared by span selection, the extractive answerer and the verifier."""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves s t don shall may might must also per via
    """.split()
)

NEGATIONS = frozenset({"no", "not", "never", "none", "nor", "cannot", "without", "neither"})


def words(text: str) -> list[str]:
    """Lower-cased words, keeping numbers like 3.5 and hyphenated words whole."""
    return [match.group(0).lower() for match in _WORD.finditer(text)]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English suffix stripper: enough to match 'backups' with 'backup', 'kept' stays."""
    if len(word) <= 3 or word[0].isdigit():
        return word
    for suffix, replacement in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: len(word) - len(suffix)] + replacement
    return word


def content_terms(text: str) -> list[str]:
    """Stemmed words that carry meaning: stopwords dropped, order and repeats kept."""
    return [stem(word) for word in words(text) if word not in STOPWORDS]


def numbers(text: str) -> set[str]:
    """Numbers as written, with thousands separators removed ("1,000" -> "1000")."""
    return {match.group(0).replace(",", "") for match in _NUMBER.finditer(text)}


def has_negation(text: str) -> bool:
    return any(word in NEGATIONS or word.endswith("n't") for word in words(text))
