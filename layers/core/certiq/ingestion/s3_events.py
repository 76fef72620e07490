"""S3 notifications to ingestion: ObjectCreated ingests, ObjectRemoved leaves a tombstone.

S3 delivers every notification at least once and not always in order, so each record is
handled on its own and checked against the bucket as it is now:

- ObjectCreated reads the exact object version the record names (a versioned bucket), so the
  version recorded is the one whose bytes were indexed; a version deleted since is skipped.
- ObjectRemoved tombstones the document only when the key has no current object any more: a
  delete of an old version, or a delete that an upload has already overtaken, changes nothing.

The Lambda entry point (certiq.runtime.s3_ingest) adds exactly-once per record on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools.utilities.parser.models import S3Model, S3RecordModel

from certiq.errors import InvalidRequest, NotFound
from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.service import Upload, ingest, remove
from certiq.models import DocumentRecord
from certiq.steps.deps import Deps


@dataclass(frozen=True)
class S3Outcome:
    event_name: str
    uri: str
    record: DocumentRecord | None
    skipped: str | None = None  # why nothing was done, when nothing was

    def summary(self) -> dict[str, Any]:
        """What the Lambda returns (and the idempotency table keeps) for this record."""
        record = self.record
        return {
            "event": self.event_name,
            "uri": self.uri,
            "doc_id": record.doc_id if record else None,
            "status": "SKIPPED" if self.skipped else (record.status.value if record else "UNKNOWN"),
            "reason": self.skipped or (record.reason if record else None),
            "version": record.version if record else None,
            "pages": record.pages if record else 0,
            "chunks": record.chunks if record else 0,
        }


def handle_s3_event(event: S3Model, deps: Deps) -> list[S3Outcome]:
    """Every record of the event, one after the other (see handle_s3_record)."""
    outcomes = []
    for notification in event.Records:
        outcome = handle_s3_record(notification, deps)
        if outcome is not None:
            outcomes.append(outcome)
    return outcomes


def handle_s3_record(notification: S3RecordModel, deps: Deps) -> S3Outcome | None:
    """One notification; None for the test events S3 sends when notifications are configured."""
    s3_object = notification.s3.object
    if s3_object is None:
        return None
    tenant = deps.settings.tenant
    bucket = notification.s3.bucket.name
    # S3 URL-encodes keys in notifications ("data+retention.pdf" is "data retention.pdf").
    key = unquote_plus(s3_object.key)
    uri = f"s3://{bucket}/{key}"
    event_name = notification.eventName
    try:
        if event_name.startswith("ObjectRemoved"):
            if deps.blobs.exists(key):
                return S3Outcome(event_name, uri, None, skipped="the key still holds an object")
            return S3Outcome(event_name, uri, remove(tenant, doc_id_for(tenant, uri), deps))
        try:
            data = deps.blobs.get(key, version=s3_object.versionId)
        except NotFound:
            return S3Outcome(event_name, uri, None, skipped="the object is gone from the bucket")
    except InvalidRequest as error:  # a key the blob store refuses: nothing can be read
        return S3Outcome(event_name, uri, None, skipped=str(error))
    upload = Upload(
        data=data,
        file_name=PurePosixPath(key).name,
        uri=uri,
        tenant=tenant,
        stored_uri=uri,
        # Without versioning the bytes themselves name the version (see document_ids).
        version=s3_object.versionId,
    )
    return S3Outcome(event_name, uri, ingest(upload, deps))
