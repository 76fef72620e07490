"""Which AWS failures are worth retrying, raised as certiq.errors.TransientError.

The answer state machine's Retry matches the error name TransientError, so a throttled or failing
AWS call (after botocore's own retries) surfaces under that name with the AWS error as its cause.
Anything else (validation, access denied, missing resources) propagates unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError

from certiq.errors import TransientError

# Throttling and transient codes, as botocore's standard retry mode knows them, plus KMS's own.
RETRYABLE_CODES: Final = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
        "PriorRequestNotComplete",
        "RequestTimeout",
        "RequestTimeoutException",
        "InternalError",
        "InternalFailure",
        "InternalServerError",
        "ServiceUnavailable",
        "KMSInternalException",
        "DependencyTimeoutException",
        "KeyUnavailableException",
    }
)


def error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def is_retryable(error: ClientError) -> bool:
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    return error_code(error) in RETRYABLE_CODES or status == 429 or status >= 500


@contextmanager
def transient_errors(what: str) -> Iterator[None]:
    """Re-raises retryable AWS failures in the block as TransientError; ``what`` names the call."""
    try:
        yield
    except ClientError as error:
        if is_retryable(error):
            raise TransientError(f"{what}: {error}") from error
        raise
    except (BotoConnectionError, HTTPClientError) as error:
        raise TransientError(f"{what}: {error}") from error
