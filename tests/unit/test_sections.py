"""Questions that ask what a section says or lists: which section they name, and the answer."""

from __future__ import annotations

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.sections import (
    document_asked,
    document_named,
    names_the_document,
    section_asked,
    section_match,
)
from certiq.config import AnswerSettings, RetrievalSettings
from certiq.models import Chunk, EvidenceSpan, SearchHit
from certiq.retrieval.spans import select_spans
from certiq.text import content_terms, heading_terms
from tests.fakes import make_chunk

SEVERITY = "2. Severity levels"
ROLES = "3. Roles and responsibilities"


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What are the severity levels?", "severity levels"),
        ("Which were the retention periods?", "retention periods"),
        ("What roles are there?", "roles"),
        ("Which retention periods apply?", "retention periods"),
        ("List the retention periods.", "retention periods"),
        ("Name all severity levels", "severity levels"),
        ("What does the legal hold section say?", "legal hold"),
        ("What is in the roles section?", "roles"),
        ("Summarise the legal hold section.", "legal hold"),
        ("What does the section on legal holds say?", "legal holds"),
    ],
)
def test_a_question_asking_what_a_section_lists_names_its_terms(question: str, named: str) -> None:
    # GIVEN a question asking for what a section says or lists / WHEN it is read
    # THEN the words naming the section are what it asks about
    assert section_asked(question) == heading_terms(named)


@pytest.mark.parametrize(
    "question",
    [
        "How long are backups of customer data kept?",
        "What is the severity of a full outage?",
        "Who owns the incident response plan?",
        "Can employees bring their dogs to the office?",
    ],
)
def test_a_question_asking_something_else_names_no_section(question: str) -> None:
    # GIVEN a question asking for one fact / WHEN it is read / THEN it names no section
    assert section_asked(question) is None


def test_a_section_is_named_by_all_or_at_least_half_of_its_headings_words() -> None:
    # GIVEN what two questions ask about
    levels = heading_terms("severity levels")
    roles = heading_terms("roles")
    # WHEN matched against headings / THEN the whole heading matches best, half still matches
    assert section_match(levels, SEVERITY) == 1.0
    assert section_match(roles, ROLES) == 0.5
    # AND a heading lacking an asked word, or only a third named, or none, does not match
    assert section_match(levels, "4. Retention periods") == 0.0
    assert section_match(roles, "5. Roles, duties and escalation") == 0.0
    assert section_match(levels, None) == 0.0


def sectioned(doc_id: str, *lines: tuple[str | None, str], ordinal: int = 0) -> Chunk:
    """A chunk whose sentences sit under the headings given."""
    chunk = make_chunk(". ".join(text for _, text in lines), doc_id=doc_id, ordinal=ordinal)
    return chunk.model_copy(
        update={
            "sentences": [
                sentence.model_copy(update={"section": section})
                for sentence, (section, _) in zip(chunk.sentences, lines, strict=True)
            ]
        }
    )


PLAN = sectioned(
    "plan",
    (None, "Incident Response Plan"),
    (SEVERITY, "Every incident is given a severity when it is declared"),
    (SEVERITY, "SEV1: confirmed breach of customer data, or a full outage"),
    (SEVERITY, "SEV2: suspected breach, or degradation affecting more than 10% of customers"),
    (SEVERITY, "SEV3: a contained issue with no customer impact, handled in business hours"),
    (ROLES, "The Incident Commander leads the response and decides on containment steps"),
    (ROLES, "The Communications Lead drafts all customer and public statements"),
)


def evidence_for(question: str, *chunks: Chunk, max_spans: int = 2) -> list[EvidenceSpan]:
    hits = [SearchHit(chunk=chunk, score=1.0) for chunk in chunks]
    return select_spans(question, hits, max_spans, settings=RetrievalSettings())


def test_asked_what_a_section_lists_all_its_statements_are_evidence_beyond_max_spans() -> None:
    # GIVEN the plan, and room for two evidence sentences
    # WHEN asked what the severity levels are
    spans = evidence_for("What are the severity levels?", PLAN, max_spans=2)
    # THEN every sentence of the section is evidence, SEV3 too, though it holds no asked word
    texts = {span.text for span in spans}
    assert {sentence.text for sentence in PLAN.sentences[1:5]} <= texts


