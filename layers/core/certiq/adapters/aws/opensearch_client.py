"""Builds the opensearch-py client for settings.opensearch.

https endpoints (an OpenSearch Service domain) are signed with SigV4 ("es") using the Lambda
role's credentials from boto3, over RequestsHttpConnection as opensearch-py documents for
AWSV4SignerAuth. http endpoints are for a local engine (tests run osmem-server on 127.0.0.1) and
are not signed: nothing secret is sent in clear. An OpenSearch Serverless collection
(*.aoss.amazonaws.com) is refused with the reason: its vector collections refuse the custom
document ids (tenant:chunk_id) that make re-indexing idempotent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from opensearchpy import AWSV4SignerAuth, OpenSearch, RequestsHttpConnection

from certiq.config import OpenSearchSettings

if TYPE_CHECKING:
    from botocore.credentials import Credentials

SERVERLESS_HOST_SUFFIX: Final = ".aoss.amazonaws.com"
# Seconds per HTTP request; a Lambda has minutes, an answer step should not wait longer.
REQUEST_TIMEOUT: Final = 20.0
# opensearch-py's own retries of a request on connection errors and 502/503/504.
TRANSPORT_RETRIES: Final = 2


def make_client(
    settings: OpenSearchSettings, region: str, *, credentials: Credentials | None = None
) -> OpenSearch:
    """A client for settings.endpoint; ``credentials`` default to boto3's chain (https only)."""
    url = urlsplit(settings.endpoint)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise ValueError(f"OpenSearch endpoint must be an http(s) URL, got {settings.endpoint!r}")
    if url.path not in ("", "/") or url.query or url.fragment:
        raise ValueError(f"OpenSearch endpoint must have no path, got {settings.endpoint!r}")
    if url.hostname.lower().endswith(SERVERLESS_HOST_SUFFIX):
        raise ValueError(
            "OpenSearch Serverless is not supported: its vector collections refuse the custom"
            " document ids certiq re-indexes by; use an OpenSearch Service domain"
        )
    if url.scheme == "http":
        return OpenSearch(
            hosts=[{"host": url.hostname, "port": url.port or 80, "scheme": "http"}],
            timeout=REQUEST_TIMEOUT,
            max_retries=TRANSPORT_RETRIES,
            retry_on_timeout=True,
        )
    if credentials is None:
        import boto3

        credentials = boto3.Session().get_credentials()
        if credentials is None:
            raise ValueError("no AWS credentials to sign OpenSearch requests with")
    auth = AWSV4SignerAuth(credentials, region, "es")
    return OpenSearch(
        hosts=[{"host": url.hostname, "port": url.port or 443}],
        http_auth=auth,
        use_ssl=True,
        verify_certs=True,
        connection_class=RequestsHttpConnection,
        pool_maxsize=10,
        timeout=REQUEST_TIMEOUT,
        max_retries=TRANSPORT_RETRIES,
        retry_on_timeout=True,
    )
