"""What a sentence's opening pronoun stands for: "They are not paid the first aid allowance."
after "Mental health first aiders are volunteers ..." is about mental health first aiders, and
answers whether they get the allowance. The words are read with the sentence when judging what
it is about; what is shown and quoted is the sentence alone. "It" may be the document too:
"Either party may terminate it ..." in supplier-agreement.pdf terminates the agreement."""

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


def antecedent(sentences: Sequence[Sentence], index: int) -> str | None:
    """The subject of the sentence before ``index``, in the same section, when sentence
    ``index`` opens with a pronoun standing for it; None otherwise."""
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


def standing_for(span: EvidenceSpan) -> set[str]:
    """The terms of what the span's opening pronoun stands for (``antecedent``)."""
    return set(content_terms(span.antecedent)) if span.antecedent else set()


def its_document(span: EvidenceSpan) -> frozenset[str]:
    """The words of the sentence's file name, when the sentence says "it"."""
    return file_name_terms(span.file_name) if _IT.search(span.text) else frozenset()


_IT: Final = re.compile(r"\bit\b", re.IGNORECASE)
