"""Questions in parts: "What is the liability cap and which insurance must the supplier hold?"
asks two things, each retrieved for and answered (or said not stated) on its own."""

from __future__ import annotations

import re
from typing import Final

from certiq.answering.answer_types import asks_who
from certiq.answering.topic import topic
from certiq.answering.who import opens_with_who
from certiq.text import content_terms

# A question in several parts: "What is the liability cap and which insurance must the supplier
# hold?" asks two things, each answered (or not) on its own. So does one going on with a yes/no
# question, a verb then its subject: "How long are invoices kept and is the Wi-Fi password
# stated?" ("... and must sign the form?" goes on with the same subject: one question).
_WH: Final = r"(?:what|which|who|whom|whose|when|where|why|how)\b"
_YES_NO: Final = (
    r"(?:is|are|was|were|does|do|did|can|could|will|would|should|shall|must|may|has|have)\s+"
    r"(?:the|a|an|it|they|there|this|that|these|those|my|our|your|their|its|any|i|we|you)\b"
)
_NEXT_PART: Final = re.compile(
    rf"\s*(?:[,;]\s*)?\b(?:and|but|also|plus)\s+(?=(?:{_WH}|{_YES_NO}))"
    rf"|\s*;\s*(?=(?:{_WH}|{_YES_NO}))",
    re.IGNORECASE,
)

