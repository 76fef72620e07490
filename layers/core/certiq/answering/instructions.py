"""Questions asking what to do, and what happens when something is done.

"What should I do if I lose my laptop?" asks for an instruction, which a rule states with an
obligation ("A lost or stolen device must be reported ..."). "What happens when a legal hold is
placed?" is answered by what the legal hold does ("A legal hold suspends deletion ..."), and
"What happens if I break the policy?" by a consequence ("Violations ... may lead to disciplinary
action").
"""

from __future__ import annotations

import re
from typing import Final

from certiq.text import content_terms

# "What happens when a legal hold is placed?": what the thing asked about does once it is.
_WHAT_HAPPENS: Final = re.compile(
    r"^\W*what\s+happens\s+(?:when|if|once|after)\s+(?:an?|the|my|our|your|this)?\s*"
    r"(?P<subject>[\w\s-]+?)\s+(?:is|are|was|were|gets?|has|have|becomes?)\b",
    re.IGNORECASE,
)
# "What happens if I break the policy?": what follows what someone does is a consequence.
_WHAT_HAPPENS_IF_DONE: Final = re.compile(
    r"^\W*what\s+happens\s+(?:when|if|once|after)\s+(?:I|you|we|they|someone|somebody|anyone"
    r"|(?:an?|the)\s+(?:employee|user|contractor|supplier|customer|member of staff))\s",
    re.IGNORECASE,
)
_CONSEQUENCE: Final = re.compile(
    r"\b(?:lead|leads|led|result|results)\s+(?:to|in)\b|\bsubject\s+to\b|\bconsequences?\b",
    re.IGNORECASE,
)
_DETERMINER: Final = re.compile(r"^\W*(?:an?|the|this|that|each|every|any)\s+", re.IGNORECASE)


# "What should I do if I lose my laptop?", "What does the supplier have to do if ...?" ask for
# an instruction, which a rule states with an
# obligation: "A lost or stolen device must be reported ...", not "Company laptops use full-disk
# encryption ...", which holds the question's word as well.
_SOMEONE: Final = r"(?:the|each|every|our|a|an)\s+(?:[\w-]+\s+){0,2}?[\w-]+"
_ASKS_WHAT_TO_DO: Final = re.compile(
    r"^\W*what\s+(?:(?:should|must|do|shall|have)\s+(?:I|we|you|employees|staff|users?)\s+"
    rf"(?:(?:have|need)\s+)?(?:to\s+)?|(?:should|must|shall)\s+{_SOMEONE}\s+"
    rf"|(?:does|do)\s+{_SOMEONE}\s+(?:have|has|need|needs)\s+to\s+)do\b",
    re.IGNORECASE,
)
_OBLIGATION: Final = re.compile(
    r"\b(?:must|should|shall|required|(?:need|needs|has|have) to|(?:is|are) to)\b", re.IGNORECASE
)


def asks_what_to_do(question: str) -> bool:
    """An instruction is asked for: "What should I do if ...?", "What must we do ...?"."""
    return _ASKS_WHAT_TO_DO.search(question) is not None


def states_an_obligation(sentence: str) -> bool:
    """The sentence says what must be done ("must", "is required", "has to")."""
    return _OBLIGATION.search(sentence) is not None


def tells_what_follows(question: str, sentence: str) -> bool:
    """The question asks what happens when something is done, and the sentence opens with that
    thing as its subject: "A legal hold suspends deletion ..." answers "What happens when a
    legal hold is placed?", which the sentences saying when one is placed, sharing more of its
    words, do not. Asked what happens when someone does something, the sentence states a
    consequence: "Violations of this policy may lead to ... disciplinary action" answers "What
    happens if I break the acceptable use policy?"; "... does not interfere with work, break
    the law ..." does not."""
    if _WHAT_HAPPENS_IF_DONE.search(question):
        return _CONSEQUENCE.search(sentence) is not None
    found = _WHAT_HAPPENS.search(question)
    if found is None:
        return False
    subject = content_terms(found.group("subject"))
    opening = content_terms(_DETERMINER.sub("", sentence, count=1))[: len(subject)]
    return bool(subject) and opening == subject
