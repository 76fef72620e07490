"""Ingestion: a file's bytes to indexed, located chunks, with a status record the API can poll.

The record goes QUEUED -> PROCESSING -> INDEXED (pages, chunks) or FAILED (reason). Ingesting the
same content again changes nothing; a file that cannot be read ends FAILED with its reason and
its original kept; a FAILED document has no chunks in the index.

Long documents are parsed, chunked, embedded and indexed settings.chunking.page_batch pages at a
time (certiq.ingestion.chunking.chunk_pdf), so memory stays bounded whatever their length; chunk
ids are the same as from a single pass.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import TypeGuard

from certiq.deps import Deps
from certiq.errors import DuplicateContent, IngestionError, TransientError
from certiq.ingestion.chunking import chunk_pdf
from certiq.ingestion.identity import document_ids
from certiq.ingestion.pdf import PageOcr
from certiq.models import (
    Chunk,
    DocumentRecord,
    DocumentStatus,
    DoubtfulPage,
    OcrPage,
    RecheckRequest,
    SkippedPage,
    SourceRef,
)
from certiq.ports import Embedder

logger = logging.getLogger(__name__)

PDF_MIME = "application/pdf"
# Documents that hold their content: a new name for the same bytes is not indexed again.
LIVE = frozenset({DocumentStatus.QUEUED, DocumentStatus.PROCESSING, DocumentStatus.INDEXED})


@dataclass(frozen=True)
class Upload:
    """A file to ingest. stored_uri is set when the original already lives in the blob store."""

    data: bytes
    file_name: str
    uri: str
    tenant: str
    stored_uri: str | None = None
    version: str | None = None
    collection: str | None = None  # a named subset of the tenant's documents
    sequencer: str | None = None  # s3.object.sequencer of the S3 event this upload comes from
    doc_id: str | None = None  # a stored document ingested again (retry): its id is kept


def queued(upload: Upload, deps: Deps) -> DocumentRecord:
    """The QUEUED record an upload starts as, not yet stored; the stored one when its content
    is indexed already (then ingest changes nothing). Raises DuplicateContent when the same
    bytes are another document of the collection."""
    doc_id, sha256, content_version = document_ids(upload.tenant, upload.uri, upload.data)
    doc_id = upload.doc_id or doc_id
    existing = deps.documents.get(upload.tenant, doc_id)
    if already_indexed(existing, sha256):
        if upload.sequencer is None or upload.sequencer == existing.sequencer:
            return existing
        # The same bytes under a later event: the record now stands for that event, so an
        # event between the two (other bytes, arriving late) is recognised as older.
        advanced = existing.model_copy(update={"sequencer": upload.sequencer})
        deps.documents.put_if_sequencer_before(advanced, upload.sequencer)
        return advanced
    original = same_content(upload.tenant, upload.collection, doc_id, sha256, deps)
    if original is not None:
        raise DuplicateContent(original.doc_id, original.file_name)
    now = deps.clock.now()
    return DocumentRecord(
        doc_id=doc_id,
        tenant=upload.tenant,
        file_name=upload.file_name,
        uri=upload.stored_uri or upload.uri,
        mime_type=PDF_MIME,
        sha256=sha256,
        version=upload.version or content_version,
        status=DocumentStatus.QUEUED,
        collection=upload.collection,
        created_at=existing.created_at if existing else now,
        updated_at=now,
        # The event's sequencer is recorded only once it is applied (INDEXED, or FAILED for the
        # file itself): a retry after an internal error must not be taken for a duplicate.
        sequencer=existing.sequencer if existing else None,
    )


def ingest(upload: Upload, deps: Deps) -> DocumentRecord:
    """Ingests the upload; raises StaleEvent, before touching the index when it can, once an
    S3 event as late as upload.sequencer is recorded on the document (another container's)."""
    record = queued(upload, deps)
    if record.status is not DocumentStatus.QUEUED:
        return record
    doc_id, sha256, version = record.doc_id, record.sha256, record.version
    if upload.stored_uri is None:
        # Keep the original before parsing, so even a file that fails is never lost.
        stored = deps.blobs.put(
            f"{upload.tenant}/{doc_id}/{upload.file_name}", upload.data, PDF_MIME
        )
        record = record.model_copy(update={"uri": stored})
    _store(record, deps, upload.sequencer)
    record = _advance(
        record, deps, status=DocumentStatus.PROCESSING, sequencer=upload.sequencer, applied=False
    )
    source = SourceRef(
        type="blob",
        uri=record.uri,
        file_name=upload.file_name,
        mime_type=PDF_MIME,
        sha256=sha256,
        version=version,
    )
    pages = chunks = 0
    try:
        # The previous version's chunks go first: new chunks replace them by id, and a shorter
        # new version must not leave the old tail behind.
        deps.index.delete_document(upload.tenant, doc_id)
        batches = chunk_pdf(
            upload.data,
            doc_id=doc_id,
            tenant=upload.tenant,
            source=source,
            settings=deps.settings.chunking,
            collection=upload.collection,
            ocr=PageOcr(
                deps.ocr,
                deps.settings.ocr,
                uri=record.uri,
                version=original_version(record),
            ),
        )
        skipped: dict[int, str] = {}
        ocr_pages: dict[int, float] = {}
        doubtful: dict[int, str] = {}
        with closing(batches):
            for batch in batches:
                pages += batch.pages
                skipped |= batch.skipped
                ocr_pages |= batch.ocr_pages
                doubtful |= batch.doubtful
                if batch.chunks:
                    if deps.embedder is not None:
                        embed_chunks(
                            batch.chunks, deps.embedder, deps.settings.embedding.batch_size
                        )
                    deps.index.index(batch.chunks)
                    chunks += len(batch.chunks)
                # The heartbeat: a record written after every batch is one a live worker holds;
                # one left untouched past the lease was interrupted (certiq.ingestion.leases).
                record = _advance(
                    record,
                    deps,
                    status=DocumentStatus.PROCESSING,
                    pages=pages,
                    chunks=chunks,
                    sequencer=upload.sequencer,
                    applied=False,
                )
        if not chunks:
            raise IngestionError("no text: the PDF has pages but no sentence could be read")
    except IngestionError as error:
        _drop_chunks(upload.tenant, doc_id, deps)
        return _advance(
            record,
            deps,
            status=DocumentStatus.FAILED,
            reason=str(error),
            chunks=0,
            sequencer=upload.sequencer,
        )
    except Exception as error:
        # The original error is the one worth raising; each clean-up is tried on its own, so
        # an index that cannot be reached still leaves the record FAILED, not PROCESSING.
        with contextlib.suppress(Exception):
            _drop_chunks(upload.tenant, doc_id, deps)
        with contextlib.suppress(Exception):
            _advance(
                record,
                deps,
                status=DocumentStatus.FAILED,
                # An upstream failure (TransientError) is worded for people; anything else
                # is a fault of certiq's, named as such.
                reason=str(error)
                if isinstance(error, TransientError)
                else f"internal error: {error!r}",
                chunks=0,
                sequencer=upload.sequencer,
                applied=False,
            )
        raise
    record = record.model_copy(
        update={
            "skipped_pages": [
                SkippedPage(page=page, reason=reason) for page, reason in sorted(skipped.items())
            ],
            # Pages are read by OCR only when there is an engine (deps.ocr).
            "ocr_pages": [
                OcrPage(page=page, confidence=confidence, engine=deps.ocr.name)
                for page, confidence in sorted(ocr_pages.items())
            ]
            if deps.ocr is not None
            else [],
            "doubtful_pages": [
                DoubtfulPage(page=page, reason=reason) for page, reason in sorted(doubtful.items())
            ],
        }
    )
    indexed = _advance(
        record,
        deps,
        status=DocumentStatus.INDEXED,
        pages=pages,
        chunks=chunks,
        sequencer=upload.sequencer,
    )
    recheck_citing_certificates(indexed, deps)
    return indexed


def same_content(
    tenant: str, collection: str | None, doc_id: str, sha256: str, deps: Deps
) -> DocumentRecord | None:
    """Another live document of the tenant's collection with these bytes, if there is one.

    A failed or deleted one does not count: the new name may index them.
    """
    for record in deps.documents.list(tenant):
        if (
            record.sha256 == sha256
            and record.doc_id != doc_id
            and record.collection == collection
            and record.status in LIVE
        ):
            return record
    return None


def original_key(record: DocumentRecord) -> str:
    """The blob key of a document's original: the S3 key of its URI, or where ingest put it."""
    if record.uri.startswith("s3://"):
        return record.uri.removeprefix("s3://").partition("/")[2]
    return f"{record.tenant}/{record.doc_id}/{record.file_name}"


def original_version(record: DocumentRecord) -> str | None:
    """The S3 version id that was indexed; None when the version is the content hash's prefix."""
    return None if record.sha256.startswith(record.version) else record.version


def already_indexed(record: DocumentRecord | None, sha256: str) -> TypeGuard[DocumentRecord]:
    """This content is indexed already: ingesting it again (a repeated event) changes nothing."""
    return (
        record is not None and record.status is DocumentStatus.INDEXED and record.sha256 == sha256
    )


def remove(
    tenant: str, doc_id: str, deps: Deps, *, sequencer: str | None = None
) -> DocumentRecord | None:
    """Removes a document's chunks and leaves a tombstone so old answers can say it is gone.

    The DELETED record keeps the file name, uri, sha256 and version of what was indexed, so an
    old answer's sources can still name the file and show it as deleted. sequencer is that of
    the S3 event removing it, kept so that an older event arriving later is recognised.
    """
    record = deps.documents.get(tenant, doc_id)
    deps.index.delete_document(tenant, doc_id)
    if record is None:
        return None
    if record.status is DocumentStatus.DELETED:
        if sequencer is None or sequencer == record.sequencer:
            return record  # a repeated delete event: the tombstone stays as it was
        advanced = record.model_copy(update={"sequencer": sequencer})
        deps.documents.put_if_sequencer_before(advanced, sequencer)
        return advanced
    deleted = _advance(record, deps, status=DocumentStatus.DELETED, chunks=0, sequencer=sequencer)
    recheck_citing_certificates(deleted, deps)
    return deleted


def recheck_citing_certificates(record: DocumentRecord, deps: Deps) -> None:
    """Re-checks every certificate citing the document, now INDEXED anew or DELETED: with a
    queue (deps.rechecks, AWS), one message per certificate for the recheck function; without
    one (local), synchronously. A failure is logged, never raised: the document's ingestion or
    removal stands whatever its certificates' re-checks do."""
    if deps.rechecks is None:
        _recheck_now(record, deps)
        return
    try:
        requested_at = deps.clock.now()
        requests = [
            RecheckRequest(
                tenant=record.tenant,
                certificate_id=certificate_id,
                doc_id=record.doc_id,
                requested_at=requested_at,
            )
            for certificate_id in deps.certificates.citing(record.tenant, record.doc_id)
        ]
        if requests:
            deps.rechecks.submit(requests)
    except Exception:
        logger.exception(
            "queueing the re-checks of the certificates citing %s failed", record.doc_id
        )
        return
    logger.info("queued %d re-checks of certificates citing %s", len(requests), record.doc_id)


def _recheck_now(record: DocumentRecord, deps: Deps) -> None:
    from certiq.trust.rechecks import recheck_citing

    try:
        outcomes = recheck_citing(deps, record.tenant, record.doc_id)
    except Exception:
        logger.exception("re-checking the certificates citing %s failed", record.doc_id)
        return
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            logger.error("re-checking a certificate citing %s failed: %r", record.doc_id, outcome)


def tombstone(
    tenant: str, doc_id: str, file_name: str, uri: str, sequencer: str, deps: Deps
) -> DocumentRecord:
    """The DELETED record of a document removed before any of its uploads was ingested.

    It holds only the removing event's sequencer, so that an upload's event arriving after the
    removal's (S3 does not keep them in order) does not bring the document back.
    """
    now = deps.clock.now()
    record = DocumentRecord(
        doc_id=doc_id,
        tenant=tenant,
        file_name=file_name,
        uri=uri,
        mime_type=PDF_MIME,
        status=DocumentStatus.DELETED,
        reason="removed from the bucket before it was indexed",
        created_at=now,
        updated_at=now,
        sequencer=sequencer,
    )
    deps.documents.put_if_sequencer_before(record, sequencer)
    return record


def embed_chunks(chunks: Sequence[Chunk], embedder: Embedder, batch_size: int) -> None:
    """Set chunk.embedding on every chunk, batch_size texts per call to the embedder."""
    for first in range(0, len(chunks), batch_size):
        part = chunks[first : first + batch_size]
        vectors = embedder.embed([chunk.text for chunk in part])
        if vectors.shape[0] != len(part):
            raise RuntimeError(
                f"embedder {embedder.name}: {vectors.shape[0]} vectors for {len(part)} texts"
            )
        for chunk, vector in zip(part, vectors, strict=True):
            chunk.embedding = vector.tolist()


def _drop_chunks(tenant: str, doc_id: str, deps: Deps) -> None:
    """A FAILED document has no chunks: none of a half-indexed new version, none of the old."""
    deps.index.delete_document(tenant, doc_id)


def _advance(
    record: DocumentRecord,
    deps: Deps,
    *,
    status: DocumentStatus,
    reason: str | None = None,
    pages: int | None = None,
    chunks: int | None = None,
    sequencer: str | None = None,
    applied: bool = True,
) -> DocumentRecord:
    """The record in its next status, stored. sequencer (an S3 event's) makes the write
    conditional (see _store), and the record takes it when the event is applied by this step."""
    update: dict[str, object] = {"status": status, "reason": reason, "updated_at": deps.clock.now()}
    if pages is not None:
        update["pages"] = pages
    if chunks is not None:
        update["chunks"] = chunks
    if sequencer is not None and applied:
        update["sequencer"] = sequencer
    advanced = record.model_copy(update=update)
    _store(advanced, deps, sequencer)
    return advanced


def _store(record: DocumentRecord, deps: Deps, sequencer: str | None) -> None:
    """Writes the record; for an S3 event (sequencer) only while no event as late is recorded on
    the document, raising StaleEvent otherwise, so two containers cannot put it back in time."""
    if sequencer is None:
        deps.documents.put(record)
    else:
        deps.documents.put_if_sequencer_before(record, sequencer)
