"""Questions that ask what a section of a document says, or what it lists.

"What are the severity levels?" is answered by what "2. Severity levels" says, all of it, in the
document's order: the SEV1, SEV2 and SEV3 lines, not the one sentence that uses the question's
words most. "What does the legal hold section say?" and "List the retention periods." ask the
same of their sections. A question names a section when the words it asks about (numbers aside)
are the heading's words, or at least half of them ("What are the roles?" names "3. Roles and
responsibilities"); other questions are answered sentence by sentence as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Final

from certiq.models import SearchHit, chunk_id
from certiq.text import content_terms, file_name_terms, heading_terms

_THE: Final = r"(?:(?:the|our|its|their|all(?: the)?|your)\s+)?"
# What the question asks of a section, the words naming it in group "named".
_ASKS_FOR_A_SECTION: Final = (
    # "What are the severity levels?", "Which were the retention periods?"
    re.compile(rf"^(?:what|which)\s+(?:are|were)\s+{_THE}(?P<named>[^?]+?)\s*\??$", re.I),
    # "What roles are there?", "Which retention periods apply?"
    re.compile(
        r"^(?:what|which)\s+(?P<named>[^?]+?)\s+(?:are there|do we have|exist|apply)\s*\??$",
        re.I,
    ),
    # "List the retention periods.", "Name all severity levels"
    re.compile(
        rf"^(?:list|name|show(?: me)?|give(?: me)?)\s+{_THE}(?P<named>[^?.]+?)\s*[.?]?$", re.I
    ),
    # "What does the legal hold section say?", "What is in the roles section?",
    # "Summarise the legal hold section."
    re.compile(
        rf"^(?:what\s+(?:does|do)\s+{_THE}(?P<named>[^?]+?)\s+section\s+"
        r"(?:say|state|cover|contain|set out)"
        rf"|what\s+is\s+in\s+{_THE}(?P<named_in>[^?]+?)\s+section"
        rf"|summari[sz]e\s+{_THE}(?P<named_summary>[^?.]+?)\s+section)\s*[.?]?$",
        re.I,
    ),
    # "What does the section on legal holds say?"
    re.compile(
        r"^what\s+(?:does|do)\s+the\s+section\s+(?:on|about)\s+(?P<named>[^?]+?)\s+"
        r"(?:say|state|cover|contain|set out)\s*\??$",
        re.I,
    ),
)


def section_asked(question: str) -> frozenset[str] | None:
    """The content terms naming the section the question asks about ("severity", "level" of
    "What are the severity levels?"), or None: the question asks something else."""
    for pattern in _ASKS_FOR_A_SECTION:
        match = pattern.match(question.strip())
        if match is None:
            continue
        return heading_terms(next(group for group in match.groups() if group)) or None
    return None


def section_match(asked: frozenset[str], section: str | None) -> float:
    """How completely the asked terms name the section: the share of the heading's terms they
    hold, when they are all the heading's and at least half of them; 0 otherwise."""
    if not section:
        return 0.0
    heading = heading_terms(section)
    if not heading or not asked <= heading or 2 * len(asked) < len(heading):
        return 0.0
    return len(asked) / len(heading)


