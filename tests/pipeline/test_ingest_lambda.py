"""The ingest function on real-shaped S3 events, with S3 and DynamoDB under moto.

The handler is certiq.runtime.s3_ingest.S3IngestHandler, the object functions/ingest/app.py
serves, with the Powertools idempotency store on a moto DynamoDB table shaped as the template's.
Its Deps are the AWS adapters for blobs and documents (moto) and the SQLite search index; the
last test runs functions/ingest/app.py itself, deps from bootstrap (runtime aws), on
a real OpenSearch node.

Events start from infra/events/*.json, with the bucket, key, size, eTag, versionId and sequencer
of a real put_object, so Powertools' S3Model sees what S3 would send.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import importlib.util
import itertools
import json
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

import boto3
import pytest
from moto import mock_aws
from moto.textract.models import TextractBackend

from certiq.adapters.aws.dynamodb_stores import DynamoDocumentStore
from certiq.adapters.aws.idempotency import dynamodb_idempotency_store
from certiq.adapters.aws.s3_blobs import S3BlobStore
from certiq.adapters.aws.tables import create_table_args
from certiq.adapters.aws.textract_ocr import TextractOcr
from certiq.bootstrap import build_deps
from certiq.config import EmbeddingSettings, Settings
from certiq.deps import Deps
from certiq.evaluation.scans import scanned_copy
from certiq.ingestion import s3_events
from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.pdf import parse_pdf
from certiq.lazy import built
from certiq.models import Chunk, DocumentRecord, DocumentStatus, SearchHit
from certiq.ports import DocumentStore, SearchIndex
from certiq.runtime.s3_ingest import S3IngestHandler
from tests.conftest import build_pdf
from tests.fakes import DelegatingIndex, textract_blocks

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client


ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "infra" / "events"
REGION = "us-east-1"
BUCKET = "certiq-123456789012-us-east-1-documents"
TENANT = "default"
KEY = "policies/data retention.pdf"  # a space: S3 sends it URL-encoded as "data+retention.pdf"

POLICY = [
    [
        "Backups of customer data are kept for 35 days and then deleted.",
        "Application logs are retained for 13 months for investigations.",
    ],
    ["Invoices are kept for 7 years to meet tax law."],
    ["Support tickets are kept for 3 years after closure."],
]
REVISED = [["Backups of customer data are now kept for 14 days and then destroyed."]]


# --- the AWS side ----------------------------------------------------------------------------


@dataclass
class LambdaContext:
    """What Lambda passes as the context: the fields Powertools reads."""

    function_name: str = "certiq-IngestFunction"
    memory_limit_in_mb: int = 2048
    invoked_function_arn: str = (
        "arn:aws:lambda:us-east-1:123456789012:function:certiq-IngestFunction"
    )
    aws_request_id: str = "0f9a7c3e-1b2d-4e5f-8a9b-0c1d2e3f4a5b"

    def get_remaining_time_in_millis(self) -> int:
        return 280_000


@dataclass
class World:
    """moto S3 (a versioned bucket) and DynamoDB, and the ingest function's Deps over them."""

    s3: S3Client
    dynamodb: DynamoDBClient
    deps: Deps
    idempotency_table: str
    sequencer: Iterator[int]

    def upload(self, key: str, data: bytes) -> dict[str, Any]:
        """put_object, then the ObjectCreated:Put event S3 sends for it."""
        put = self.s3.put_object(Bucket=BUCKET, Key=key, Body=data)
        obj: dict[str, Any] = {
            "key": quote_plus(key, safe="/"),
            "size": len(data),
            "eTag": put["ETag"].strip('"'),
            "sequencer": f"{next(self.sequencer):018X}",
        }
        if put.get("VersionId"):
            obj["versionId"] = put["VersionId"]
        return self._event("s3_object_created.json", obj)

    def delete(self, key: str) -> dict[str, Any]:
        """delete_object (a delete marker in a versioned bucket), then its ObjectRemoved event."""
        deleted = self.s3.delete_object(Bucket=BUCKET, Key=key)
        obj: dict[str, Any] = {
            "key": quote_plus(key, safe="/"),
            "sequencer": f"{next(self.sequencer):018X}",
        }
        if deleted.get("VersionId"):
            obj["versionId"] = deleted["VersionId"]
        return self._event("s3_object_removed.json", obj)

    def _event(self, sample: str, obj: dict[str, Any]) -> dict[str, Any]:
        event: dict[str, Any] = json.loads((EVENTS / sample).read_text(encoding="utf-8"))
        record = event["Records"][0]
        record["s3"]["bucket"]["name"] = BUCKET
        record["s3"]["bucket"]["arn"] = f"arn:aws:s3:::{BUCKET}"
        record["s3"]["object"] = obj
        return event

    def record(self, key: str) -> DocumentRecord | None:
        return self.deps.documents.get(TENANT, doc_id_for(TENANT, f"s3://{BUCKET}/{key}"))

    def chunks(self) -> int:
        return self.deps.index.count(TENANT)

    def idempotency_items(self) -> list[dict[str, Any]]:
        return list(self.dynamodb.scan(TableName=self.idempotency_table)["Items"])

    def handler(self, *, guarded: bool = True) -> S3IngestHandler:
        return S3IngestHandler(
            deps=lambda: self.deps,
            idempotency_store=lambda: (
                dynamodb_idempotency_store(self.idempotency_table, self.dynamodb)
                if guarded
                else None
            ),
        )