# "What is the difference between SEV1 and SEV2?" asks what each is.
_DIFFERENCE: Final = re.compile(
    r"\bdifferences?\s+between\s+(?:an?\s+|the\s+)?(.+?)\s+and\s+(?:an?\s+|the\s+)?"
    r"(.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)


# "Compare who approves a £70k post with who approves a replacement": each is asked.
_COMPARE: Final = re.compile(
    r"^\W*compare\s+(?P<one>.+?)\s+(?:with|to|against|and)\s+(?P<other>.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# "How much notice for paternity leave vs unpaid parental leave?": each is asked the same.
_VERSUS: Final = re.compile(r"\s+(?:vs\.?|versus)\s+", re.IGNORECASE)
_ASKING_FIRST: Final = re.compile(rf"^\W*(?:{_WH}|{_YES_NO})", re.IGNORECASE)
_PREPOSITION: Final = r"(?:for|on|in|of|at|by|to|from|with|under|over)"
_DETERMINER: Final = r"(?:a|an|the|my|our|your|their|his|her|its|this|that|these|those)"


def _compared(question: str) -> list[str] | None:
    """The things a question compares, each asked as a question: "compare X with Y" asks X and
    Y (as "What is X?" when X is no question), "... for X vs Y?" asks "... for X" and "... for
    Y". None when it compares nothing."""
    compare = _COMPARE.match(question)
    if compare is not None:
        things = [compare.group("one"), compare.group("other")]
        return [t if _ASKING_FIRST.match(t) else f"What is {t}?" for t in things]
    cut = _VERSUS.search(question)
    if cut is None:
        return None
    left, right = question[: cut.start()], question[cut.end() :].strip()
    # Where the first thing starts in what is asked of it: at the word the second starts with
    # ("in my own car vs on a motorbike"), or after the last such word before it ("for
    # paternity leave vs unpaid parental leave").
    opening = re.match(rf"(?:{_PREPOSITION}|{_DETERMINER})\b", right, re.IGNORECASE)
    determined = opening is not None and not re.fullmatch(_PREPOSITION, opening[0], re.I)
    starts = [
        match.start() if opening else match.end()
        for match in re.finditer(
            rf"\b{_DETERMINER if determined else _PREPOSITION}\b", left, re.IGNORECASE
        )
    ]
    if starts:
        frame = left[: starts[-1]].rstrip()
        return [left.strip(), f"{frame} {right}".strip()]
    # Or in place of what the first asks about: "How long are invoices kept vs backups?"
    asked = _ASKED_OF_PASSIVE.match(left) or _ASKED_OF_WHAT.match(left)
    if asked is None:
        return None
    other = right.rstrip("?.! ")
    return [left.strip(), f"{left[: asked.start('subject')]}{other}{left[asked.end('subject') :]}"]


def question_parts(question: str) -> list[str]:
    """The question cut where "and"/"but" (or ";") starts a new wh- or yes/no question, or,
    asked the difference between two things, what each is; one part when there is neither."""
    difference = _DIFFERENCE.search(question)
    if difference is not None:
        return [f"What is {difference.group(1)}?", f"What is {difference.group(2)}?"]
    compared = _compared(question)
    if compared is not None:
        return compared
    # Each part's span of the question: a part that brings no words of its own asks another
    # thing of the part before, and stays with it. "Who must be told about a breach, and when
    # must they be told?" asks when of the same telling; said apart, "when must they be told?"
    # would be said not stated beside the answer that states it.
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in [*_NEXT_PART.finditer(question), None]:
        end = len(question) if cut is None else cut.start()
        part = question[start:end].strip()
        if part:
            before = question[spans[-1][0] : spans[-1][1]] if spans else ""
            if (
                spans
                and set(content_terms(part)) <= set(content_terms(before))
                # asking who does it asks for someone, which what is asked before may not name
                and not (opens_with_who(part) and not asks_who(before))
            ):
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        start = len(question) if cut is None else cut.end()
    parts = [question[low:high].strip() for low, high in spans]
    return parts if len(parts) > 1 else [question]


def asks_only(part: str) -> bool:
    """The part has no words but those asking for a quantity ("how fast?", "and how long?")."""
    return set(content_terms(part)) <= _ASKING


# Words asking for a quantity, which name nothing asked about.
_ASKING: Final = frozenset(content_terms("fast quickly soon long often much many far"))


def read_parts(question: str) -> list[str]:
    """``question_parts`` as they are retrieved for and answered: a later part's pronoun naming
    what the first part asks about (the note on a part not stated quotes it as written)."""
    return [read for _, read in parts_written_and_read(question)]


def parts_written_and_read(question: str) -> list[tuple[str, str]]:
    """Each part of the question as written (``question_parts``) and as read (``read_parts``)."""
    first, *later = question_parts(question)
    return [(first, first), *((part, _naming_what_it_stands_for(part, first)) for part in later)]


def own_words(written: str, read: str) -> set[str]:
    """The terms a later part says in its own words, beyond the quantity it asks for, when its
    "it" was read as what an earlier part asks about (empty otherwise): an answer to "is it
    taxed?", after "How much is the first aid allowance", says something of taxing, and "They
    are not paid the first aid allowance." does not."""
    return set(content_terms(topic(written))) if read != written else set()


# What a question asks about, when it says so in one of two plain shapes: "How long are
# application logs kept" (a passive, ending with the participle) and "What is the liability cap"
# (or "What's the damage bond", "How much is the first aid allowance").
_PARTICIPLE: Final = (
    r"(?:\w+(?:ed|en)|kept|held|sent|made|paid|told|sold|shown|built|bought|brought|lost|spent"
    r"|done|seen|set|put|cut|read)"
)
_ASKED_OF_PASSIVE: Final = re.compile(
    r"^\s*(?:how\s+(?:long|often|quickly|soon)|when|where|why|how)\s+"
    r"(?:is|are|was|were|(?:must|should|can|will|may|shall|would|could)\s+be)\s+"
    rf"(?P<subject>[\w'’ -]+?)\s+{_PARTICIPLE}\s*[?.!,]*\s*$",
    re.IGNORECASE,
)
_ASKED_OF_WHAT: Final = re.compile(
    r"^\s*(?:what|which|how\s+much)(?:\s+(?:is|are|was|were)|['’]?s)\s+"
    r"(?P<subject>[\w'’ -]+?)\s*[?.!,]*\s*$",
    re.IGNORECASE,
)
# ... and "Is the acceptable use policy reviewed" (whether something is done to it).
_ASKED_OF_YES_NO: Final = re.compile(
    r"^\s*(?:is|are|was|were)\s+(?!(?:it|there|this|that)\b)"
    r"(?P<subject>(?:(?:the|this|our|your|my|a|an)\s+)?[\w'’ -]+?)\s+"
    rf"{_PARTICIPLE}\b",
    re.IGNORECASE,
)
# ... and "Who approves exceptions to the retention policy" (who does it to what).
_ASKED_OF_WHO_ACTS: Final = re.compile(
    r"^\s*who\s+(?:(?:must|should|can|may|will|does|do)\s+)?(?!is\b|are\b)[a-z]+s?\s+"
    r"(?P<subject>[\w'’ -]+?)\s*[?.!,]*\s*$",
    re.IGNORECASE,
)
# ... and "how many characters does a password need" (a quantity of something it has).
_ASKED_OF_HOW_MANY: Final = re.compile(
    r"^\s*how\s+(?:many|much|long|often)\s+(?:[\w-]+\s+)?(?:does|do|must|should|can|will)\s+"
    r"(?P<subject>(?:a|an|the|my|our|your)\s+[\w'’-]+(?:\s+[\w'’-]+)?)\s+"
    r"(?:need|have|get|require|take|last|cost)\b",
    re.IGNORECASE,
)
# ... and "I'm on a 7 hour shift, do I get a break" (whether one is given something).
_ASKED_OF_GETTING: Final = re.compile(
    r"\b(?:do|does|can|will|would|may|should)\s+(?:i|we|you|they|staff|employees)\s+"
    r"(?:get|have|take|receive)\s+(?P<subject>(?:an?|any)\s+[\w'’ -]+?)\s*[?.!,]*\s*$",
    re.IGNORECASE,
)
_BACK_REFERENCE: Final = re.compile(r"\b(?:it|them|they)\b", re.IGNORECASE)


def _naming_what_it_stands_for(part: str, first: str) -> str:
    """A later part with "it", "them" or "they" for what the first part asks about, naming it:
    "who can access them?" after "How long are application logs kept" asks who can access
    application logs, so a sentence on who has access to something else is no answer to it."""
    asked = (
        _ASKED_OF_PASSIVE.match(first)
        or _ASKED_OF_WHAT.match(first)
        or _ASKED_OF_WHO_ACTS.match(first)
        or _ASKED_OF_YES_NO.match(first)
        or _ASKED_OF_GETTING.search(first)
        or _ASKED_OF_HOW_MANY.match(first)
    )
    if asked is None:
        return part
    # "what's the IT service desk number, and are they open at weekends": the desk is open
    subject = _ATTRIBUTE.sub("", asked.group("subject"))
    return _BACK_REFERENCE.sub(lambda _: subject, part)


# A word naming what is asked of the thing, not the thing.
_ATTRIBUTE: Final = re.compile(
    r"\s+(?:(?:phone|telephone|contact)\s+)?(?:number|address|name|email|e-mail|website|rate|"
    r"limit|cost|price|fee)\s*$",
    re.IGNORECASE,
)
