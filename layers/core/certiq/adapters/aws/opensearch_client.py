"""Builds the opensearch-py client for settings.opensearch.

How requests are authenticated (settings.opensearch.auth):
- ``auto``: https endpoints (an OpenSearch Service domain) are signed with SigV4 ("es") using the
  role's credentials from boto3, over RequestsHttpConnection as opensearch-py documents for
  AWSV4SignerAuth; http endpoints (a node on 127.0.0.1, `make opensearch`) are not signed.
- ``sigv4``, ``basic`` (username and password: a self-hosted cluster's security plugin) or
  ``none``, whatever the scheme. Basic auth is refused over http: the password would travel in
  clear.

An OpenSearch Serverless collection (*.aoss.amazonaws.com) is refused with the reason: its
vector collections refuse the custom document ids (tenant:chunk_id) that make re-indexing
idempotent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final
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
    """A client for settings.endpoint; SigV4 ``credentials`` default to boto3's chain."""
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
    https = url.scheme == "https"
    auth = settings.auth if settings.auth != "auto" else ("sigv4" if https else "none")
    options: dict[str, Any] = {
        "hosts": [{"host": url.hostname, "port": url.port or (443 if https else 80)}],
        "use_ssl": https,
        "timeout": REQUEST_TIMEOUT,
        "max_retries": TRANSPORT_RETRIES,
        "retry_on_timeout": True,
    }
    if https:
        options["verify_certs"] = True
        if settings.ca_certs is not None:
            options["ca_certs"] = str(settings.ca_certs)
    if auth == "basic":
        if not https:
            raise ValueError("basic auth needs an https endpoint: the password would go in clear")
        if not settings.username:
            raise ValueError("basic auth needs CERTIQ_OPENSEARCH__USERNAME")
        options["http_auth"] = (settings.username, settings.password.get_secret_value())
    elif auth == "sigv4":
        if credentials is None:
            import boto3

            credentials = boto3.Session().get_credentials()
            if credentials is None:
                raise ValueError("no AWS credentials to sign OpenSearch requests with")
        options["http_auth"] = AWSV4SignerAuth(credentials, region, "es")
        options["connection_class"] = RequestsHttpConnection
        options["pool_maxsize"] = 10
    return OpenSearch(**options)