def fake_aws_environment(monkeypatch: pytest.MonkeyPatch, scratch: Path) -> None:
    """No AWS_* variable of the real environment survives; credentials are fake."""
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": str(scratch / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(scratch / "no-aws-credentials"),
    }.items():
        monkeypatch.setenv(name, value)


def create_tables(dynamodb: DynamoDBClient) -> dict[str, str]:
    tables = {logical: f"certiq-{logical}" for logical in ("documents", "idempotency")}
    for logical, name in tables.items():
        dynamodb.create_table(**create_table_args(logical, name))
    return tables


@pytest.fixture(scope="module")
def boto_session(tmp_path_factory: pytest.TempPathFactory) -> boto3.session.Session:
    """One session for the module (clients from it come ~10x faster), with fake credentials;
    its clients are only made inside mock_aws()."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        fake_aws_environment(monkeypatch, tmp_path_factory.mktemp("aws"))
        return boto3.session.Session(
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            aws_session_token="testing",
            region_name=REGION,
        )


@pytest.fixture
def make_world(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, boto_session: boto3.session.Session
) -> Iterator[Callable[..., World]]:
    fake_aws_environment(monkeypatch, tmp_path)
    with mock_aws():

        def make(*, versioned: bool = True, index: SearchIndex | None = None) -> World:
            s3, dynamodb = boto_session.client("s3"), boto_session.client("dynamodb")
            s3.create_bucket(Bucket=BUCKET)
            if versioned:
                s3.put_bucket_versioning(
                    Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"}
                )
            tables = create_tables(dynamodb)
            # The local deps bring the SQLite index and the clock; no embedder: this is about
            # events, idempotency and records, not vectors.
            local = build_deps(
                Settings(home=tmp_path / "home", embedding=EmbeddingSettings(provider="none"))
            )
            deps = dataclasses.replace(
                local,
                blobs=S3BlobStore(s3, BUCKET),
                documents=DynamoDocumentStore(dynamodb, tables["documents"]),
                index=index or local.index,
            )
            return World(s3, dynamodb, deps, tables["idempotency"], itertools.count(1))

        yield make


@pytest.fixture
def world(make_world: Callable[..., World]) -> World:
    return make_world()


@pytest.fixture
def ingests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The file names ingest() is called with: a spy around the real function."""
    calls: list[str] = []
    real = s3_events.ingest

    def spy(upload: Any, deps: Deps) -> DocumentRecord:
        calls.append(upload.file_name)
        return real(upload, deps)

    monkeypatch.setattr(s3_events, "ingest", spy)
    return calls


# --- ObjectCreated ---------------------------------------------------------------------------


