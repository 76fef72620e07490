"""Questions that ask what a section says or lists: which section they name, and the answer."""

from __future__ import annotations

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.sections import section_asked, section_match
from certiq.config import AnswerSettings, RetrievalSettings
from certiq.models import Chunk, EvidenceSpan, SearchHit
from certiq.retrieval.spans import select_spans
from certiq.text import heading_terms
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
