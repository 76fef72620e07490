"""What GET answers show: stored records, with each cited file's status read as it is now.

A QAResponse is frozen when its question completes, but a file it cites can be deleted later:
views recompute SourceSummary.status on read so an old answer shows the file as a tombstone.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from certiq.models import (
    ConversationView,
    DocumentRecord,
    DocumentStatus,
    QAResponse,
    QuestionRecord,
    QuestionView,
)
from certiq.ports import DocumentStore


def document_view(record: DocumentRecord) -> DocumentRecord:
    """The record as a client sees it: where the server keeps a local original is its own
    business, so a file: URI becomes local:<file name>."""
    if not record.uri.startswith("file:"):
        return record
    name = PurePosixPath(unquote(urlparse(record.uri).path)).name
    return record.model_copy(update={"uri": f"local:{name}"})


def with_current_sources(response: QAResponse, tenant: str, documents: DocumentStore) -> QAResponse:
    """The response with each source marked deleted when its document is gone or DELETED."""
    statuses: dict[str, DocumentStatus | None] = {}
    sources = []
    for source in response.sources:
        if source.doc_id not in statuses:
            record = documents.get(tenant, source.doc_id)
            statuses[source.doc_id] = record.status if record else None
        status = statuses[source.doc_id]
        gone = status is None or status is DocumentStatus.DELETED
        current = "deleted" if gone else "available"
        sources.append(
            source if source.status == current else source.model_copy(update={"status": current})
        )
    return response.model_copy(update={"sources": sources})


def question_view(record: QuestionRecord, documents: DocumentStore) -> QuestionView:
    response = record.response
    return QuestionView(
        question_id=record.question_id,
        status=record.status,
        reason=record.reason,
        response=(
            with_current_sources(response, record.tenant, documents)
            if response is not None
            else None
        ),
    )


def conversation_view(
    conversation_id: str, records: list[QuestionRecord], documents: DocumentStore
) -> ConversationView:
    return ConversationView(
        conversation_id=conversation_id,
        questions=[question_view(record, documents) for record in records],
    )
