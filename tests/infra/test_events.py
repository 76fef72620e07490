"""The sample S3 notifications are what S3 sends to IngestFunction, and what it can parse."""

from __future__ import annotations

import copy
import fnmatch
import json
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import pytest
from aws_lambda_powertools.utilities.parser.models import S3Model
from cfnlint.decode import decode
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "infra" / "events"
CREATED = EVENTS / "s3_object_created.json"
REMOVED = EVENTS / "s3_object_removed.json"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    data, matches = decode(ROOT / "template.yaml")
    assert not matches, [str(m) for m in matches]
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("path", [CREATED, REMOVED], ids=lambda p: p.name)
def test_sample_event_parses_with_the_powertools_s3_model(path: Path) -> None:
    # GIVEN a sample notification as S3 sends it
    event = load(path)
    # WHEN the Powertools parser reads it, as functions/ingest does
    parsed = S3Model.model_validate(event)
    # THEN it is one aws:s3 record, schema 2.1, about a .pdf object
    (record,) = parsed.Records
    assert (record.eventSource, record.eventVersion) == ("aws:s3", "2.1")
    assert record.s3.object is not None
    assert record.s3.object.key.endswith(".pdf")


def test_parser_refuses_an_event_missing_what_s3_always_sends() -> None:
    # GIVEN the created event without responseElements (as moto's notifications come)
    event = copy.deepcopy(load(CREATED))
    del event["Records"][0]["responseElements"]
    # WHEN it is parsed THEN the model refuses it: the samples' completeness is what passes
    with pytest.raises(ValidationError):
        S3Model.model_validate(event)


def test_created_event_is_a_put_with_size_etag_and_an_url_encoded_key() -> None:
    # GIVEN the created event
    (record,) = S3Model.model_validate(load(CREATED)).Records
    obj = record.s3.object
    assert obj is not None
    # THEN it reports a PUT of a versioned object with its size and eTag
    assert record.eventName == "ObjectCreated:Put"
    assert obj.size and obj.eTag and obj.versionId and obj.sequencer
    # AND the key is URL-encoded the way S3 encodes it (a space becomes "+")
    assert obj.key == "policies/data+retention.pdf"
    assert unquote_plus(obj.key) == "policies/data retention.pdf"


def test_removed_event_is_the_delete_marker_of_the_same_object() -> None:
    # GIVEN both events
    (created,) = S3Model.model_validate(load(CREATED)).Records
    (removed,) = S3Model.model_validate(load(REMOVED)).Records
    assert created.s3.object is not None and removed.s3.object is not None
    # THEN the removal is what a versioned bucket reports for a DELETE: a delete marker, no size
    assert removed.eventName == "ObjectRemoved:DeleteMarkerCreated"
    assert removed.s3.object.size is None and removed.s3.object.eTag is None
    # AND it is about the object the created event put, and happened later
    assert (removed.s3.bucket.name, removed.s3.object.key) == (
        created.s3.bucket.name,
        created.s3.object.key,
    )
    assert removed.eventTime > created.eventTime


@pytest.mark.parametrize("path", [CREATED, REMOVED], ids=lambda p: p.name)
def test_sample_event_is_one_the_stack_would_deliver(path: Path, template: dict[str, Any]) -> None:
    # GIVEN the ingest function's S3 subscription and the bucket's name pattern
    subscription = template["Resources"]["IngestFunction"]["Properties"]["Events"]
    (event_source,) = subscription.values()
    patterns = event_source["Properties"]["Events"]
    (rule,) = event_source["Properties"]["Filter"]["S3Key"]["Rules"]
    name_pattern = template["Resources"]["DocumentsBucket"]["Properties"]["BucketName"]["Fn::Sub"]
    samconfig = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    stack = samconfig["default"]["global"]["parameters"]["stack_name"]
    (record,) = S3Model.model_validate(load(path)).Records
    assert record.s3.object is not None
    # THEN the event's name is one the subscription asks for
    assert any(fnmatch.fnmatchcase(f"s3:{record.eventName}", p) for p in patterns)
    # AND its key passes the suffix filter
    assert rule["Name"] == "suffix" and record.s3.object.key.endswith(rule["Value"])
    # AND its bucket is the one the stack names, in the event's region
    bucket_regex = (
        re.escape(name_pattern)
        .replace(re.escape("${AWS::StackName}"), re.escape(stack))
        .replace(re.escape("${AWS::AccountId}"), r"\d{12}")
        .replace(re.escape("${AWS::Region}"), re.escape(record.awsRegion))
    )
    assert re.fullmatch(bucket_regex, record.s3.bucket.name)
    assert record.s3.bucket.arn == f"arn:aws:s3:::{record.s3.bucket.name}"
