"""Re-checks in the AWS stack, under moto: a cited document changes, the ingest function queues
the re-check of each certificate citing it on the recheck queue (SQS), and the recheck function
(functions/recheck/app.py, invoked through Lambda with the SQS event the event source mapping
sends) appends the signed re-check to the certificates table.

The stack is tests/pipeline/test_aws_stack.py's: template.yaml's tables, queues, key and
functions, the real ASL, a real OpenSearch node.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import boto3

from certiq.adapters.aws.dynamodb_stores import DynamoCertificateStore
from certiq.adapters.aws.kms_signer import KmsSigner
from certiq.models import RecheckRequest, Standing
from certiq.trust.rechecks import check_rechecks
from tests.conftest import build_pdf
from tests.pipeline.test_aws_stack import (
    ACCOUNT,
    REGION,
    STACK,
    Stack,
    ask,
    indexed,
    stack,
)

__all__ = ["indexed", "stack"]  # the moto stack's fixtures, shared

KEY = "policies/data retention.pdf"
REVISED = [["Backups of customer data are now kept for 14 days and then destroyed."]]


def queue_url(stack: Stack) -> str:
    return str(stack.resolve.refs["RecheckQueue"])


def receive_all(stack: Stack) -> list[dict[str, Any]]:
    """Every message on the recheck queue (received, so hidden for the visibility timeout)."""
    client = boto3.client("sqs", region_name=REGION)
    found: list[dict[str, Any]] = []
    while batch := client.receive_message(
        QueueUrl=queue_url(stack), MaxNumberOfMessages=10, AttributeNames=["All"]
    ).get("Messages"):
        found += batch
    return found


def sqs_event(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The event Lambda's SQS event source mapping sends for these messages."""
    arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{STACK}-RecheckQueue"
    return {
        "Records": [
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": message.get("Attributes", {}),
                "messageAttributes": {},
                "md5OfBody": hashlib.md5(message["Body"].encode()).hexdigest(),
                "eventSource": "aws:sqs",
                "eventSourceARN": arn,
                "awsRegion": REGION,
            }
            for message in messages
        ]
    }


def test_a_changed_document_queues_its_certificates_and_the_recheck_function_records_them(
    indexed: Stack,
) -> None:
    stack = indexed
    # GIVEN a certificate sealed through the stack, citing the policy document
    question_id = ask(stack)
    assert stack.finish(question_id) == "SUCCEEDED"
    status, view = stack.api("GET", f"/v1/questions/{question_id}")
    assert status == 200, view
    certificate_id = view["response"]["certificate_id"]
    assert receive_all(stack) == []  # sealing queues nothing

    # WHEN the document is uploaded again with different bytes, through the ingest function
    result = stack.upload(KEY, build_pdf(REVISED))
    assert [d["status"] for d in result["documents"]] == ["INDEXED"]

    # THEN the recheck queue holds one message: the re-check of that certificate
    (message,) = receive_all(stack)
    request = RecheckRequest.model_validate_json(message["Body"])
    assert (request.certificate_id, request.tenant) == (certificate_id, "default")
    certificates = DynamoCertificateStore(stack.dynamodb, stack.table("CertificatesTable"))
    assert certificates.rechecks(certificate_id) == []  # queued, not run inline

    # WHEN Lambda hands it to the recheck function, with a malformed message beside it
    broken = {**message, "MessageId": "broken-1", "Body": "{not json"}
    answer = stack.invoke("RecheckFunction", sqs_event([message, broken]))

    # THEN only the malformed message comes back as failed
    assert answer == {"batchItemFailures": [{"itemIdentifier": "broken-1"}]}
    # AND the certificates table holds the signed re-check: the quote no longer stands as sealed
    (recheck,) = certificates.rechecks(certificate_id)
    assert recheck.standing in {Standing.STALE, Standing.CHANGED}
    assert recheck.certificate_id == certificate_id and recheck.sequence == 1
    certificate = certificates.get(certificate_id)
    assert certificate is not None
    signer = KmsSigner(stack.kms, stack.resolve.refs["CertificateKey"])
    assert [c.valid for c in check_rechecks(certificate, [recheck], signer)] == [True]
    # AND the API shows it
    status, listed = stack.api("GET", f"/v1/certificates/{certificate_id}/rechecks")
    assert status == 200 and [r["standing"] for r in listed] == [recheck.standing.value]

    # WHEN SQS delivers the same message again
    again = stack.invoke("RecheckFunction", sqs_event([message]))
    # THEN it succeeds without a second re-check: the first already saw the change
    assert again == {"batchItemFailures": []}
    assert len(certificates.rechecks(certificate_id)) == 1


def test_a_deleted_document_queues_the_re_checks_of_its_certificates(indexed: Stack) -> None:
    stack = indexed
    # GIVEN a certificate citing the policy document
    question_id = ask(stack)
    assert stack.finish(question_id) == "SUCCEEDED"
    _, view = stack.api("GET", f"/v1/questions/{question_id}")
    certificate_id = view["response"]["certificate_id"]
    documents: Any = stack.api("GET", "/v1/documents")[1]  # a list of records
    (document,) = documents

    # WHEN the document is deleted through the API
    status, tombstone = stack.api("DELETE", f"/v1/documents/{document['doc_id']}")
    assert status == 200 and tombstone["status"] == "DELETED"

    # THEN its certificate's re-check is queued, and run, says the source is gone
    (message,) = receive_all(stack)
    assert json.loads(message["Body"])["certificate_id"] == certificate_id
    assert stack.invoke("RecheckFunction", sqs_event([message])) == {"batchItemFailures": []}
    certificates = DynamoCertificateStore(stack.dynamodb, stack.table("CertificatesTable"))
    (recheck,) = certificates.rechecks(certificate_id)
    assert recheck.standing is Standing.SOURCE_DELETED


def test_a_recheck_asked_through_the_api_is_queued_and_run_by_the_recheck_function(
    indexed: Stack,
) -> None:
    stack = indexed
    # GIVEN a certificate citing the policy document, its source unchanged
    question_id = ask(stack)
    assert stack.finish(question_id) == "SUCCEEDED"
    _, view = stack.api("GET", f"/v1/questions/{question_id}")
    certificate_id = view["response"]["certificate_id"]

    # WHEN a re-check is asked for through the API (whose function neither signs nor searches)
    status, queued = stack.api("POST", f"/v1/certificates/{certificate_id}/recheck")

    # THEN it is accepted and queued, saying where its record will be
    assert status == 202 and queued["certificate_id"] == certificate_id
    assert queued["rechecks_url"] == f"/v1/certificates/{certificate_id}/rechecks"
    (message,) = receive_all(stack)
    assert json.loads(message["Body"])["doc_id"] == ""

    # AND the recheck function signs it: the source is unchanged, so the answer is CURRENT
    assert stack.invoke("RecheckFunction", sqs_event([message])) == {"batchItemFailures": []}
    status, listed = stack.api("GET", f"/v1/certificates/{certificate_id}/rechecks")
    assert status == 200 and [record["standing"] for record in listed] == ["CURRENT"]
