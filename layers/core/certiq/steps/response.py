"""Builds the QAResponse the API returns from a question's state."""

from __future__ import annotations

from certiq.config import PolicySettings
from certiq.guardrails.pii import redact
from certiq.models import (
    AnswerOutcome,
    DocumentStatus,
    EvidenceSpan,
    Excerpt,
    QAResponse,
    QuestionState,
    QuestionStatus,
    RelatedPassage,
    SourceSummary,
)
from certiq.ports import DocumentStore
from certiq.text import content_terms, word_count
from certiq.trust.claims import is_statement
from certiq.trust.policy import statements

RELATED_PASSAGES = 3  # offered when the documents do not state the answer
# A line this long that is not a sentence is a table or a list read as one line, not a heading.
TABLE_WORDS = 12


def searched_untranslated(state: QuestionState) -> bool:
    """The question is in another language than the documents' and was searched as written (no
    translation model): what it finds, or does not, says little about what the documents state."""
    return state.translation is not None and state.translation.note is not None


def reads_as_table(span: EvidenceSpan | RelatedPassage) -> bool:
    """A row of a table, or a line that is not a sentence and is long: a table or a list read
    as one line."""
    return span.cells is not None or (
        not is_statement(span.text) and word_count(span.text) >= TABLE_WORDS
    )


def _row_match(span: EvidenceSpan, query: set[str]) -> int:
    """How many of the question's terms a table's row holds with its labels; 0 when its cells
    hold none of them, or it is not a row."""
    if span.cells is None:
        return 0
    in_cells = query & set(content_terms(span.text))
    if not in_cells:
        return 0
    return len(in_cells | query & set(content_terms(" ".join(c.column for c in span.cells))))


# A passage sharing no word with the question is reading only this close to it in meaning
# (MiniLM cosine); the answerer's own floor is 0.3.
READING_SIMILARITY = 0.4


def related_reading(state: QuestionState, outcome: AnswerOutcome) -> list[RelatedPassage]:
    """The closest passages, offered as reading when nothing states the answer.

    Reading is passages that say something: never a sentence addressing an AI assistant, nor a
    heading or a running header; a table read as one long line is reading (asked for the capital
    of Denmark, the row naming Copenhagen is what a reader wants to see). When the documents do
    not state the answer, a passage must share a word with the question ("Proin eu metus." is
    no reading for it, however it ranked) or be close to it in meaning: "Storage media leaving
    our control, including ... failed disks, are wiped ..." is reading for what to do before
    throwing away an old hard drive (cosine 0.48). A question searched as written in another
    language shares no words with its passages, so its closest are offered as they are.
    """
    query = set(content_terms(state.search.query if state.search else state.question))
    readable = [
        span
        for span in state.evidence
        if not span.addresses_assistant
        and (is_statement(span.text) or reads_as_table(span))
        and (
            outcome is AnswerOutcome.NOT_FOUND_AS_WRITTEN
            or query & set(content_terms(span.text))
            or (span.similarity or 0.0) >= READING_SIMILARITY
        )
    ]
    # A table's row whose cells hold the question's words comes first, the one holding most of
    # them with its header's labels before others: asked who reviews access to the CRM, the
    # CRM's row under "Reviewer", before sentences about reviews in general.
    readable.sort(key=lambda span: _row_match(span, query), reverse=True)
    return [
        RelatedPassage(
            doc_id=span.doc_id,
            file_name=span.file_name,
            page=span.page,
            text=span.text,
            score=span.score,
            cells=span.cells,
            boxes=span.boxes,
        )
        for span in readable[:RELATED_PASSAGES]
    ]


def build_response(
    state: QuestionState,
    status: QuestionStatus,
    documents: DocumentStore,
    policy: PolicySettings,
    message: str | None = None,
) -> QAResponse:
    """Only what the policy lets a user see, and what it withheld and why; sources grouped per
    file, most relevant first.

    A source is a file the shown claims cite: its id, name, source and MIME type, relevance (its
    best excerpt's score) and the excerpts quoted, each with its score, page and chunk index.
    The search metadata (query, modes, chunks searched, threshold) comes with it.
    """
    sentences = statements(state.claims, policy, state.citations)
    shown_ids = {cid for s in sentences if s.shown for cid in s.claim_ids}
    claims = [claim for claim in state.claims if claim.id in shown_ids]
    shown = {cid for claim in claims if claim.decision for cid in claim.decision.evidence}
    # A withheld statement comes with the quotes it was judged on, so a reader sees why.
    quoted = shown | {cid for s in sentences if not s.shown for cid in s.citation_ids}
    citations = [citation for citation in state.citations if citation.id in shown]
    spans = {(span.chunk_id, span.start): span for span in state.evidence}
    sources: dict[str, SourceSummary] = {}
    for citation in citations:
        span = spans[(citation.chunk_id, citation.start)]
        summary = sources.get(citation.doc_id)
        if summary is None:
            record = documents.get(state.tenant, citation.doc_id)
            deleted = record is None or record.status is DocumentStatus.DELETED
            summary = sources[citation.doc_id] = SourceSummary(
                doc_id=citation.doc_id,
                file_name=citation.file_name,
                source_type=span.source_type,
                mime_type=span.mime_type,
                relevance=citation.score,
                excerpts=[],
                status="deleted" if deleted else "available",
            )
        summary.relevance = max(summary.relevance, citation.score)
        summary.excerpts.append(
            Excerpt(
                text=citation.quote,
                page=citation.page,
                chunk_ordinal=span.chunk_ordinal,
                score=citation.score,
            )
        )
    outcome = None
    related: list[RelatedPassage] = []
    if status is QuestionStatus.COMPLETE and shown_ids:
        outcome = AnswerOutcome.ANSWERED
    elif status is QuestionStatus.COMPLETE:
        outcome = (
            AnswerOutcome.NOT_FOUND_AS_WRITTEN
            if searched_untranslated(state)
            else AnswerOutcome.NOT_STATED
        )
    if outcome in (AnswerOutcome.NOT_STATED, AnswerOutcome.NOT_FOUND_AS_WRITTEN):
        related = related_reading(state, outcome)
    return QAResponse(
        question_id=state.question_id,
        status=status,
        question=shown_question(state),
        language=state.shown.language if state.shown else state.language,
        answer=state.shown.answer if state.shown else state.answer,
        message=message,
        outcome=outcome,
        related=related,
        statements=sentences,
        claims=claims,
        citations=[citation for citation in state.citations if citation.id in quoted],
        sources=sorted(sources.values(), key=lambda source: source.relevance, reverse=True),
        search=state.search,
        reused_from=state.reused_from,
        answerer=state.answerer,
        provider_failures=state.provider_failures,
        usage=state.usage,
        certificate_id=state.certificate_id,
        timings_ms=state.timings_ms,
        validation=state.validation,
        redaction=state.redaction,
        translation=state.translation,
        links=state.shown.links if state.shown else [],
    )


def shown_question(state: QuestionState) -> str:
    """The question as asked, never raw: redacted, and before any translation for the search.

    A question that failed before Redact ran is masked here by the pattern detectors.
    """
    if state.redaction is None:
        return redact(state.question).text
    if state.translation is not None and state.translation.question is not None:
        return state.translation.question
    return state.question
