"""Permission questions: whether something may be done ("Can I use ChatGPT with customer
data?", "Is working from abroad allowed?"), what is asked may be done, and whether a sentence
speaks of doing it. The offline answerer (certiq.answering.extractive) answers them only with
sentences about that activity. And how-to questions ("How can I opt out of marketing
emails?"), answered first by the sentences saying how it is done."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Final

from certiq.answering.actions import (
    ADVERB,
    names_the_action,
)
from certiq.text import content_terms, written_words

# A yes/no question asking whether something is allowed: "Is working from abroad allowed?",
# "Can I use ChatGPT with customer data?", "Does the policy allow bringing pets?".
_YES_NO: Final = re.compile(
    r"^\W*(?:is|are|am|can|could|may|might|does|do|must|should|will|would|shall)\b", re.I
)
_PERMISSION: Final = re.compile(
    r"\b(?:allow|allows|allowed|permit|permits|permitted|can|could|may|forbidden|prohibited|"
    r"banned|ok|okay|(?:have|has|need|needs)\s+to|required|obliged)\b",
    re.I,
)
_PERMISSION_TERMS: Final = frozenset(
    content_terms(
        "allow allowed permit permitted forbidden prohibited banned ok okay policy need required "
        "obliged"
    )
)


def activity_asked(question: str) -> set[str]:
    """The terms of what a yes/no permission question asks may be done ("working from abroad":
    work, abroad), or none when it is not one. An answer must be about that activity: the rule
    allowing "limited personal use of company devices ... [that does not] interfere with work"
    says nothing of working abroad."""
    if _YES_NO.search(question) is None or _PERMISSION.search(question) is None:
        return set()
    # "take away" is a verb, "away" no place: "Can the association take away my hybrid
    # arrangement?" is answered by "The association may end a hybrid arrangement ...".
    terms = set(content_terms(_PHRASAL_AWAY.sub(r"\1", question))) - _PERMISSION_TERMS
    # Who would do it is not what is done: "Can employees bring their dogs to the office?" is
    # not answered by "... in line with the employee privacy notice".
    asker = _ASKER.search(question)
    who = (asker.group(1) or asker.group(2)) if asker else None
    return terms - set(content_terms(who)) if who else terms


_PHRASAL_AWAY: Final = re.compile(
    r"\b((?:take|takes|taking|took|taken|give|gives|giving|gave|given|throw|throws|throwing|"
    r"threw|thrown|put|puts|putting)\s+(?:[\w-]+\s+)?)away\b",
    re.IGNORECASE,
)
_ASKER: Final = re.compile(
    r"^\W*(?:(?:can|could|may|are|is)\s+(employees|staff|contractors|visitors|people|users)\b"
    # Whether someone must do it: "Does the supplier have to carry cyber insurance?" asks about
    # carrying insurance, which "The supplier must notify ..." does not speak of.
    r"|(?:does|do|is|are|must)\s+(?:the\s+|a\s+|an\s+|our\s+)?([\w-]+)\s+"
    r"(?:(?:have|has|need|needs)\s+to|required\s+to|obliged\s+to)\b)",
    re.I,
)


# The verb of what a permission question asks may be done, and the words after it: "Is it
# allowed to install software on ...", "Can I use my personal laptop for ...", "Does the policy
# allow bringing pets ...", "Is working from abroad allowed?".
_WORDS_AFTER = r"((?:\s+[\w'-]+)*?)"
_PERMITTED_ACTIVITY: Final = (
    re.compile(
        r"\b(?:(?:allowed|permitted|ok|okay) to|(?:can|may|could) (?:i|we|employees|staff|"
        r"contractors|visitors|someone|anyone|(?:the|either|each) [a-z]+|(?-i:[A-Z][\w-]+)))"
        rf"\s+{ADVERB}([a-z]+){_WORDS_AFTER}\W*$",
        re.IGNORECASE,
    ),
    re.compile(rf"\ballow(?:s|ed)?\s+([a-z]+ing){_WORDS_AFTER}\W*$", re.IGNORECASE),
    re.compile(
        rf"^\W*(?:is|are)\s+([a-z]+ing){_WORDS_AFTER}\s+(?:allowed|permitted)\b", re.IGNORECASE
    ),
)
_ENDS_THE_OBJECT: Final = re.compile(
    r"\b(?:on|for|from|to|in|into|at|with|via|by|during|while|when|if|and|or|without)\b", re.I
)
# Asking someone to do something: what is asked may be done is what they would do.
_ASKING_SOMEONE_TO: Final = re.compile(
    r"\b(?:ask|request|tell|get)\s+(?:you|us|them|someone|the\s+\w+)\s+to\s+", re.IGNORECASE
)
# Verbs too light to say what is done ("make changes", "have a choice").
_LIGHT_VERBS: Final = frozenset(content_terms("make have get do take give be go keep let put see"))


def activity_done(question: str) -> tuple[str, frozenset[str]] | None:
    """The stem of the verb a permission question asks may be done, and the terms of what it
    is done to ("Is it allowed to install software on a company laptop?": install, {software});
    None when it is not such a question or the verb is a light one."""
    if not activity_asked(question):
        return None
    # "Can I ask you to restrict how my information is used?" asks whether it may be restricted.
    question = _ASKING_SOMEONE_TO.sub(" ", question)
    found = next(filter(None, (pattern.search(question) for pattern in _PERMITTED_ACTIVITY)), None)
    verb = content_terms(found.group(1)) if found else []
    if found is None or not verb or verb[0] in _LIGHT_VERBS:
        return None
    done_to = _ENDS_THE_OBJECT.split(found.group(2), maxsplit=1)[0]
    return verb[0], frozenset(content_terms(done_to))


def told_apart_by(activity: set[str], done: tuple[str, frozenset[str]] | None) -> set[str]:
    """What tells the activity a permission question asks about apart from others of its words,
    or nothing: done to nothing ("Can I work from abroad?"), how it is done (abroad); moved by a
    light verb ("Can I take my work laptop abroad?"), where to. "... does not interfere with
    work" says nothing of working abroad, nor "Company laptops use full-disk encryption" of
    taking one abroad. ``activity`` and ``done`` are the question's ``activity_asked`` and
    ``activity_done``."""
    if done is not None:
        return activity - {done[0]} if not done[1] else set()
    return activity & _PLACES


_PLACES: Final = frozenset(content_terms("abroad overseas home offsite outside away"))


def does_the_activity(activity: tuple[str, frozenset[str]], terms: AbstractSet[str]) -> bool:
    """A sentence of these content terms speaks of doing it: the action, and what it is done to
    when the question names it ("share your information" is not sharing an opinion)."""
    verb, done_to = activity
    return names_the_action(verb, terms) and (not done_to or bool(done_to & terms))


def permits_the_activity(activity: tuple[str, frozenset[str]], sentence: str) -> bool:
    """The sentence says whether the action may be done: "Either party may terminate it ..."
    answers "Can Northwind end the supplier contract early?" before "On termination the
    supplier deletes ..." does, which says what follows it; "Alcohol cannot be claimed ..."
    answers whether wine may be claimed."""
    written = [word.lower() for word in written_words(sentence)]
    return any(
        names_the_action(activity[0], content_terms(word))
        and not _MAY_OR_MAY_NOT.isdisjoint(written[max(0, index - 3) : index])
        for index, word in enumerate(written)
    )


# Whether it may be done, either way: "Alcohol cannot be claimed in any circumstances" answers
# whether a glass of wine may be claimed as "may be claimed" would.
_MAY_OR_MAY_NOT: Final = frozenset(
    "may can could allowed permitted entitled right cannot never can't mustn't".split()
)


# "How can I opt out of marketing emails?", "How do I delete my account?": how something is
# done by the one asking. The verb is what an answer must speak of doing.
_HOW_TO: Final = re.compile(
    r"^\W*how\s+(?:can|could|do|does|should|may|might|would)\s+(?:i|we|users?|one|"
    rf"customers?|employees?|someone|a\s+user)\s+{ADVERB}([a-z]+)\b",
    re.IGNORECASE,
)


def method_asked(question: str) -> str | None:
    """The stem of what a "how can I ..." question asks how to do ("How can I opt out of
    marketing emails?": opt), or None: not such a question, or its verb too light to say."""
    found = _HOW_TO.search(question)
    if found is None:
        return None
    terms = content_terms(found.group(1))
    return terms[0] if terms and terms[0] not in _LIGHT_METHODS else None


_LIGHT_METHODS: Final = frozenset(content_terms("make have get do take give be go let put see use"))
