"""What a question asking for a quantity asks it of: "How often must access rights be
reviewed?" is about access rights being reviewed, and an answer must be about that, not merely
state a frequency."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from certiq.answering.actions import names_the_action
from certiq.answering.answer_types import (
    AMOUNT_ASKED,
    DURATION_ASKED,
    QUANTITY_NOUNS,
)
from certiq.text import content_terms

_DURATION_VERB: Final = re.compile(
    r"\s+(?:last|lasts|take|takes|remain|remains|expire|end|lapse|run out)\s*$", re.I
)
_QUANTITY_ATTRIBUTE: Final = re.compile(rf"\b(?:{'|'.join(QUANTITY_NOUNS)})s?\b", re.I)


def topic(question: str) -> str:
    """What the answer must be about: the words after the ones asking for a quantity, to the end
    of that sentence. "How often must access rights be reviewed?" is about "must access rights
    be reviewed", not "often"; "Hi, I am [NAME_1]: how long are backups kept?" is about "are
    backups kept". The question itself when it asks for no quantity."""
    cue = AMOUNT_ASKED.search(question) or DURATION_ASKED.search(question)
    if cue is None:
        return question
    # "Which is longer: the SEV1 or the SEV2 window?": what follows the colon is asked about.
    rest = re.split(r"[?.!;:]", question[cue.end() :].lstrip(" :,"), maxsplit=1)[0]
    # "How long do exceptions last?": the verb asks for the duration, as "how long" does; the
    # answer is about exceptions ("valid for at most 12 months") and need not say "last". So do
    # attribute words: "What is the minimum password length?" is about passwords ("at least 14
    # characters long").
    rest = _QUANTITY_ATTRIBUTE.sub(" ", _DURATION_VERB.sub("", _IT_TAKES.sub(" ", rest)))
    rest = _SPENT.sub(" ", rest)  # "how much can I spend on lunch": lunch
    rest = _HAVE_GOT.sub(" ", rest)  # "how long have I got to report it": report it
    rest = _SIZE.sub(" ", rest)  # "how often should I stop on a long drive": stopping, driving
    rest = _COMPARED.sub(" ", rest)  # "backups kept longer than tickets": backups, tickets
    rest = _GET_DONE.sub("be ", rest)  # "how quickly do subcontractors get paid": be paid
    return rest if rest.strip() else question


_COMPARED: Final = re.compile(r"\b(?:longer|shorter)\s+than\b", re.IGNORECASE)
# "get" before what is done makes a passive, as "be" does: "get paid", "gets wiped".
# Not "get enhanced maternity pay", where the participle describes what is got.
_GET_DONE: Final = re.compile(
    r"\bget(?:s|ting)?\s+(?=(?:\w+(?:ed|en)|paid|kept|sent|told|made|done|put|cut)\s*"
    r"(?:$|[?.!,;]|\b(?:by|for|on|at|in|before|after|within|when|if|and|or|to)\b))",
    re.IGNORECASE,
)
# "How much can I spend on lunch?" is about lunch ("Lunch may be claimed up to £10 ..."): the
# verb asks for the money, as "how much" does, and so does "How much could I be charged if ...".
_SPENT: Final = re.compile(
    r"^\s*(?:can|could|may|do|does|will|would|should|must)\s+[\w-]+\s+"
    r"(?:spend|claim|pay|charge|get|receive|expense|be\s+(?:charged|fined|paid))\s+"
    r"(?:on|for|back\s+for)?\b",
    re.IGNORECASE,
)
# "How long have I got to install security updates?" is about installing them: "have I got
# to" asks what must be done, as "must I" does, and getting is no part of it.
_HAVE_GOT: Final = re.compile(
    r"^\s*(?:have|has|'ve)\s+(?:i|we|you|they|he|she|it)\s+got\s+(?:to\s+)?", re.IGNORECASE
)
# How long or large the thing is, said of it, not what the quantity is asked of.
_SIZE: Final = re.compile(r"\b(?:a|an|the)\s+(?:long|short|big|small|large)\b", re.IGNORECASE)
_CONDITION: Final = re.compile(
    r"\s+\b(?:when|if|while|whilst|whenever|unless|once|after|before)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
# Words that say someone is needed, not what for: "do we need someone on fire watch".
_WHO_IS_NEEDED: Final = re.compile(
    r"\b(?:need|needs|needed|someone|somebody|anyone|anybody)\b", re.IGNORECASE
)


def condition_aside(asked: str) -> str:
    """What a quantity is asked of, without the condition after it: "lunch" of "lunch when
    I'm out on visits all day", whose answer may state the condition in other words ("... when
    a colleague is away from their usual workplace for more than five hours"); "fire watch" of
    "do we need someone on fire watch after welding" ("After any hot work, a fire watch ...")."""
    core = _WHO_IS_NEEDED.sub(" ", _CONDITION.sub("", asked))
    return core if content_terms(core) else asked


# "How long does it take to get my records?" is about the records ("... will respond to your
# request for inspection of records within 10 days"), not about taking or getting.
_IT_TAKES: Final = re.compile(
    r"^\s*(?:does|do|did|will|would|should|can|could)\s+it\s+(?:usually\s+)?take\s+"
    r"(?:(?:me|us|you|them|him|her)\s+)?(?:to|for)\s+(?:(?:get|have|be)\s+)?",
    re.IGNORECASE,
)


def does_what_is_measured(asked: str, terms: Iterable[str]) -> bool:
    """Asked a quantity of something done ("How quickly must a SEV1 incident be escalated?"),
    the sentence names that doing: acknowledging a SEV1 page within 15 minutes is no
    escalating. Keeping (retaining, storing) is not asked of: overwriting footage after 30
    days says how long it is kept."""
    terms = set(terms)
    return all(
        names_the_action(done, terms)
        for done in content_terms(" ".join(_PARTICIPLE.findall(asked)))
        if done not in _MEASURED_ANYHOW
    )


_PARTICIPLE: Final = re.compile(r"\b(?:be|is|are|was|were|been|get|gets|got)\s+(\w+(?:ed|en))\b")
_MEASURED_ANYHOW: Final = frozenset(content_terms("kept needed required"))
