"""What a sentence holds of a question, and the lines that answer it whole: a header field
whose label the question asks about ("Owner: Chief Information Security Officer." for who owns
the plan), or the line defining what is asked ("SEV1: confirmed breach of customer data, ...").
"""

from __future__ import annotations

from collections.abc import Sequence

from certiq.answering.answer_types import asks_what_it_is, defined_term
from certiq.models import EvidenceSpan
from certiq.text import content_terms, file_name_terms, section_terms
from certiq.trust.claims import field_labels


def held_terms(
    span: EvidenceSpan, terms: set[str], query: set[str], *, in_section: bool = True
) -> set[str]:
    """The question's terms the sentence holds, read in its document and its section: "This
    policy is reviewed every 12 months" in data-retention-policy.pdf is about the data retention
    policy, "System owners must confirm within 2 business days ..." under "6. Legal hold" about
    legal holds."""
    section = section_terms(span.section, query) if in_section else frozenset()
    return (terms | file_name_terms(span.file_name) | section) & query


# The words asking what something is, not what it is about.
_ASKING_WHAT = frozenset(content_terms("count counts mean means define"))
# A field's label is asked about in other words too: an owner is who is responsible for it.
_LABEL_SYNONYMS = {"own": frozenset(content_terms("responsible accountable charge"))}


def asks_about_label(label: str, query: set[str]) -> bool:
    """The question asks about what the field's label names, in its words or a synonym's."""
    terms = set(content_terms(label))
    asked = terms.union(*(_LABEL_SYNONYMS.get(term, ()) for term in terms))
    return bool(asked & query)


def not_another_field(text: str, query: set[str]) -> bool:
    """False for a header field whose label the question does not ask about: "Owner: Data
    Protection Officer." is no answer to "Where is the company's data centre located?", though a
    line that short tops any ranking on the one word it shares with the question."""
    labels = field_labels(text)
    return not labels or any(asks_about_label(label, query) for label in labels)


def field_answering(
    ranked: Sequence[tuple[EvidenceSpan, set[str]]], query: set[str]
) -> EvidenceSpan | None:
    """A header field whose label the question asks about ("Owner: Chief Information Security
    Officer." for "Who owns the incident response plan?", "Version 1.4." for "What version of
    the acceptable use policy is current?"), holding as many of the question's terms as any
    other sentence does: the document declares the answer, and it is the whole answer. None when
    no field does: "Who owns the incident timeline?" is about the timeline, not the plan, and
    "What must system owners do?" about owners of systems, not of a policy ("Each system owner
    must keep ..." holds more of it than "Owner: Head of IT Operations.")."""
    best = max(
        (
            len(held_terms(span, terms, query))
            for span, terms in ranked
            if not field_labels(span.text)
        ),
        default=0,
    )
    for span, terms in ranked:
        if not any(asks_about_label(label, query) for label in field_labels(span.text)):
            continue
        if len(held_terms(span, terms, query)) >= best:
            return span
    return None


def definition_answering(
    question: str, ranked: Sequence[tuple[EvidenceSpan, set[str]]], query: set[str]
) -> EvidenceSpan | None:
    """Asked what something is, the line defining it ("SEV1: confirmed breach of customer data,
    ..." for "What counts as a SEV1 incident?"), when it holds every term of the question: it
    is the whole answer, where sentences that merely mention SEV1 score as high. None when no
    line defines what is asked."""
    if not asks_what_it_is(question):
        return None
    asked = query - _ASKING_WHAT
    for span, terms in ranked:
        term = defined_term(span.text)
        if term and set(content_terms(term)) <= asked <= held_terms(span, terms, query):
            return span
    return None