def test_an_upload_is_indexed_and_its_record_says_so(world: World) -> None:
    # GIVEN a PDF put into the bucket and the event S3 sends for it
    data = build_pdf(POLICY)
    event = world.upload(KEY, data)

    # WHEN the ingest function handles the event
    result = world.handler()(event, LambdaContext())

    # THEN the documents table holds it INDEXED, with pages, chunks, sha256 and the S3 version
    record = world.record(KEY)
    assert record is not None
    assert record.status is DocumentStatus.INDEXED
    assert (record.pages, record.file_name) == (3, "data retention.pdf")
    assert record.chunks >= 1 and record.chunks == world.chunks()
    assert record.sha256 == hashlib.sha256(data).hexdigest()
    version_id = event["Records"][0]["s3"]["object"]["versionId"]
    assert record.version == version_id
    assert record.uri == f"s3://{BUCKET}/{KEY}"
    # AND the function says what it did
    (summary,) = result["documents"]
    assert summary["status"] == "INDEXED" and summary["version"] == version_id
    # AND the chunks are searchable, their source naming the version
    hits = world.deps.index.search(TENANT, "backups customer data", 3)
    assert hits and hits[0].chunk.source.version == version_id


def test_a_copy_under_another_key_is_skipped_naming_the_document_it_repeats(
    world: World,
) -> None:
    # GIVEN an indexed upload
    data = build_pdf(POLICY)
    world.handler()(world.upload(KEY, data), LambdaContext())
    original = world.record(KEY)
    assert original is not None and original.status is DocumentStatus.INDEXED

    # WHEN the same bytes are dropped under another key
    result = world.handler()(world.upload("policies/copy of retention.pdf", data), LambdaContext())

    # THEN the function skips it and says which document holds that content; nothing is indexed
    (summary,) = result["documents"]
    assert summary["status"] == "SKIPPED"
    assert summary["reason"] == (
        f"the same content is already document {original.doc_id} (data retention.pdf):"
        " not indexed twice"
    )
    assert world.record("policies/copy of retention.pdf") is None
    assert world.chunks() == original.chunks


def test_the_same_event_twice_ingests_once(world: World, ingests: list[str]) -> None:
    # GIVEN an upload whose event has been handled
    event = world.upload(KEY, build_pdf(POLICY))
    handler = world.handler()
    first = handler(event, LambdaContext())
    chunks = world.chunks()
    record = world.record(KEY)

    # WHEN S3 delivers the same event again (to the same or a new container)
    second = handler(copy.deepcopy(event), LambdaContext())
    third = world.handler()(copy.deepcopy(event), LambdaContext())

    # THEN ingest ran once, the chunks and the record are unchanged, the outcome is repeated
    assert ingests == ["data retention.pdf"]
    assert world.chunks() == chunks
    assert world.record(KEY) == record
    assert first == second == third
    # AND the idempotency table holds one COMPLETED record for it, keyed on "id"
    (item,) = world.idempotency_items()
    assert item["status"]["S"] == "COMPLETED"
    assert item["id"]["S"].startswith("certiq-ingest-s3-record#")


def test_without_the_idempotency_store_a_repeat_is_still_a_no_op(world: World) -> None:
    # GIVEN an event handled by a function running without the idempotency store (or after
    # its window): the second line of defence is the sequencer the record keeps
    event = world.upload(KEY, build_pdf(POLICY))
    handler = world.handler(guarded=False)
    handler(event, LambdaContext())
    record, chunks = world.record(KEY), world.chunks()
    assert record is not None
    assert record.sequencer == event["Records"][0]["s3"]["object"]["sequencer"]

    # WHEN the event comes again
    result = handler(copy.deepcopy(event), LambdaContext())

    # THEN nothing changed, not even the record's updated_at, and the function says why
    assert world.record(KEY) == record
    assert world.chunks() == chunks
    assert world.idempotency_items() == []
    (summary,) = result["documents"]
    assert summary["status"] == "SKIPPED"
    assert summary["reason"].startswith("not newer than the last event applied")


def test_a_new_version_of_the_key_replaces_its_chunks(world: World) -> None:
    # GIVEN a three-page policy, indexed
    handler = world.handler()
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())
    assert world.chunks() >= 1

    # WHEN a one-page revision is uploaded under the same key
    event = world.upload(KEY, build_pdf(REVISED))
    handler(event, LambdaContext())

    # THEN the record names the new version, and only the new version's chunks remain
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.INDEXED
    assert record.version == event["Records"][0]["s3"]["object"]["versionId"]
    assert record.pages == 1 and world.chunks() == record.chunks
    assert hits_text(world.deps.index.search(TENANT, "14 days destroyed", 5)) == [
        "Backups of customer data are now kept for 14 days and then destroyed."
    ]
    assert world.deps.index.search(TENANT, "invoices tax law", 5) == []


