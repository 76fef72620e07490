"""What a sentence's opening pronoun stands for: "They are not paid the first aid allowance."
after "Mental health first aiders are volunteers ..." is about mental health first aiders, and
answers whether they get the allowance. The words are read with the sentence when judging what
it is about; what is shown and quoted is the sentence alone. "It" may be the document too:
"Either party may terminate it ..." in supplier-agreement.pdf terminates the agreement.

A list item continues the sentence that leads into it: "above £1,000: the Clinical Director
together with the Finance Director." after "Where a refund is agreed, it is approved as
follows:" says who approves a refund."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from certiq.models import EvidenceSpan, Sentence
from certiq.text import content_terms, file_name_terms, word_count

# A pronoun opening the sentence, after a short phrase of place or time at most ("Outdoors,
# they may be flown only with ..."), and before its verb: "This policy applies ..." opens with
# a determiner, not a pronoun.
_OPENING_PRONOUN: Final = re.compile(
    r"^\W*(?:[A-Z][\w-]*(?:\s+[\w-]+){0,2},\s+)?(?:they|these|those|it)\s+(?:(?:also|only|then|"
    r"still|usually|normally|never|not)\s+)?(?:are|is|were|was|must|may|can|cannot|can't|should|"
    r"will|shall|would|could|might|need|needs|have|has|do|does|receive|receives|get|gets)\b",
    re.IGNORECASE,
)
# The subject of the sentence before: its words up to its first verb of these.
_SUBJECT_ENDS: Final = re.compile(
    r"\s(?:is|are|was|were|may|must|can|cannot|can't|should|will|shall|would|could|might|need|"
    r"needs|has|have|do|does)\b",
    re.IGNORECASE,
)
# A clause of condition or time is no subject: "If a device is lost, ...".
_SUBORDINATE: Final = re.compile(
    r"^\W*(?:if|when|where|whenever|unless|although|though|while|whilst|before|after|once|"
    r"as|because|since|until|for|in|on|at|during)\b",
    re.IGNORECASE,
)
_LONGEST_SUBJECT: Final = 8  # words
# A list item opens in lower case ("up to £250: the Practice Manager;"); its lead-in ends with
# a colon. Lists longer than this are read without one: a lead-in far above is another topic.
_LIST_ITEM: Final = re.compile(r"^\W*[a-z£$€\d]")
_LONGEST_LIST: Final = 12  # items
_LONGEST_LEAD_IN: Final = 30  # words


def antecedent(sentences: Sequence[Sentence], index: int) -> str | None:
    """What sentence ``index`` continues, in the same section: the subject of the sentence
    before when it opens with a pronoun standing for it, or the lead-in of the list it is an
    item of; None otherwise."""
    lead_in = _lead_in(sentences, index)
    if lead_in is not None:
        return lead_in
    if index <= 0 or not _OPENING_PRONOUN.match(sentences[index].text):
        return None
    previous = sentences[index - 1]
    if previous.section != sentences[index].section or _SUBORDINATE.match(previous.text):
        return None
    verb = _SUBJECT_ENDS.search(previous.text)
    if verb is None:
        return None
    subject = previous.text[: verb.start()].strip()
    if word_count(subject) > _LONGEST_SUBJECT or not content_terms(subject):
        return None
    return subject


def _lead_in(sentences: Sequence[Sentence], index: int) -> str | None:
    """The sentence ending in a colon that the list item ``index`` follows, over the items
    before it."""
    if not _LIST_ITEM.match(sentences[index].text):
        return None
    section = sentences[index].section
    for before in range(index - 1, max(index - 1 - _LONGEST_LIST, -1), -1):
        text = sentences[before].text.strip()
        if sentences[before].section != section:
            return None
        if text.endswith(":"):
            return text if word_count(text) <= _LONGEST_LEAD_IN else None
        if not _LIST_ITEM.match(text):
            return None
    return None


def standing_for(span: EvidenceSpan) -> set[str]:
    """The terms of what the span's opening pronoun stands for (``antecedent``)."""
    return set(content_terms(span.antecedent)) if span.antecedent else set()


def its_document(span: EvidenceSpan) -> frozenset[str]:
    """The words of the sentence's file name, when the sentence says "it"."""
    return file_name_terms(span.file_name) if _IT.search(span.text) else frozenset()


_IT: Final = re.compile(r"\bit\b", re.IGNORECASE)
