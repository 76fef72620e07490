"""S3 notifications to ingestion: ObjectCreated ingests, ObjectRemoved leaves a tombstone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote_plus

from aws_lambda_powertools.utilities.parser.models import S3Model

from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.service import Upload, ingest, remove
from certiq.models import DocumentRecord
from certiq.steps.deps import Deps


@dataclass(frozen=True)
class S3Outcome:
    event_name: str
    uri: str
    record: DocumentRecord | None


def handle_s3_event(event: S3Model, deps: Deps) -> list[S3Outcome]:
    outcomes = []
    tenant = deps.settings.tenant
    for notification in event.Records:
        bucket = notification.s3.bucket.name
        s3_object = notification.s3.object
        if s3_object is None:  # test events S3 sends on configuration carry no object
            continue
        # S3 URL-encodes keys in notifications ("data+retention.pdf" is "data retention.pdf").
        key = unquote_plus(s3_object.key)
        uri = f"s3://{bucket}/{key}"
        if notification.eventName.startswith("ObjectRemoved"):
            record = remove(tenant, doc_id_for(tenant, uri), deps)
        else:
            upload = Upload(
                data=deps.blobs.get(key),
                file_name=PurePosixPath(key).name,
                uri=uri,
                tenant=tenant,
                stored_uri=uri,
                version=s3_object.versionId or s3_object.eTag,
            )
            record = ingest(upload, deps)
        outcomes.append(S3Outcome(event_name=notification.eventName, uri=uri, record=record))
    return outcomes