def test_a_late_event_for_an_older_version_indexes_that_versions_bytes(world: World) -> None:
    # GIVEN two uploads of the key, and only the first one's event delivered so far
    first_event = world.upload(KEY, build_pdf(POLICY))
    world.upload(KEY, build_pdf(REVISED))

    # WHEN the first event is handled
    world.handler()(first_event, LambdaContext())

    # THEN the record's version and sha256 describe the same bytes: the first version's
    record = world.record(KEY)
    assert record is not None
    assert record.version == first_event["Records"][0]["s3"]["object"]["versionId"]
    assert record.sha256 == hashlib.sha256(build_pdf(POLICY)).hexdigest()


def test_an_older_upload_arriving_after_a_newer_one_is_skipped(
    world: World, ingests: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    # GIVEN two uploads of the key, the newer one's event handled first
    older = world.upload(KEY, build_pdf(POLICY))
    newer = world.upload(KEY, build_pdf(REVISED))
    handler = world.handler()
    handler(newer, LambdaContext())

    # WHEN the older upload's event arrives late
    with caplog.at_level(logging.INFO, logger="certiq.ingestion.s3_events"):
        result = handler(older, LambdaContext())

    # THEN the index keeps the newer text only, the record names the newer version
    assert ingests == ["data retention.pdf"]
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.INDEXED
    assert record.version == newer["Records"][0]["s3"]["object"]["versionId"]
    assert record.sequencer == newer["Records"][0]["s3"]["object"]["sequencer"]
    assert hits_text(world.deps.index.search(TENANT, "backups customer data", 5)) == [
        "Backups of customer data are now kept for 14 days and then destroyed."
    ]
    assert world.deps.index.search(TENANT, "invoices tax law", 5) == []
    # AND the skip is returned and logged with its reason
    (summary,) = result["documents"]
    assert summary["status"] == "SKIPPED" and summary["doc_id"] == record.doc_id
    assert older["Records"][0]["s3"]["object"]["sequencer"] in summary["reason"]
    assert any(summary["reason"] in message for message in caplog.messages)


class RacedDocuments:
    """The documents table as one container sees it while another handles an event of the same
    key: ``meanwhile`` (that other container's whole run) happens once, right after the first
    read, or right before the first write of a record in the status ``before_status``."""

    def __init__(
        self,
        inner: DocumentStore,
        meanwhile: Callable[[], object],
        before_status: DocumentStatus | None = None,
    ) -> None:
        self._inner = inner
        self._meanwhile: Callable[[], object] | None = meanwhile
        self._before_status = before_status

    def _race(self) -> None:
        if self._meanwhile is not None:
            meanwhile, self._meanwhile = self._meanwhile, None
            meanwhile()

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None:
        record = self._inner.get(tenant, doc_id)
        if self._before_status is None:
            self._race()  # the check has read the record; the other container runs now
        return record

    def put(self, record: DocumentRecord) -> None:
        self._inner.put(record)

    def put_if_sequencer_before(self, record: DocumentRecord, sequencer: str) -> None:
        if record.status is self._before_status:
            self._race()
        self._inner.put_if_sequencer_before(record, sequencer)

    def list(self, tenant: str) -> list[DocumentRecord]:
        return self._inner.list(tenant)


@pytest.mark.parametrize(
    "overtaken_before",
    [None, DocumentStatus.PROCESSING],
    ids=["after-the-check", "before-processing"],
)
def test_an_older_upload_overtaken_while_it_runs_loses_to_the_newer(
    world: World, ingests: list[str], overtaken_before: DocumentStatus | None
) -> None:
    # GIVEN two uploads of the key, each event in its own container; the older one's passes the
    # sequencer check (nothing applied yet), then the newer one's runs from start to end
    older = world.upload(KEY, build_pdf(POLICY))
    newer = world.upload(KEY, build_pdf(REVISED))
    other_container = world.handler()
    raced = RacedDocuments(
        world.deps.documents,
        lambda: other_container(newer, LambdaContext()),
        before_status=overtaken_before,
    )
    this_container = S3IngestHandler(
        deps=lambda: dataclasses.replace(world.deps, documents=raced),
        idempotency_store=lambda: dynamodb_idempotency_store(
            world.idempotency_table, world.dynamodb
        ),
    )

    # WHEN the older event's container goes on to write the record
    result = this_container(older, LambdaContext())

    # THEN its conditional write loses: the older event is skipped with its reason
    (summary,) = result["documents"]
    assert summary["status"] == "SKIPPED"
    assert older["Records"][0]["s3"]["object"]["sequencer"] in summary["reason"]
    assert ingests == ["data retention.pdf", "data retention.pdf"]
    # AND the record and the index are the newer version's
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.INDEXED
    assert record.sequencer == newer["Records"][0]["s3"]["object"]["sequencer"]
    assert record.sha256 == hashlib.sha256(build_pdf(REVISED)).hexdigest()
    assert world.deps.index.search(TENANT, "invoices tax law", 5) == []
    assert world.chunks() == record.chunks


def test_the_same_bytes_again_under_a_later_event_still_outrank_an_event_between(
    world: World, ingests: list[str]
) -> None:
    # GIVEN the policy, a revision, then the policy again; the first and third events handled
    handler = world.handler()
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())
    revision = world.upload(KEY, build_pdf(REVISED))
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())

    # WHEN the revision's event arrives last
    result = handler(revision, LambdaContext())

    # THEN the policy stays indexed: unchanged bytes still advanced the record's sequencer
    assert result["documents"][0]["status"] == "SKIPPED"
    assert len(ingests) == 2  # the first upload and the third (which found its bytes indexed)
    record = world.record(KEY)
    assert record is not None and record.sha256 == hashlib.sha256(build_pdf(POLICY)).hexdigest()
    assert REVISED[0][0] not in hits_text(world.deps.index.search(TENANT, "14 days destroyed", 5))
    assert world.chunks() == record.chunks


