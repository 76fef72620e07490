"""Interrupted ingestion: found by its lease, ended FAILED, retried from the kept original.

Ingestion writes a document's record after every page batch (its heartbeat). A record left
QUEUED or PROCESSING for longer than ``ingestion.lease_seconds`` belongs to a worker that is gone
(a killed `certiq ingest`, a restarted server, a Lambda function that ran out of time): it is
ended FAILED with a reason that says so, instead of staying PROCESSING for ever while questions
silently skip it. The original was stored before parsing began, so `retry` ingests it again
under the same id.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import timedelta

from certiq.deps import Deps
from certiq.errors import InvalidRequest, NotFound
from certiq.ingestion.service import Upload, ingest, original_key, original_version
from certiq.models import DocumentRecord, DocumentStatus

UNFINISHED = frozenset({DocumentStatus.QUEUED, DocumentStatus.PROCESSING})


def interrupted_reason(doc_id: str) -> str:
    return (
        "interrupted: ingestion stopped before it finished (its process ended); the original is"
        f" kept: `certiq retry {doc_id}` or POST /v1/documents/{doc_id}/retry ingests it again"
    )


def end_interrupted(
    tenant: str,
    deps: Deps,
    *,
    busy: Collection[str] = (),
    records: Sequence[DocumentRecord] | None = None,
) -> list[DocumentRecord]:
    """Ends FAILED every document of the tenant whose lease ran out; returns them.

    ``busy`` names documents this process is still working on or has queued (a queue may hold a
    record untouched for longer than the lease), which are left alone. ``records``: the
    tenant's records when the caller has just listed them (read again otherwise).
    """
    now = deps.clock.now()
    cutoff = now - timedelta(seconds=deps.settings.ingestion.lease_seconds)
    ended = []
    for record in deps.documents.list(tenant) if records is None else records:
        if record.status in UNFINISHED and record.doc_id not in busy and record.updated_at < cutoff:
            failed = record.model_copy(
                update={
                    "status": DocumentStatus.FAILED,
                    "reason": interrupted_reason(record.doc_id),
                    "updated_at": now,
                }
            )
            deps.documents.put(failed)
            ended.append(failed)
    return ended


def retry_upload(tenant: str, doc_id: str, deps: Deps) -> Upload:
    """The upload that ingests a FAILED document again from its kept original, under its id."""
    record = deps.documents.get(tenant, doc_id)
    if record is None:
        raise NotFound(f"no document {doc_id}")
    if record.status is not DocumentStatus.FAILED:
        raise InvalidRequest(
            "doc_id", f"document {doc_id} is {record.status.value}: only a FAILED one is retried"
        )
    data = deps.blobs.get(original_key(record), version=original_version(record))
    return Upload(
        data=data,
        file_name=record.file_name,
        uri=record.uri,
        tenant=tenant,
        stored_uri=record.uri,
        version=original_version(record),
        collection=record.collection,
        doc_id=doc_id,
    )


def retry(tenant: str, doc_id: str, deps: Deps) -> DocumentRecord:
    """Ingests a FAILED document again, here and now."""
    return ingest(retry_upload(tenant, doc_id, deps), deps)