def test_asked_what_a_section_lists_the_answer_is_its_statements_in_the_documents_order() -> None:
    # GIVEN the section's sentences as evidence, scored out of the document's order, and a
    # sentence of another section scored above them all
    spans = evidence_for("What are the severity levels?", PLAN, max_spans=2)
    rescored = [
        span.model_copy(update={"score": 0.9 if span.section == ROLES else 0.1 * (5 - n)})
        for n, span in enumerate(spans)
    ]
    # WHEN the offline answerer drafts the answer
    draft = ExtractiveAnswerer(AnswerSettings()).select("What are the severity levels?", rescored)
    # THEN it is the section's statements, in the order the document writes them
    assert [sentence.text for sentence in draft] == [s.text for s in PLAN.sentences[1:5]]


def test_the_section_named_most_completely_answers() -> None:
    # GIVEN two documents, one with a section named by every asked word, one by half of them
    levels = sectioned(
        "levels", ("5. Service levels", "Support answers within 4 hours on working days")
    )
    # WHEN asked what the severity levels are
    spans = evidence_for("What are the severity levels?", levels, PLAN, max_spans=12)
    draft = ExtractiveAnswerer(AnswerSettings()).select("What are the severity levels?", spans)
    # THEN the section the question names in full answers, not the service levels
    assert draft and all("SEV" in s.text or "severity" in s.text for s in draft)


def test_a_question_naming_no_section_is_answered_sentence_by_sentence() -> None:
    # GIVEN the plan / WHEN asked one fact of a section
    question = "Who drafts public statements?"
    spans = evidence_for(question, PLAN, max_spans=12)
    draft = ExtractiveAnswerer(AnswerSettings()).select(question, spans)
    # THEN the sentence stating it answers, not its whole section
    assert [s.text for s in draft] == [
        "The Communications Lead drafts all customer and public statements"
    ]


@pytest.mark.parametrize(
    ("question", "named", "headings"),
    [
        ("What is the incident response plan about?", "incident response plan", "purpose"),
        ("What is the purpose of the data retention policy?", "data retention policy", "purpose"),
        ("What is the supplier agreement for?", "supplier agreement", "purpose"),
        ("Summarise the acceptable use policy.", "acceptable use policy", "purpose"),
        ("Give me an overview of this paper", "paper", "purpose"),
        ("What does the acceptable use policy cover?", "acceptable use policy", "scope"),
        ("What is the scope of the data retention policy?", "data retention policy", "scope"),
    ],
)
def test_a_question_asking_what_a_document_is_for_names_it(
    question: str, named: str, headings: str
) -> None:
    # GIVEN a question asking what a document is about, for or covers / WHEN it is read
    asked = document_asked(question)
    # THEN it names the document, and the heading that answers it first
    assert asked is not None
    assert asked.named == heading_terms(named)
    assert heading_terms(headings) <= asked.headings


@pytest.mark.parametrize(
    "question",
    [
        "What is the purpose of the legal hold?",  # a thing, not a document
        "What is a legal hold for?",
        "What are the severity levels?",
        "Who does the data retention policy apply to?",  # who, answered sentence by sentence
    ],
)
def test_a_question_asking_of_something_else_names_no_document(question: str) -> None:
    assert document_asked(question) is None


def titled(doc_id: str, file_name: str, *lines: tuple[str | None, str], ordinal: int = 0) -> Chunk:
    """A chunk of a file, its sentences under the headings given."""
    chunk = sectioned(doc_id, *lines, ordinal=ordinal)
    return chunk.model_copy(
        update={"source": chunk.source.model_copy(update={"file_name": file_name})}
    )


RESPONSE_PLAN = titled(
    "irp",
    "incident-response-plan.pdf",
    (None, "Incident Response Plan"),
    ("1. Purpose", "This plan describes how the company detects and recovers from incidents."),
    ("1. Purpose", "It covers every system that stores customer data."),
    ("2. Roles", "The Incident Commander leads the response and owns the incident timeline."),
    ("2. Roles", "The Communications Lead drafts all public statements about an incident."),
)
RETENTION = titled(
    "drp",
    "data-retention-policy.pdf",
    (None, "Data Retention Policy"),
    ("1. Purpose", "This policy sets out how long the company keeps the information it holds."),
    ("2. Scope", "This policy covers all personal and business data the company processes."),
    ("3. Periods", "Backups are kept for 35 days and then deleted."),
)
AGREEMENT = titled(
    "sup",
    "supplier-agreement.pdf",
    (None, "Supplier Agreement"),
    ("1. Services", "Fabrikam provides encrypted off-site backup storage."),
    ("2. Incidents", "The supplier reports any security incident within 24 hours."),
)


