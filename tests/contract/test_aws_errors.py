"""AWS adapters raise retryable failures as TransientError, and let the others through.

moto cannot throttle, so these tests give the adapters a fake client that fails the way AWS does.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError

from certiq.adapters.aws.dynamodb_stores import DynamoCertificateStore
from certiq.adapters.aws.kms_signer import KmsSigner
from certiq.adapters.aws.s3_blobs import S3BlobStore
from certiq.errors import TransientError
from tests.fakes import make_certificate


def client_error(code: str, status: int, operation: str = "Operation") -> ClientError:
    response: dict[str, Any] = {
        "Error": {"Code": code, "Message": f"{code} happened"},
        "ResponseMetadata": {"HTTPStatusCode": status},
    }
    return ClientError(cast(Any, response), operation)


class FailingClient:
    """Any method call raises the given error."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        def call(**_: Any) -> Any:
            self.calls.append(name)
            raise self.error

        return call


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("SlowDown", 503),
        ("ThrottlingException", 400),
        ("ProvisionedThroughputExceededException", 400),
        ("InternalServerError", 500),
        ("KMSInternalException", 500),
        ("SomethingNew", 502),
    ],
)
def test_throttling_and_5xx_become_transient_errors(code: str, status: int) -> None:
    # GIVEN adapters over a client failing with a retryable error
    error = client_error(code, status)
    blobs = S3BlobStore(cast(Any, FailingClient(error)), "bucket")
    certificates = DynamoCertificateStore(cast(Any, FailingClient(error)), "table")
    signer = KmsSigner(cast(Any, FailingClient(error)), "key")

    # WHEN they are used / THEN TransientError is raised with the AWS error as its cause
    for use in (
        lambda: blobs.get("a.pdf"),
        lambda: certificates.append("default", lambda _previous: make_certificate()),
        lambda: signer.sign(b"seal"),
    ):
        with pytest.raises(TransientError) as raised:
            use()
        assert raised.value.__cause__ is error
        assert code in str(raised.value)


def test_a_lost_connection_is_transient() -> None:
    # GIVEN an S3 endpoint that cannot be reached / WHEN used / THEN TransientError
    store = S3BlobStore(
        cast(Any, FailingClient(EndpointConnectionError(endpoint_url="https://s3"))), "b"
    )
    with pytest.raises(TransientError):
        store.put("a.pdf", b"x", "application/pdf")


@pytest.mark.parametrize(("code", "status"), [("AccessDenied", 403), ("ValidationException", 400)])
def test_other_errors_propagate_unchanged(code: str, status: int) -> None:
    # GIVEN a client refusing for a reason retrying will not fix
    error = client_error(code, status)
    store = S3BlobStore(cast(Any, FailingClient(error)), "bucket")

    # WHEN used / THEN the ClientError itself propagates
    with pytest.raises(ClientError) as raised:
        store.get("a.pdf")
    assert raised.value is error
