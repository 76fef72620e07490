"""Documents in and out through the API: uploads, and deletions that leave a tombstone.

Locally (no UploadSigner) the API holds the bytes: the record is stored QUEUED and ingestion
runs in a background thread, so POST /v1/documents returns at once and GET shows PROCESSING,
then INDEXED or FAILED with its reason. In the cloud the bytes go to the documents bucket, either
through the API (small files) or straight from the client with a presigned POST, and the
bucket's ObjectCreated notification ingests them (certiq.ingestion.s3_events).
"""

from __future__ import annotations

import logging
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from urllib.parse import quote

from certiq.deps import Deps
from certiq.errors import InvalidRequest
from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.leases import retry_upload
from certiq.ingestion.service import PDF_MIME, Upload, ingest, original_key, queued, remove
from certiq.models import DocumentRecord, DocumentStatus, DocumentUpload
from certiq.ports import UploadSigner

logger = logging.getLogger(__name__)

# A file name is kept as the user gave it, within reason: no folders, no control characters.
_FILE_NAME = re.compile(r"^[^/\\\x00-\x1f\x7f]{1,200}$")
_PDF_MAGIC = b"%PDF-"


def check_file_name(file_name: str) -> str:
    name = file_name.strip()
    if not _FILE_NAME.fullmatch(name) or name in (".", ".."):
        raise InvalidRequest("file_name", "1 to 200 characters, no '/', '\\' or control characters")
    if not name.lower().endswith(".pdf"):
        raise InvalidRequest("file_name", f"only PDF files are ingested: {name!r}")
    return name


def status_url(doc_id: str) -> str:
    return f"/v1/documents/{doc_id}"


class DocumentIntake:
    """Accepts uploads and deletions for one deployment (see the module docstring)."""

    def __init__(self, deps: Deps, signer: UploadSigner | None) -> None:
        self._deps = deps
        self._signer = signer
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._busy: set[str] = set()

    @property
    def direct(self) -> bool:
        """True when this process ingests uploads itself (the local runtime)."""
        return self._signer is None

    def accept(self, file_name: str, data: bytes, collection: str | None) -> DocumentUpload:
        """A file's bytes, sent to the API."""
        name = check_file_name(file_name)
        if not data.startswith(_PDF_MAGIC):
            raise InvalidRequest("body", "not a PDF: the body must start with %PDF-")
        tenant = self._deps.settings.tenant
        if not self.direct:
            if collection is not None:
                raise InvalidRequest(
                    "collection", "uploads to the bucket are ingested by its event, without one"
                )
            uri = self._deps.blobs.put(self._bucket_key(name), data, PDF_MIME)
            doc_id = doc_id_for(tenant, uri)
            return DocumentUpload(
                doc_id=doc_id,
                file_name=name,
                status_url=status_url(doc_id),
                document=self._deps.documents.get(tenant, doc_id),
            )
        upload = Upload(
            data=data,
            file_name=name,
            uri=f"upload:///{quote(name)}",
            tenant=tenant,
            collection=collection,
        )
        return self._queue(upload)

    def retry(self, record: DocumentRecord) -> DocumentUpload:
        """Ingests a FAILED document again from its kept original, under its id.

        Locally it is queued here; in the cloud the original is written again as the bucket's
        newest version, and the event that follows ingests it.
        """
        upload = retry_upload(record.tenant, record.doc_id, self._deps)
        if self.direct:
            return self._queue(upload)
        self._deps.blobs.put(original_key(record), upload.data, PDF_MIME)
        return DocumentUpload(
            doc_id=record.doc_id,
            file_name=record.file_name,
            status_url=status_url(record.doc_id),
            document=record,
        )

    def busy(self) -> set[str]:
        """Documents queued or being ingested by this process."""
        with self._lock:
            return set(self._busy)

    def _queue(self, upload: Upload) -> DocumentUpload:
        record = queued(upload, self._deps)
        if record.status is DocumentStatus.QUEUED:
            self._deps.documents.put(record)
            self._ingest_later(upload, record.doc_id)
        return DocumentUpload(
            doc_id=record.doc_id,
            file_name=record.file_name,
            status_url=status_url(record.doc_id),
            document=record,
        )

    def presign(self, file_name: str) -> DocumentUpload:
        """Where the client sends a file itself (the cloud); refused when the API ingests."""
        name = check_file_name(file_name)
        if self._signer is None:
            # This server takes the bytes themselves: no body is an empty file.
            raise InvalidRequest("body", f"the file is empty: {name} has no bytes to ingest")
        key = self._bucket_key(name)
        settings = self._deps.settings
        target = self._signer.presign_upload(
            key, PDF_MIME, settings.api.max_body_bytes, settings.api.upload_expires_seconds
        )
        doc_id = doc_id_for(settings.tenant, f"s3://{settings.aws.bucket}/{key}")
        return DocumentUpload(
            doc_id=doc_id, file_name=name, status_url=status_url(doc_id), upload=target
        )

    def delete(self, record: DocumentRecord) -> DocumentRecord:
        """Removes the document's chunks and leaves its DELETED tombstone.

        The original is kept: the local folder keeps no versions, so its file stays; in the
        versioned bucket the current object gets a delete marker, its versions stay, and the
        ObjectRemoved notification that follows finds the tombstone already there.
        """
        tombstone = remove(record.tenant, record.doc_id, self._deps) or record
        if not self.direct and record.uri.startswith("s3://"):
            self._deps.blobs.delete(record.uri.removeprefix("s3://").partition("/")[2])
        return tombstone

    def wait_idle(self) -> None:
        """Waits for the ingestions started so far (tests, and a clean shutdown)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _bucket_key(self, file_name: str) -> str:
        return f"{self._deps.settings.api.upload_prefix}{file_name}"

    def _ingest_later(self, upload: Upload, doc_id: str) -> Future[DocumentRecord]:
        with self._lock:
            if self._pool is None:
                # One at a time: pdfium holds a process-wide lock anyway.
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="certiq-ingest")
            self._busy.add(doc_id)
            future = self._pool.submit(ingest, upload, self._deps)

        def done(finished: Future[DocumentRecord]) -> None:
            with self._lock:
                self._busy.discard(doc_id)
            _log_failure(finished)

        future.add_done_callback(done)
        return future


def _log_failure(future: Future[DocumentRecord]) -> None:
    # ingest() has recorded FAILED with the reason already; the trace goes to the server's log.
    error = future.exception()
    if error is not None:
        logger.error("ingestion failed", exc_info=error)
