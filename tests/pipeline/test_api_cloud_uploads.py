"""Uploads and deletions as the api function does them in AWS, on moto S3 (a versioned bucket).

The API stores a posted PDF in the bucket, or hands out a presigned POST for the client to send
it there itself; the bucket's ObjectCreated notification ingests it. DELETE tombstones the
document at once and puts a delete marker on the object, whose versions keep the original.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import boto3
import pytest
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import S3Model
from moto import mock_aws

from certiq.adapters.aws.s3_blobs import S3BlobStore
from certiq.adapters.aws.s3_upload_signer import S3UploadSigner
from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.api.pages import PNG_SIGNATURE
from certiq.api.routes import create_app
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.ingestion.identity import doc_id_for
from certiq.ingestion.s3_events import handle_s3_record
from certiq.runtime.server import to_event
from tests.conftest import build_pdf

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "infra" / "events"
REGION = "us-east-1"
BUCKET = "certiq-documents-test"
FACT = "Laptops are encrypted before they leave the office."


class Context:
    function_name = "certiq-ApiFunction"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:certiq-ApiFunction"
    aws_request_id = "5b0c1a52-8f7e-4c77-9f55-3a1e2d7b9c10"


@dataclasses.dataclass
class Cloud:
    s3: Any
    deps: Deps
    app: APIGatewayRestResolver

    def resolve(
        self, method: str, path: str, body: bytes = b"", content_type: str = "application/pdf"
    ) -> dict[str, Any]:
        """The Lambda proxy result for an API Gateway event (bodies base64, as with "*/*")."""
        event = to_event(method, path, {"content-type": content_type}, body)
        return self.app.resolve(event, Context())  # type: ignore[arg-type]

    def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, Any]:
        result = self.resolve(method, path, body)
        return int(result["statusCode"]), json.loads(result["body"] or "null")

    def object_created(self, key: str) -> None:
        """The ObjectCreated:Put notification S3 sends for the current version of key."""
        head = self.s3.head_object(Bucket=BUCKET, Key=key)
        event = json.loads((EVENTS / "s3_object_created.json").read_text(encoding="utf-8"))
        record = event["Records"][0]
        record["s3"]["bucket"]["name"] = BUCKET
        record["s3"]["bucket"]["arn"] = f"arn:aws:s3:::{BUCKET}"
        record["s3"]["object"] = {
            "key": quote_plus(key, safe="/"),
            "size": head["ContentLength"],
            "eTag": head["ETag"].strip('"'),
            "versionId": head["VersionId"],
            "sequencer": "0000000000000000A1",
        }
        for notification in parse(event=event, model=S3Model).Records:
            handle_s3_record(notification, self.deps)


@pytest.fixture
def cloud(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Cloud]:
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        settings = Settings(home=tmp_path / "home", aws={"bucket": BUCKET, "region": REGION})
        # The local stores for records and the index; S3 for the originals, as in the stack.
        deps = dataclasses.replace(build_deps(settings), blobs=S3BlobStore(s3, BUCKET))
        app = create_app(deps, LocalRuntime(deps), S3UploadSigner(s3, BUCKET))
        yield Cloud(s3, deps, app)


def test_a_presigned_post_pins_the_key_the_type_and_the_size(cloud: Cloud) -> None:
    # WHEN a client asks where to upload a file, sending no body
    status, body = cloud.request("POST", "/v1/documents?file_name=laptops.pdf")

    # THEN it gets a presigned POST for uploads/laptops.pdf in the bucket, and the id to follow
    assert status == 201, body
    target = body["upload"]
    assert BUCKET in target["url"] and target["method"] == "POST"
    assert target["fields"]["key"] == "uploads/laptops.pdf"
    assert target["fields"]["Content-Type"] == "application/pdf"
    max_bytes = cloud.deps.settings.api.max_body_bytes
    assert target["max_bytes"] == max_bytes
    policy = json.loads(base64.b64decode(target["fields"]["policy"]))
    conditions = policy["conditions"]
    assert {"bucket": BUCKET} in conditions and {"key": "uploads/laptops.pdf"} in conditions
    assert ["content-length-range", 1, max_bytes] in conditions
    assert body["doc_id"] == doc_id_for("default", f"s3://{BUCKET}/uploads/laptops.pdf")
    assert body["document"] is None
    # AND until the bucket's event has come, the document is not known
    assert cloud.request("GET", body["status_url"])[0] == 404


def test_a_collection_cannot_ride_on_an_upload_to_the_bucket(cloud: Cloud) -> None:
    # The bucket's event ingests without a collection: refused rather than silently dropped.
    status, body = cloud.request(
        "POST", "/v1/documents?file_name=a.pdf&collection=hr", build_pdf([["Some text."]])
    )
    assert status == 422 and body["detail"][0]["loc"] == ["collection"]


def test_a_posted_pdf_goes_to_the_bucket_and_its_event_ingests_it(cloud: Cloud) -> None:
    # WHEN a PDF is posted through the API
    pdf = build_pdf([["Security rules for equipment.", FACT]])
    status, body = cloud.request("POST", "/v1/documents?file_name=laptops.pdf", pdf)

    # THEN it is stored in the bucket under uploads/, not ingested by the API itself
    assert status == 202, body
    stored = cloud.s3.get_object(Bucket=BUCKET, Key="uploads/laptops.pdf")["Body"].read()
    assert stored == pdf
    assert body["document"] is None

    # WHEN S3 notifies the upload
    cloud.object_created("uploads/laptops.pdf")

    # THEN the document the API named is INDEXED
    status, record = cloud.request("GET", body["status_url"])
    assert (status, record["status"], record["pages"]) == (200, "INDEXED", 1)
    # AND its page renders from the version that was indexed, as a binary Lambda response
    page = cloud.resolve("GET", f"/v1/documents/{body['doc_id']}/pages/1.png")
    assert page["statusCode"] == 200 and page["isBase64Encoded"] is True
    assert base64.b64decode(page["body"]).startswith(PNG_SIGNATURE)


def test_delete_tombstones_at_once_and_the_bucket_keeps_the_original_version(
    cloud: Cloud,
) -> None:
    # GIVEN an uploaded, indexed PDF
    pdf = build_pdf([[FACT]])
    doc_id = cloud.request("POST", "/v1/documents?file_name=laptops.pdf", pdf)[1]["doc_id"]
    cloud.object_created("uploads/laptops.pdf")

    # WHEN it is deleted through the API
    status, tombstone = cloud.request("DELETE", f"/v1/documents/{doc_id}")

    # THEN the record is a DELETED tombstone with no chunks
    assert status == 200, tombstone
    assert (tombstone["status"], tombstone["chunks"]) == ("DELETED", 0)
    assert cloud.deps.index.count("default") == 0
    # AND the object has a delete marker while its version keeps the original
    versions = cloud.s3.list_object_versions(Bucket=BUCKET, Prefix="uploads/laptops.pdf")
    assert [marker["IsLatest"] for marker in versions["DeleteMarkers"]] == [True]
    [version] = versions["Versions"]
    kept = cloud.s3.get_object(
        Bucket=BUCKET, Key="uploads/laptops.pdf", VersionId=version["VersionId"]
    )
    assert kept["Body"].read() == pdf
    # AND its page is gone
    assert cloud.request("GET", f"/v1/documents/{doc_id}/pages/1.png")[0] == 410
