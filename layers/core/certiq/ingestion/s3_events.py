"""S3 notifications to ingestion: ObjectCreated ingests, ObjectRemoved leaves a tombstone.

S3 delivers every notification at least once and not always in order, so each record is
handled on its own, against the events applied before it and the bucket as it is now:

- Order: every record carries s3.object.sequencer, which grows with each event for one key.
  The document's record keeps the sequencer of the last event applied to it; an event whose
  sequencer is not greater (a duplicate, or an older event arriving late) is skipped, created
  and removed alike, so a late event never brings back older bytes or a deleted document.
- ObjectCreated reads the exact object version the record names (a versioned bucket), so the
  version recorded is the one whose bytes were indexed; a version deleted since is skipped.
- ObjectRemoved tombstones the document only when the key has no current object any more: a
  delete of an old version, or a delete that an upload has already overtaken, changes nothing.
  A document never ingested gets a tombstone too, holding the sequencer.

Every write of the record during an event is conditional (DocumentStore.put_if_sequencer_before):
it happens only while no event as late is recorded. So when two events of one key are handled
at the same moment by two containers, both passing the check above, the earlier one's next
write is refused and it ends SKIPPED like a late event; the record never goes back. Their chunk
writes are not serialised: two events both past their PROCESSING write index at once (see the
docs/known-limits.md).

The Lambda entry point (certiq.runtime.s3_ingest) adds exactly-once per record on top.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools.utilities.parser.models import S3RecordModel

from certiq.deps import Deps
from certiq.errors import DuplicateContent, InvalidRequest, NotFound, StaleEvent
from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.sequencer import check_sequencer, sequencer_is_later
from certiq.ingestion.service import Upload, ingest, remove, tombstone
from certiq.models import DocumentRecord

logger = logging.getLogger(__name__)


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
    doc_id = doc_id_for(tenant, uri)
    sequencer = s3_object.sequencer
    try:
        if sequencer is not None:
            check_sequencer(sequencer)
        applied = deps.documents.get(tenant, doc_id)
        if (
            sequencer is not None
            and applied is not None
            and applied.sequencer is not None
            and not sequencer_is_later(sequencer, applied.sequencer)
        ):
            return _stale(event_name, uri, sequencer, applied)
        if event_name.startswith("ObjectRemoved"):
            if deps.blobs.exists(key):
                return _skipped(event_name, uri, "the key still holds an object")
            removed = remove(tenant, doc_id, deps, sequencer=sequencer)
            if removed is None and sequencer is not None:
                file_name = PurePosixPath(key).name
                removed = tombstone(tenant, doc_id, file_name, uri, sequencer, deps)
            return S3Outcome(event_name, uri, removed)
        try:
            # The version the event names, not the current one: a late event never indexes
            # other bytes than those it announces.
            data = deps.blobs.get(key, version=s3_object.versionId)
        except NotFound:
            return _skipped(event_name, uri, "the object is gone from the bucket")
    except InvalidRequest as error:  # a key (or sequencer) refused: nothing can be done
        return _skipped(event_name, uri, str(error))
    except StaleEvent:  # another container applied an event as late since the check above
        return _stale(event_name, uri, sequencer, deps.documents.get(tenant, doc_id))
    upload = Upload(
        data=data,
        file_name=PurePosixPath(key).name,
        uri=uri,
        tenant=tenant,
        stored_uri=uri,
        # Without versioning the bytes themselves name the version (see document_ids).
        version=s3_object.versionId,
        sequencer=sequencer,
    )
    try:
        return S3Outcome(event_name, uri, ingest(upload, deps))
    except DuplicateContent as error:
        return _skipped(event_name, uri, str(error))
    except StaleEvent:
        return _stale(event_name, uri, sequencer, deps.documents.get(tenant, doc_id))


def _stale(
    event_name: str, uri: str, sequencer: str | None, applied: DocumentRecord | None
) -> S3Outcome:
    """An event not later than the last one applied to the document: skipped."""
    return _skipped(
        event_name,
        uri,
        f"not newer than the last event applied (sequencer {sequencer},"
        f" applied {applied.sequencer if applied else None})",
        applied,
    )


def _skipped(
    event_name: str, uri: str, reason: str, record: DocumentRecord | None = None
) -> S3Outcome:
    """An event that changes nothing: logged with why, and returned (never silently dropped)."""
    logger.info("S3 event skipped: %s", reason, extra={"s3_event": event_name, "uri": uri})
    return S3Outcome(event_name, uri, record, skipped=reason)