# "What is the incident response plan about?", "What is the purpose of the data retention
# policy?", "What does the acceptable use policy cover?": what a document is for. Its purpose,
# scope or abstract says so, in its own words, not whichever of its sentences holds most of the
# question's ("The Incident Commander leads the response ..." for what the plan is about).
_ASKS_WHAT_A_DOCUMENT_IS_FOR: Final = (
    re.compile(r"^what(?:\s+is|'s|\u2019s)\s+(?P<named>[^?]+?)\s+(?:about|for)\s*\??$", re.I),
    re.compile(
        r"^what\s+(?:is|was)\s+the\s+(?:purpose|aim|objective|goal|point|subject)\s+of\s+"
        r"(?P<named>[^?]+?)\s*\??$",
        re.I,
    ),
    re.compile(
        r"^(?:summari[sz]e|give\s+(?:me\s+)?(?:a|an)\s+(?:summary|overview)\s+of|what\s+is\s+"
        r"the\s+gist\s+of)\s+(?P<named>[^?.]+?)\s*[.?]?$",
        re.I,
    ),
)
# ... and what it covers: its scope, when it states one.
_ASKS_WHAT_A_DOCUMENT_COVERS: Final = (
    re.compile(r"^what\s+(?:does|do)\s+(?P<named>[^?]+?)\s+(?:cover|apply to)\s*\??$", re.I),
    re.compile(r"^what\s+is\s+the\s+scope\s+of\s+(?P<named>[^?]+?)\s*\??$", re.I),
)
# Words that name a document as a document: "the multicolumn paper", "this policy".
_DOCUMENT_WORDS: Final = frozenset(
    heading_terms(
        "document policy plan agreement contract paper report notice terms guide manual "
        "handbook procedure standard article study file pdf charter statement"
    )
)
# Headings under which a document says what it is for, and what it covers.
_PURPOSE_HEADINGS: Final = frozenset(
    heading_terms(
        "purpose abstract introduction overview summary aim aims objective objectives "
        "background about"
    )
)
_SCOPE_HEADINGS: Final = frozenset(heading_terms("scope coverage applicability"))


@dataclass(frozen=True)
class DocumentAsked:
    """A question asking what a document is for or covers."""

    named: frozenset[str]  # the words naming the document: incident, response, plan
    headings: frozenset[str]  # the headings that answer first: its purpose, or its scope


def document_asked(question: str) -> DocumentAsked | None:
    """What a question asking what a document is about, for or covers asks ("incident",
    "response", "plan" of "What is the incident response plan about?", answered first under a
    purpose heading), or None: the question asks something else ("What is the purpose of the
    legal hold?" names no document)."""
    return _document_in(question, _ASKS_WHAT_A_DOCUMENT_COVERS, _SCOPE_HEADINGS) or _document_in(
        question, _ASKS_WHAT_A_DOCUMENT_IS_FOR, _PURPOSE_HEADINGS
    )


def _document_in(
    question: str, patterns: Sequence[re.Pattern[str]], headings: frozenset[str]
) -> DocumentAsked | None:
    """The document the first of ``patterns`` to match names, when its words include one
    saying it is a document."""
    for pattern in patterns:
        match = pattern.match(question.strip())
        if match is None:
            continue
        named = heading_terms(match.group("named"))
        if named & _DOCUMENT_WORDS:
            return DocumentAsked(named, headings)
    return None


# "What is the company's parental leave policy?", "What does the travel policy say about
# expenses?", "Is there a travel policy?": a document asked of by its name, whatever is asked of
# it. When no document at hand is the one named, the documents do not state what it says.
_ASKS_OF_A_DOCUMENT: Final = (
    re.compile(
        r"^what\s+(?:is|are)\s+(?:the|our|your|its|their)\s+(?:[\w-]+['\u2019]s\s+)?"
        r"(?P<named>[^?]*?\b(?:policy|policies|plan|agreement|contract|handbook|procedure|"
        r"guidelines|manual))\s*\??$",
        re.I,
    ),
    re.compile(
        r"^what\s+(?:does|do)\s+(?:the|our|your|its|their)\s+(?:[\w-]+['\u2019]s\s+)?"
        r"(?P<named>[^?]+?)\s+say(?:\s+about\s+[^?]+)?\s*\??$",
        re.I,
    ),
    # "Is there a bring-your-own-device policy?", "Do we have a travel policy?"
    re.compile(
        r"^(?:(?:is|are)\s+there|(?:do|does)\s+(?:we|you|the\s+company|[\w-]+)\s+have)\s+"
        r"(?:an?|any)\s+(?P<named>[^?]*?\b(?:policy|policies|plan|agreement|contract|handbook|"
        r"procedure|guidelines|manual))\s*\??$",
        re.I,
    ),
)


def document_named(question: str) -> DocumentAsked | None:
    """The document a question asks of by name: what it is about or covers (document_asked),
    or what it says or is ("What is the company's parental leave policy?": parental, leave,
    policy); None when it names no document."""
    return document_asked(question) or _document_in(
        question, _ASKS_OF_A_DOCUMENT, _PURPOSE_HEADINGS
    )