def test_an_unversioned_bucket_is_keyed_on_the_sequencer(
    make_world: Callable[..., World], ingests: list[str]
) -> None:
    # GIVEN a bucket without versioning: its events carry no versionId
    world = make_world(versioned=False)
    handler = world.handler()
    first = world.upload(KEY, build_pdf(POLICY))
    assert "versionId" not in first["Records"][0]["s3"]["object"]

    # WHEN an upload's event comes twice, then an overwrite's event
    handler(first, LambdaContext())
    handler(copy.deepcopy(first), LambdaContext())
    handler(world.upload(KEY, build_pdf(REVISED)), LambdaContext())

    # THEN each upload was ingested once, and the version is named by the content
    assert ingests == ["data retention.pdf", "data retention.pdf"]
    record = world.record(KEY)
    assert record is not None and record.pages == 1
    assert record.version == record.sha256[:16]


def test_an_event_for_a_version_deleted_since_is_skipped(world: World) -> None:
    # GIVEN an upload whose version was permanently deleted before its event is handled
    event = world.upload(KEY, build_pdf(POLICY))
    version_id = event["Records"][0]["s3"]["object"]["versionId"]
    world.s3.delete_object(Bucket=BUCKET, Key=KEY, VersionId=version_id)

    # WHEN the event is handled
    result = world.handler()(event, LambdaContext())

    # THEN nothing is ingested and the function says why, without failing
    (summary,) = result["documents"]
    assert (
        summary["status"] == "SKIPPED" and summary["reason"] == "the object is gone from the bucket"
    )
    assert world.record(KEY) is None and world.chunks() == 0


# --- ObjectRemoved ---------------------------------------------------------------------------


