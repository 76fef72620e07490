"""Questions answered by a list of statements, not by the sentence sharing most words: what a
section says ("What are the severity levels?": every line under "2. Severity levels", in the
document's order) and what a document is for ("What is the incident response plan for?": the
statements under its purpose or scope heading). And which evidence sentences may be an answer
at all: statements, never a title, heading, running header, question or pointer elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from certiq.answering.sections import (
    answers_first,
    choose_document,
    document_asked,
    document_named,
    opens_the_document,
    section_asked,
    section_match,
)
from certiq.models import EvidenceSpan
from certiq.text import content_terms
from certiq.trust.claims import field_labels, is_statement

# A question, or a pointer to another part of the document, states nothing itself: "What
# information do we collect?" (a heading written as a question), 'See "How Do We Share Your
# Personal Information?"', "For more information, see the TED.com Terms of Use."
_STATES_NOTHING: Final = re.compile(
    r"^\W*(?:see|please (?:see|refer to|read))\b"
    r"|^\W*for (?:more|further) (?:information|details)\b[^.]*\b(?:see|refer to|visit|read)\b"
    r"|\?\W*$",
    re.IGNORECASE,
)


def section_answering(question: str, evidence: Sequence[EvidenceSpan]) -> list[EvidenceSpan]:
    """Asked what a section says or lists ("What are the severity levels?"), its statements in
    the document's order: the section the question names most completely, the one holding the
    best evidence between equals. Empty when the question asks something else, or no evidence
    sentence states anything under the section it names."""
    asked = section_asked(question)
    if asked is None:
        return []
    sections: dict[tuple[str, str], list[EvidenceSpan]] = {}
    for span in evidence:
        if span.section and section_match(asked, span.section) > 0 and may_answer(span):
            sections.setdefault((span.doc_id, span.section), []).append(span)
    if not sections:
        return []
    best = max(
        sections.values(),
        key=lambda spans: (section_match(asked, spans[0].section), max(s.score for s in spans)),
    )
    return sorted(best, key=lambda span: (span.chunk_ordinal, span.start))


# A document's purpose in a few sentences: more is its body, not what it is for.
_PURPOSE_STATEMENTS: Final = 3


def document_answering(question: str, evidence: Sequence[EvidenceSpan]) -> list[EvidenceSpan]:
    """Asked what a document is about, for or covers, what it says of itself: the statements
    under its purpose, scope or abstract heading, or, when it has none, its opening
    statements, in the document's order, three at most. The document is the one the question
    names by its file name's words ("the incident response plan"), or, named only as "this
    policy", the one holding the best evidence. Empty when the question asks something else,
    names a document none of the evidence is from, or the document's opening is not in the
    evidence."""
    asked = document_asked(question)
    if asked is None or not evidence:
        return []
    # The same choice as span selection's, on the same scores (certiq.retrieval.spans).
    chosen = choose_document(asked, sentences_of(evidence))
    if chosen is None:
        return []
    spans = [
        span
        for span in evidence
        if span.doc_id == chosen and may_answer(span) and not field_labels(span.text)
    ]
    if not spans:
        return []
    in_order = sorted(spans, key=lambda span: (span.chunk_ordinal, span.start))
    opening = [span for span in in_order if answers_first(asked, span.section)] or [
        span for span in in_order if opens_the_document(span.section)
    ]
    if not opening and in_order[0].chunk_ordinal == 0:
        # No heading says what it is for: its first section does ("1. Services: Fabrikam
        # Storage GmbH provides encrypted off-site backup storage ...").
        first = in_order[0]
        opening = [
            span for span in in_order if span.chunk_ordinal == 0 and span.section == first.section
        ]
    return opening[:_PURPOSE_STATEMENTS]


def sentences_of(
    evidence: Sequence[EvidenceSpan],
) -> Iterator[tuple[str, str, list[str], float]]:
    """Each evidence sentence as certiq.answering.sections.choose_document reads it: its
    document's id and file name, its terms and its score."""
    return ((s.doc_id, s.file_name, content_terms(s.text), s.score) for s in evidence)


def names_an_absent_document(question: str, evidence: Sequence[EvidenceSpan]) -> bool:
    """The question asks of a document by a name that neither the file name nor the words of
    any document the evidence is from hold ("the parental leave policy", "the travel
    policy")."""
    named = document_named(question)
    return (
        named is not None
        and bool(evidence)
        and choose_document(named, sentences_of(evidence)) is None
    )


_LIST_GOES_ON: Final = re.compile(r"[;,]\s*(?:and|or)?\s*$")


def may_answer(span: EvidenceSpan) -> bool:
    """A statement that may be given as an answer: not a title, heading or running header, not
    a pointer elsewhere, not a sentence addressing an AI assistant, not a table's row (shown as
    reading, never stated)."""
    # A list item continuing its lead-in may end as the list goes on: "from £250.01 to £1,000:
    # the Regional Operations Manager;" after "... it is approved as follows:".
    text = _LIST_GOES_ON.sub(".", span.text) if span.antecedent else span.text
    return (
        is_statement(text)
        and not _STATES_NOTHING.search(span.text)
        and not span.addresses_assistant
        and span.cells is None
    )