def names_the_document(
    asked: DocumentAsked, file_name: str, terms: AbstractSet[str]
) -> tuple[int, int] | None:
    """How well a document is the one asked of: how many of the words naming it (beyond the
    word saying it is a document) its file name holds, then how many its text (``terms``)
    does. "The incident response plan" is incident-response-plan.pdf (2, ...); "this privacy
    policy" is walmart-com.pdf, whose text speaks of privacy (0, 1); "this policy" any policy
    (0, 0). None when it is not: "the travel policy" is not data-retention-policy.pdf, which
    never says "travel"."""
    specific = asked.named - _DOCUMENT_WORDS
    in_name = len(specific & file_name_terms(file_name))
    in_text = len(specific & terms)
    if specific and not in_name and in_text < len(specific):
        return None
    return in_name, in_text


def choose_document(
    asked: DocumentAsked, sentences: Iterable[tuple[str, str, Iterable[str], float]]
) -> str | None:
    """The document asked of, among those the ``sentences`` are from (each: its document's id
    and file name, its terms, its score): the one named best, then the one holding the best
    sentence; None when none is the one asked of."""
    documents: dict[str, tuple[str, set[str], float]] = {}
    for doc_id, file_name, terms, score in sentences:
        _, held, best = documents.setdefault(doc_id, (file_name, set(), score))
        held.update(terms)
        documents[doc_id] = (file_name, held, max(best, score))
    named = {
        doc_id: (naming, best)
        for doc_id, (file_name, terms, best) in documents.items()
        if (naming := names_the_document(asked, file_name, terms)) is not None
    }
    return max(named, key=lambda doc_id: named[doc_id], default=None)


def opens_the_document(section: str | None) -> bool:
    """A sentence under a heading such as "1. Purpose and scope", "2. Scope" or "Abstract"."""
    return bool(section) and not heading_terms(section or "").isdisjoint(
        _PURPOSE_HEADINGS | _SCOPE_HEADINGS
    )


def answers_first(asked: DocumentAsked, section: str | None) -> bool:
    """A sentence under the heading the question asks of: "2. Scope" for what a policy covers."""
    return bool(section) and not heading_terms(section or "").isdisjoint(asked.headings)


def document_openings(question: str, hits: Sequence[SearchHit]) -> list[str]:
    """The ids of the first chunks of the documents a question asking what a document is for
    may mean, among those the hits are from, when the hits lack them: a document says what it
    is at its start, which a search for the question's words need not find ("What is this
    privacy policy about?" finds the sentences that say "privacy policy" further on)."""
    asked = document_asked(question)
    if asked is None:
        return []
    terms: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for hit in hits:
        terms.setdefault(hit.chunk.doc_id, set()).update(content_terms(hit.chunk.text))
        names[hit.chunk.doc_id] = hit.chunk.source.file_name
    present = {hit.chunk.chunk_id for hit in hits}
    wanted = (
        chunk_id(doc_id, 0)
        for doc_id, file_name in names.items()
        if names_the_document(asked, file_name, terms[doc_id]) is not None
    )
    return [chunk for chunk in wanted if chunk not in present]


# A document named by what it is about and what it is: "the password policy", "our incident
# response plan", "the visitor and site access procedure". One to four words between the
# determiner and the kind.
_NAMED_DOCUMENT = re.compile(
    r"\b(?:the|our|your|its) ((?:[\w-]+ ){1,4})"
    r"(policy|plan|agreement|procedure|standard|handbook|contract)\b",
    re.IGNORECASE,
)


def says_what_it_is(file_name: str) -> bool:
    """The document's file name names its kind: hybrid-working-policy.pdf is a policy, while
    PolicyQA's ted-com.pdf says nothing of what it is."""
    return not _DOCUMENT_WORDS.isdisjoint(file_name_terms(file_name))


def named_document(question: str) -> frozenset[str] | None:
    """The terms naming the document the question asks of, its kind aside: {password} for "Who
    approves exceptions to the password policy?"; None when it names none."""
    match = _NAMED_DOCUMENT.search(question)
    if match is None:
        return None
    return frozenset(content_terms(match.group(1))) or None