def test_a_removed_object_loses_its_chunks_and_leaves_a_tombstone(world: World) -> None:
    # GIVEN an indexed document
    handler = world.handler()
    created = world.upload(KEY, build_pdf(POLICY))
    handler(created, LambdaContext())
    indexed = world.record(KEY)
    assert indexed is not None and world.chunks() > 0

    # WHEN it is deleted from the bucket (a delete marker) and the event arrives, twice
    removed = world.delete(KEY)
    result = handler(removed, LambdaContext())
    handler(copy.deepcopy(removed), LambdaContext())

    # THEN its chunks are gone and its record is a DELETED tombstone that still names the file
    # and the version that was indexed, so old answers can show it as deleted
    assert world.chunks() == 0
    tombstone = world.record(KEY)
    assert tombstone is not None
    assert tombstone.status is DocumentStatus.DELETED
    assert (tombstone.file_name, tombstone.version, tombstone.sha256) == (
        indexed.file_name,
        indexed.version,
        indexed.sha256,
    )
    assert tombstone.chunks == 0 and tombstone.pages == indexed.pages
    assert result["documents"][0]["status"] == "DELETED"
    # AND the original version is still in the bucket, behind the delete marker
    versions = world.s3.list_object_versions(Bucket=BUCKET, Prefix=KEY)["Versions"]
    assert [v["VersionId"] for v in versions] == [
        created["Records"][0]["s3"]["object"]["versionId"]
    ]


def test_a_removed_event_overtaken_by_a_new_upload_changes_nothing(world: World) -> None:
    # GIVEN a document deleted and uploaded again before the delete's event is handled
    handler = world.handler()
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())
    removed = world.delete(KEY)
    handler(world.upload(KEY, build_pdf(REVISED)), LambdaContext())
    chunks = world.chunks()

    # WHEN the late ObjectRemoved event is handled
    result = handler(removed, LambdaContext())

    # THEN the document stays indexed: the key holds an object again
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.INDEXED
    assert world.chunks() == chunks > 0
    assert result["documents"][0]["status"] == "SKIPPED"


def test_an_older_upload_arriving_after_the_removal_stays_deleted(world: World) -> None:
    # GIVEN the policy indexed, a revision uploaded, then the key deleted; the delete's event
    # handled before the revision's
    handler = world.handler()
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())
    revision = world.upload(KEY, build_pdf(REVISED))
    removed = world.delete(KEY)
    handler(removed, LambdaContext())

    # WHEN the revision's event arrives late (its version is still in the bucket)
    result = handler(revision, LambdaContext())

    # THEN the document stays DELETED with no chunks, and the skip is returned
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.DELETED
    assert record.sequencer == removed["Records"][0]["s3"]["object"]["sequencer"]
    assert world.chunks() == 0
    assert result["documents"][0]["status"] == "SKIPPED"


def test_a_later_removal_of_a_deleted_document_advances_its_sequencer(world: World) -> None:
    # GIVEN a document indexed, then deleted (its tombstone written)
    handler = world.handler()
    handler(world.upload(KEY, build_pdf(POLICY)), LambdaContext())
    handler(world.delete(KEY), LambdaContext())
    tombstone = world.record(KEY)

    # WHEN the key is deleted again (a second delete marker) and its event handled
    again = world.delete(KEY)
    handler(again, LambdaContext())

    # THEN the tombstone is unchanged but for the sequencer, now the later event's
    record = world.record(KEY)
    assert record is not None and tombstone is not None
    assert record.sequencer == again["Records"][0]["s3"]["object"]["sequencer"]
    assert record.model_copy(update={"sequencer": tombstone.sequencer}) == tombstone


def test_a_removal_handled_before_the_only_upload_leaves_a_tombstone(world: World) -> None:
    # GIVEN an upload and its deletion, the deletion's event handled first
    handler = world.handler()
    created = world.upload(KEY, build_pdf(POLICY))
    result = handler(world.delete(KEY), LambdaContext())
    assert result["documents"][0]["status"] == "DELETED"

    # WHEN the upload's event arrives
    handler(created, LambdaContext())

    # THEN nothing is indexed: the tombstone's sequencer outranks the upload's
    record = world.record(KEY)
    assert record is not None and record.status is DocumentStatus.DELETED
    assert record.reason == "removed from the bucket before it was indexed"
    assert world.chunks() == 0


# --- files that cannot be read, and failures -------------------------------------------------


