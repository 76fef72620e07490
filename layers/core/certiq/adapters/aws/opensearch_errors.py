"""OpenSearch failures said in words that name the index and the cluster, never as a client's repr
(see certiq.adapters.aws.opensearch_index): the errors the adapter raises, the translation of
the client's exceptions into them, and the reasons read out of a refusal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from opensearchpy import OpenSearch
from opensearchpy.exceptions import ConnectionError as OpenSearchConnectionError
from opensearchpy.exceptions import ConnectionTimeout, NotFoundError, TransportError

from certiq.errors import ConfigurationError, IngestionError, TransientError


class BulkRejected(IngestionError):
    """Bulk items OpenSearch refused for a reason retrying cannot cure (mapping, size, ...)."""

    def __init__(self, message: str, failures: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.failures = failures


class SearchUnavailable(TransientError):
    """The cluster cannot be reached, timed out, or is throttling or failing (429, 5xx)."""


class SearchIndexMismatch(ConfigurationError):
    """The index is missing, or is not the index certiq writes (mapping, vector dimension)."""


def is_retryable_status(status: object) -> bool:
    return isinstance(status, int) and (status == 429 or status >= 500)


@contextmanager
def opensearch_errors(what: str, where: str = "OpenSearch") -> Iterator[None]:
    """Re-raises connection failures, timeouts, 429 and 5xx in the block as SearchUnavailable.

    ``what`` is the operation, ``where`` the cluster; the message is for a person.
    """
    try:
        yield
    except ConnectionTimeout as error:
        raise SearchUnavailable(f"{what}: {where} did not answer in time") from error
    except OpenSearchConnectionError as error:
        raise SearchUnavailable(
            f"{what}: {where} cannot be reached (is the cluster running?)"
        ) from error
    except TransportError as error:
        if is_retryable_status(error.status_code):
            raise SearchUnavailable(
                f"{what}: {where} answered {error.status_code} ({_reason_of(error)})"
            ) from error
        raise


def _reason_of(error: TransportError) -> str:
    """The server's own reason for a refusal, without the client's wrapping."""
    info = error.info if isinstance(error.info, dict) else {}
    cause = info.get("error")
    if isinstance(cause, dict):
        root = (cause.get("root_cause") or [cause])[0]
        return f"{root.get('type', '')}: {root.get('reason', '')}".strip(": ")
    return str(error.error)


def cluster_address(client: OpenSearch) -> str:
    """``OpenSearch at host:port``, as messages name the cluster."""
    hosts = getattr(getattr(client, "transport", None), "hosts", None) or [{}]
    host = hosts[0]
    if not host.get("host"):
        return "OpenSearch"
    return f"OpenSearch at {host['host']}:{host.get('port', '')}".rstrip(":")


def _is_missing_index(error: TransportError) -> bool:
    return isinstance(error, NotFoundError) and error.error == "index_not_found_exception"


def _reason(error: object) -> str:
    if isinstance(error, dict):
        return f"{error.get('type', '')}: {error.get('reason', '')}"
    return str(error)