def answer(question: str, *chunks: Chunk) -> list[str]:
    spans = evidence_for(question, *chunks, max_spans=2)
    return [s.text for s in ExtractiveAnswerer(AnswerSettings()).select(question, spans)]


def test_asked_what_a_document_is_about_its_purpose_answers_in_its_own_order() -> None:
    # GIVEN two documents, and room for two evidence sentences, which the roles would take
    # WHEN asked what the incident response plan is about
    shown = answer("What is the incident response plan about?", RESPONSE_PLAN, RETENTION)
    # THEN its purpose answers, as the plan writes it, not the sentences holding "incident"
    assert shown == [s.text for s in RESPONSE_PLAN.sentences[1:3]]


def test_asked_what_a_document_covers_its_scope_answers_first() -> None:
    # WHEN asked what the retention policy covers / THEN its scope answers, not its purpose
    shown = answer("What does the data retention policy cover?", RESPONSE_PLAN, RETENTION)
    assert shown == ["This policy covers all personal and business data the company processes."]


def test_a_document_with_no_purpose_heading_is_told_by_its_first_section() -> None:
    # WHEN asked what the supplier agreement is about / THEN its first section answers
    shown = answer("What is the supplier agreement about?", AGREEMENT, RETENTION)
    assert shown == ["Fabrikam provides encrypted off-site backup storage."]


def test_a_document_none_of_the_evidence_is_from_is_not_answered_with_another_s_purpose() -> None:
    # WHEN asked what a document the collection does not hold is about
    shown = answer("What is the travel policy about?", RESPONSE_PLAN, AGREEMENT)
    # THEN no other document's purpose is given for it
    assert "This plan describes how the company detects and recovers from incidents." not in shown


@pytest.mark.parametrize(
    ("question", "file_name", "text", "naming"),
    [
        ("What is the incident response plan about?", "incident-response-plan.pdf", "", (2, 0)),
        ("What is this privacy policy about?", "walmart-com.pdf", "our privacy policy", (0, 1)),
        ("What is this policy about?", "data-retention-policy.pdf", "", (0, 0)),
        ("What is the travel policy about?", "data-retention-policy.pdf", "backups", None),
    ],
)
def test_a_document_is_named_by_its_file_name_or_its_own_words(
    question: str, file_name: str, text: str, naming: tuple[int, int] | None
) -> None:
    asked = document_asked(question)
    assert asked is not None
    assert names_the_document(asked, file_name, frozenset(content_terms(text))) == naming


def test_a_document_asked_of_by_a_name_no_document_holds_is_not_stated() -> None:
    # GIVEN the retention policy, one of whose sentences says "leave" in another sense
    retention = titled(
        "drp",
        "data-retention-policy.pdf",
        ("1. Purpose", "Keeping data too briefly can leave us unable to meet audit duties."),
        ("2. Scope", "This policy covers all personal data the company processes."),
    )
    answerer = ExtractiveAnswerer(AnswerSettings())
    # WHEN asked what a policy no document is says / THEN the documents do not state it
    for question in (
        "What is the company's parental leave policy?",
        "What does the travel policy say about expenses?",
        "Is there a bring-your-own-device policy?",
    ):
        assert answerer.select(question, evidence_for(question, retention)) == []
    # AND a policy named by words its text holds is answered
    question = "What is the company's data policy?"
    assert answerer.select(question, evidence_for(question, retention))


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What is the company's parental leave policy?", "parental leave policy"),
        ("What does the travel policy say about expenses?", "travel policy"),
        ("Is there a bring-your-own-device policy?", "bring-your-own-device policy"),
        ("Do we have a travel policy?", "travel policy"),
        ("What is the incident response plan about?", "incident response plan"),
        ("What is the retention policy for invoices?", None),  # asks of invoices
        ("What does the legal hold section say?", None),  # a section, not a document
    ],
)
def test_a_question_names_the_document_it_asks_of(question: str, named: str | None) -> None:
    asked = document_named(question)
    assert (asked.named if asked else None) == (heading_terms(named) if named else None)
