"""Ingestion: a file's bytes to indexed, located chunks, with a status record the API can poll.

Ingesting the same version again changes nothing; a file that cannot be read ends FAILED with
its reason and its original kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from certiq.errors import IngestionError
from certiq.ingestion.chunking import chunk_document
from certiq.ingestion.identity import document_ids
from certiq.ingestion.pdf import parse_pdf
from certiq.models import DocumentRecord, DocumentStatus, SourceRef
from certiq.steps.deps import Deps

PDF_MIME = "application/pdf"


@dataclass(frozen=True)
class Upload:
    """A file to ingest. stored_uri is set when the original already lives in the blob store."""

    data: bytes
    file_name: str
    uri: str
    tenant: str
    stored_uri: str | None = None
    version: str | None = None


def ingest(upload: Upload, deps: Deps) -> DocumentRecord:
    doc_id, sha256, content_version = document_ids(upload.tenant, upload.uri, upload.data)
    version = upload.version or content_version
    existing = deps.documents.get(upload.tenant, doc_id)
    if (
        existing is not None
        and existing.status is DocumentStatus.INDEXED
        and existing.sha256 == sha256
    ):
        return existing

    now = deps.clock.now()
    record = DocumentRecord(
        doc_id=doc_id,
        tenant=upload.tenant,
        file_name=upload.file_name,
        uri=upload.stored_uri or upload.uri,
        mime_type=PDF_MIME,
        sha256=sha256,
        version=version,
        status=DocumentStatus.QUEUED,
        created_at=existing.created_at if existing else now,
        updated_at=now,
    )
    if upload.stored_uri is None:
        # Keep the original before parsing, so even a file that fails is never lost.
        stored = deps.blobs.put(
            f"{upload.tenant}/{doc_id}/{upload.file_name}", upload.data, PDF_MIME
        )
        record = record.model_copy(update={"uri": stored})
    deps.documents.put(record)
    record = _advance(record, deps, status=DocumentStatus.PROCESSING)
    try:
        parsed = parse_pdf(upload.data)
        source = SourceRef(
            type="blob",
            uri=record.uri,
            file_name=upload.file_name,
            mime_type=PDF_MIME,
            sha256=sha256,
            version=version,
        )
        chunks = chunk_document(
            parsed,
            doc_id=doc_id,
            tenant=upload.tenant,
            source=source,
            settings=deps.settings.chunking,
        )
        if not chunks:
            raise IngestionError("no text: the PDF has pages but no sentence could be read")
        deps.index.delete_document(upload.tenant, doc_id)
        deps.index.index(chunks)
    except IngestionError as error:
        return _advance(record, deps, status=DocumentStatus.FAILED, reason=str(error))
    except Exception as error:
        _advance(record, deps, status=DocumentStatus.FAILED, reason=f"internal error: {error!r}")
        raise
    return _advance(
        record, deps, status=DocumentStatus.INDEXED, pages=len(parsed.pages), chunks=len(chunks)
    )


def remove(tenant: str, doc_id: str, deps: Deps) -> DocumentRecord | None:
    """Removes a document's chunks and leaves a tombstone so old answers can say it is gone."""
    record = deps.documents.get(tenant, doc_id)
    deps.index.delete_document(tenant, doc_id)
    if record is None:
        return None
    return _advance(record, deps, status=DocumentStatus.DELETED, chunks=0)


def _advance(
    record: DocumentRecord,
    deps: Deps,
    *,
    status: DocumentStatus,
    reason: str | None = None,
    pages: int | None = None,
    chunks: int | None = None,
) -> DocumentRecord:
    update: dict[str, object] = {"status": status, "reason": reason, "updated_at": deps.clock.now()}
    if pages is not None:
        update["pages"] = pages
    if chunks is not None:
        update["chunks"] = chunks
    advanced = record.model_copy(update=update)
    deps.documents.put(advanced)
    return advanced