def test_a_broken_pdf_ends_failed_and_stays_in_the_bucket(world: World, corrupt_pdf: bytes) -> None:
    # GIVEN a truncated PDF uploaded
    event = world.upload("policies/cut-short.pdf", corrupt_pdf)

    # WHEN its event is handled
    result = world.handler()(event, LambdaContext())

    # THEN it is FAILED with the reason, no chunk exists, and the original is untouched
    record = world.record("policies/cut-short.pdf")
    assert record is not None and record.status is DocumentStatus.FAILED
    assert record.reason is not None and record.reason.startswith("not a readable PDF: ")
    assert result["documents"][0]["reason"] == record.reason
    assert world.chunks() == 0
    body = world.s3.get_object(Bucket=BUCKET, Key="policies/cut-short.pdf")["Body"].read()
    assert body == corrupt_pdf


class RecordingTextract:
    """moto's Textract client, recording the documents text detection was started on."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.started: list[dict[str, Any]] = []

    def start_document_text_detection(self, **arguments: Any) -> Any:
        self.started.append(arguments["DocumentLocation"]["S3Object"])
        return self.client.start_document_text_detection(**arguments)

    def get_document_text_detection(self, **arguments: Any) -> Any:
        return self.client.get_document_text_detection(**arguments)


def test_a_scanned_upload_is_read_by_textract_from_its_s3_version(
    world: World, boto_session: boto3.session.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a scan (no text layer) uploaded, and Textract answering with the words on it
    original = build_pdf(POLICY[:2])
    scan = scanned_copy(original, seed=5)
    monkeypatch.setattr(TextractBackend, "BLOCKS", textract_blocks(parse_pdf(original, words=True)))
    monkeypatch.setattr(TextractBackend, "JOB_STATUS", "SUCCEEDED")
    textract = RecordingTextract(boto_session.client("textract"))
    world.deps = dataclasses.replace(world.deps, ocr=TextractOcr(textract, poll_seconds=0))  # type: ignore[arg-type]
    event = world.upload("policies/scanned.pdf", scan)

    # WHEN the ingest function handles its event
    world.handler()(event, LambdaContext())

    # THEN one Textract job read exactly the uploaded version of the object
    version = event["Records"][0]["s3"]["object"]["versionId"]
    assert textract.started == [
        {"Bucket": BUCKET, "Name": "policies/scanned.pdf", "Version": version}
    ]
    # AND the document is INDEXED with both pages read by OCR, confidence and engine recorded
    record = world.record("policies/scanned.pdf")
    assert record is not None and record.status is DocumentStatus.INDEXED, record
    assert [(p.page, p.engine, p.confidence) for p in record.ocr_pages] == [
        (1, "textract", 0.991),
        (2, "textract", 0.991),
    ]
    # AND the words are searchable, their chunks marked as read by OCR, boxes on the words
    (hit,) = world.deps.index.search(TENANT, "invoices tax law", 1)
    assert hit.chunk.ocr_confidence == 0.991
    sentence = next(s for s in hit.chunk.sentences if s.text == POLICY[1][0])
    (printed,) = [s for s in parse_pdf(original).pages[1].sentences if s.text == POLICY[1][0]]
    assert [(b.page, b.x0, b.y1) for b in sentence.boxes] == [
        (2, b.x0, b.y1) for b in printed.boxes
    ]


class FailingOnce(DelegatingIndex):
    """The real index, except that index() raises for one document until told to stop."""

    def __init__(self, inner: SearchIndex) -> None:
        super().__init__(inner)
        self.fail_doc: str | None = None

    def index(self, chunks: Sequence[Chunk]) -> int:
        if self.fail_doc is not None and any(c.doc_id == self.fail_doc for c in chunks):
            raise RuntimeError("search cluster unavailable")
        return self.inner.index(chunks)


def test_a_failing_record_does_not_stop_the_others_and_is_retried_alone(
    make_world: Callable[..., World], ingests: list[str], tmp_path: Path
) -> None:
    # GIVEN one event with two records, and an index that fails for the first document
    from certiq.adapters.local.fts_index import SqliteSearchIndex
    from certiq.adapters.local.sqlite_db import SqliteDatabase

    index = FailingOnce(SqliteSearchIndex(SqliteDatabase(tmp_path / "index")))
    world = make_world(index=index)
    first, second = "policies/first.pdf", "policies/second.pdf"
    event = world.upload(first, build_pdf(POLICY))
    event["Records"] += world.upload(second, build_pdf(REVISED))["Records"]
    index.fail_doc = doc_id_for(TENANT, f"s3://{BUCKET}/{first}")
    handler = world.handler()

    # WHEN the function runs: the first record fails, the second is still ingested, and the
    # invocation fails so that Lambda retries it
    with pytest.raises(RuntimeError, match="search cluster unavailable"):
        handler(event, LambdaContext())
    failed, done = world.record(first), world.record(second)
    assert failed is not None and failed.status is DocumentStatus.FAILED
    assert failed.reason is not None and "search cluster unavailable" in failed.reason
    assert done is not None and done.status is DocumentStatus.INDEXED

    # WHEN Lambda retries the event once the index is back
    index.fail_doc = None
    result = handler(copy.deepcopy(event), LambdaContext())

    # THEN only the failed record is ingested again, and both are INDEXED
    assert ingests == ["first.pdf", "second.pdf", "first.pdf"]
    assert [d["status"] for d in result["documents"]] == ["INDEXED", "INDEXED"]
    record = world.record(first)
    assert record is not None and record.chunks == index.count(TENANT) - done.chunks


def hits_text(hits: list[SearchHit]) -> list[str]:
    return [hit.chunk.text for hit in hits]


# --- functions/ingest/app.py itself, deps from bootstrap -------------------------------------


def load_ingest_app() -> ModuleType:
    """functions/ingest/app.py as Lambda loads it (a fresh module: no warm state)."""
    spec = importlib.util.spec_from_file_location(
        "certiq_ingest_app", ROOT / "functions" / "ingest" / "app.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lambda_entry_point_indexes_once_through_bootstrap(
    make_world: Callable[..., World],
    opensearch_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    ingests: list[str],
) -> None:
    from certiq.config import get_settings
    from certiq.runtime import lambda_handlers

    # GIVEN the stack's resources (moto, a real OpenSearch node) and the function's
    # environment as template.yaml sets it
    world = make_world()
    for name, value in {
        "CERTIQ_RUNTIME": "aws",
        "CERTIQ_HOME": str(tmp_path / "lambda-home"),
        "CERTIQ_AWS__REGION": REGION,
        "CERTIQ_AWS__BUCKET": BUCKET,
        "CERTIQ_AWS__DOCUMENTS_TABLE": "certiq-documents",
        "CERTIQ_AWS__QUESTIONS_TABLE": "certiq-questions",
        "CERTIQ_AWS__CERTIFICATES_TABLE": "certiq-certificates",
        "CERTIQ_AWS__KMS_KEY_ID": "alias/certiq-unused-by-ingest",
        "CERTIQ_AWS__IDEMPOTENCY_TABLE": world.idempotency_table,
        "CERTIQ_OPENSEARCH__ENDPOINT": opensearch_url,
        "CERTIQ_EMBEDDING__PROVIDER": "none",
    }.items():
        monkeypatch.setenv(name, value)
    for cached in (
        get_settings,
        lambda_handlers.container_deps,
        lambda_handlers.container_idempotency_store,
    ):
        cached.cache_clear()
    app = load_ingest_app()
    event = world.upload(KEY, build_pdf(POLICY))

    try:
        # WHEN Lambda invokes the handler with the event, and S3 delivers it again
        first = app.lambda_handler(event, LambdaContext())
        second = app.lambda_handler(copy.deepcopy(event), LambdaContext())

        # THEN the document is INDEXED once, its chunks in OpenSearch
        (summary,) = first["documents"]
        assert summary["status"] == "INDEXED"
        assert first == second and ingests == ["data retention.pdf"]
        deps = lambda_handlers.container_deps()
        assert type(built(deps.index)).__name__ == "OpenSearchIndex"
        record = world.record(KEY)
        assert record is not None and record.status is DocumentStatus.INDEXED
        assert deps.index.count(TENANT) == record.chunks > 0
    finally:
        for cached in (
            get_settings,
            lambda_handlers.container_deps,
            lambda_handlers.container_idempotency_store,
        ):
            cached.cache_clear()
