"""SqsRecheckQueue under moto: one message per certificate, each parsing back to its request."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from certiq.adapters.aws.sqs_rechecks import SqsRecheckQueue
from certiq.errors import TransientError
from certiq.models import RecheckRequest
from certiq.ports import RecheckQueue
from tests.contract.conftest import Aws

REQUESTED_AT = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)


def requests(count: int) -> list[RecheckRequest]:
    return [
        RecheckRequest(
            tenant="acme",
            certificate_id=f"cert-{n:05d}",
            doc_id="doc-policy",
            requested_at=REQUESTED_AT,
        )
        for n in range(count)
    ]


def drain(sqs: Any, url: str) -> list[RecheckRequest]:
    found: list[RecheckRequest] = []
    while messages := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
        for message in messages:
            found.append(RecheckRequest.model_validate_json(message["Body"]))
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return found


@pytest.fixture
def sqs(aws: Aws) -> Any:
    return boto3.client("sqs", region_name="us-east-1")


def test_every_request_is_one_message_that_parses_back(aws: Aws, sqs: Any) -> None:
    # GIVEN a queue and more requests than one SendMessageBatch takes
    url = sqs.create_queue(QueueName="certiq-rechecks")["QueueUrl"]
    queue: RecheckQueue = SqsRecheckQueue(sqs, url)
    sent = requests(23)

    # WHEN they are submitted
    queue.submit(sent)

    # THEN the queue holds one message per certificate, each its request
    received = drain(sqs, url)
    assert sorted(received, key=lambda r: r.certificate_id) == sent


def test_nothing_to_submit_sends_nothing(aws: Aws, sqs: Any) -> None:
    # GIVEN a queue
    url = sqs.create_queue(QueueName="certiq-rechecks")["QueueUrl"]
    # WHEN no request is submitted
    SqsRecheckQueue(sqs, url).submit([])
    # THEN the queue is empty
    assert drain(sqs, url) == []


class RefusingSqs:
    """A client whose batch send refuses one entry, as SQS may for an entry alone."""

    def __init__(self) -> None:
        self.batches: list[list[Any]] = []

    def send_message_batch(self, QueueUrl: str, Entries: list[Any]) -> dict[str, Any]:
        self.batches.append(Entries)
        return {
            "Successful": [{"Id": e["Id"]} for e in Entries[1:]],
            "Failed": [{"Id": Entries[0]["Id"], "Code": "InternalError", "SenderFault": False}],
        }


def test_an_entry_sqs_refuses_is_raised_as_transient() -> None:
    # GIVEN a queue that refuses one entry of the batch
    client = RefusingSqs()
    queue = SqsRecheckQueue(client, "https://sqs.us-east-1.amazonaws.com/1/q")  # type: ignore[arg-type]
    # WHEN requests are submitted
    # THEN the caller hears that they were not all queued, and why
    with pytest.raises(TransientError, match="1 of 3 re-check messages were not queued"):
        queue.submit(requests(3))
    assert len(client.batches) == 1


def test_a_missing_queue_is_not_retried_as_transient(aws: Aws, sqs: Any) -> None:
    # GIVEN a queue URL that names no queue
    queue = SqsRecheckQueue(sqs, "https://sqs.us-east-1.amazonaws.com/123456789012/none")
    # WHEN requests are submitted
    # THEN the AWS error propagates unchanged (not a TransientError)
    with pytest.raises(Exception) as raised:
        queue.submit(requests(1))
    assert not isinstance(raised.value, TransientError)
