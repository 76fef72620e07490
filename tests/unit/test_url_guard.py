"""The SSRF guard of the URL checker: a battery of attempts, all refused before any request.

DNS is a fake resolver and HTTP an in-memory transport that records what reaches it, so a test
can prove that a refused URL never produced a request.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import httpx
import pytest

from certiq.config import UrlCheckSettings
from certiq.guardrails.urls import GuardedUrlChecker, address_refusal, urls_in

pytestmark = pytest.mark.unit

PUBLIC = "93.184.216.34"

FAKE_DNS: dict[str, list[str]] = {
    "public.example": [PUBLIC],
    "www.public.example": [PUBLIC],
    "metadata.google.internal": ["169.254.169.254"],
    "metadata-alias.example": ["169.254.169.254"],
    "rebind.example": ["10.0.0.5"],
    "mixed.example": [PUBLIC, "127.0.0.1"],
    "v6-loopback.example": ["::1"],
    "127.0.0.1.nip.example": ["127.0.0.1"],
    "ula.example": ["fd00:ec2::254"],
    "mapped.example": ["::ffff:192.168.0.1"],
}


def fake_resolver(host: str, port: int) -> Sequence[str]:
    if host not in FAKE_DNS:
        raise OSError(f"[Errno -2] Name or service not known: {host}")
    return FAKE_DNS[host]


class RecordingTransport(httpx.BaseTransport):
    """An in-memory web: ``routes`` maps a path to (status, headers); every request is kept."""

    def __init__(self, routes: dict[str, tuple[int, dict[str, str]]]) -> None:
        self.routes = routes
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        status, headers = self.routes.get(request.url.path, (404, {}))
        return httpx.Response(status, headers=headers, content=b"<title>ok</title>")


def checker(
    transport: RecordingTransport, settings: UrlCheckSettings | None = None
) -> GuardedUrlChecker:
    return GuardedUrlChecker(
        settings or UrlCheckSettings(), resolver=fake_resolver, transport=transport
    )


# Each is refused before a request is sent: written forms of loopback, private, link-local,
# metadata and unspecified addresses, names resolving to them, other schemes, credentials,
# odd ports and malformed URLs.
DIRECT_ATTEMPTS = [
    "http://127.0.0.1/",
    "http://127.0.0.1:80/admin",
    "http://localhost/",
    "http://LOCALHOST./",
    "https://localhost:443/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://0/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[::ffff:169.254.169.254]/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://169.254.170.2/v2/credentials",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.100.100.200/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata/computeMetadata/v1/",
    "http://metadata-alias.example/latest/",
    "http://rebind.example/",
    "http://mixed.example/",
    "http://v6-loopback.example/",
    "http://127.0.0.1.nip.example/",
    "http://ula.example/",
    "http://mapped.example/",
    "http://10.0.0.1/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://198.18.0.1/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://[fe80::1]/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://example.com@127.0.0.1/",
    "http://public.example@169.254.169.254/",
    "http://user:secret@public.example/",
    "http://public.example:22/",
    "http://public.example:6379/",
    "https://public.example:8443/",
    "file:///etc/passwd",
    "file://localhost/etc/passwd",
    "gopher://127.0.0.1:70/_GET%20/",
    "ftp://public.example/file.txt",
    "dict://127.0.0.1:11211/stat",
    "ldap://127.0.0.1/",
    "data:text/html,<script>alert(1)</script>",
    "javascript:alert(1)",
    "http:\\\\127.0.0.1\\admin",
    "http://127.0.0.1 /",
    "http://①②⑦.0.0.1/",
    "http://service.internal/",
    "http://printer.local/",
    "//127.0.0.1/",
]

# A public page redirects (302) into refused space: the hop is refused, never requested.
REDIRECT_ATTEMPTS = [
    "http://127.0.0.1/admin",
    "http://localhost:8080/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://10.1.2.3/internal",
    "http://rebind.example/",
    "http://metadata.google.internal/",
    "file:///etc/passwd",
    "gopher://127.0.0.1/_x",
    "//127.0.0.1/relative-scheme",
]


@pytest.mark.parametrize("url", DIRECT_ATTEMPTS)
def test_ssrf_attempt_is_refused_before_any_request(url: str) -> None:
    # GIVEN a checker over a recording in-memory web
    transport = RecordingTransport({"/": (200, {})})
    # WHEN the URL is checked
    verdict = checker(transport).check(url)
    # THEN it is refused with a reason, and nothing was sent anywhere
    assert not verdict.allowed and not verdict.reachable
    assert verdict.reason.startswith("refused:")
    assert transport.requests == []


@pytest.mark.parametrize("location", REDIRECT_ATTEMPTS)
def test_redirect_into_refused_space_is_refused_at_that_hop(location: str) -> None:
    # GIVEN a public page that redirects to a refused target
    transport = RecordingTransport({"/go": (302, {"location": location})})
    # WHEN it is checked
    verdict = checker(transport).check("http://public.example/go")
    # THEN the verdict is refused, naming the redirect, and only the public hop was requested
    # (once for HEAD, once for GET)
    assert not verdict.allowed and not verdict.reachable
    assert "redirect 1" in verdict.reason
    assert {str(request.url.host) for request in transport.requests} == {PUBLIC}


def test_the_battery_is_at_least_25_attempts_and_all_are_refused() -> None:
    # GIVEN every attempt of the battery
    refused = 0
    for url in DIRECT_ATTEMPTS:
        refused += not checker(RecordingTransport({})).check(url).allowed
    for location in REDIRECT_ATTEMPTS:
        transport = RecordingTransport({"/go": (302, {"location": location})})
        refused += not checker(transport).check("http://public.example/go").allowed
    # THEN 100% are refused
    total = len(DIRECT_ATTEMPTS) + len(REDIRECT_ATTEMPTS)
    assert total >= 25
    assert refused == total


def test_request_goes_to_the_checked_address_with_the_name_as_host_header() -> None:
    # GIVEN a public name
    transport = RecordingTransport({"/page": (200, {})})
    # WHEN it is checked
    verdict = checker(transport).check("http://public.example/page")
    # THEN the connection is to the address the guard checked, not to a second DNS answer
    assert verdict.allowed and verdict.reachable and verdict.status == 200
    (request,) = transport.requests
    assert request.url.host == PUBLIC
    assert request.headers["host"] == "public.example"
    assert request.method == "HEAD"


def test_head_failure_falls_back_to_get() -> None:
    # GIVEN a server that refuses HEAD with 405 but serves GET
    class HeadRefused(RecordingTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            if request.method == "HEAD":
                return httpx.Response(405)
            return httpx.Response(200, content=b"<title>Backups</title>")

    transport = HeadRefused({})
    verdict = checker(transport).check("http://public.example/doc")
    # THEN GET decides, and the link is reachable
    assert [request.method for request in transport.requests] == ["HEAD", "GET"]
    assert verdict.reachable and verdict.status == 200


def test_more_than_the_allowed_redirects_is_not_reachable() -> None:
    # GIVEN a redirect loop
    transport = RecordingTransport({"/loop": (302, {"location": "/loop"})})
    settings = UrlCheckSettings(max_redirects=3)
    verdict = checker(transport, settings).check("http://public.example/loop")
    # THEN the checker stops after max_redirects hops for HEAD and for GET
    assert verdict.allowed and not verdict.reachable
    assert "more than 3 redirects" in verdict.reason
    assert len(transport.requests) == 2 * 4


def test_allowlist_refuses_other_domains_and_accepts_subdomains() -> None:
    settings = UrlCheckSettings(allowed_domains=["public.example"])
    transport = RecordingTransport({"/": (200, {})})
    assert checker(transport, settings).check("http://www.public.example/").reachable
    verdict = checker(transport, settings).check("http://other.example/")
    assert not verdict.allowed and "allowed domains" in verdict.reason


def test_allowed_port_passes() -> None:
    settings = UrlCheckSettings(allowed_ports=[8443])
    transport = RecordingTransport({"/": (200, {})})
    verdict = checker(transport, settings).check("https://public.example:8443/")
    assert verdict.allowed
    assert transport.requests[0].headers["host"] == "public.example:8443"


@pytest.mark.parametrize(
    ("address", "fragment"),
    [
        ("127.0.0.1", "loopback"),
        ("169.254.169.254", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("10.0.0.1", "private"),
        ("fe80::1", "link-local"),
        ("::ffff:10.0.0.1", "IPv6 form"),
        ("0.0.0.0", "unspecified"),
    ],
)
def test_address_refusal_names_the_reason(address: str, fragment: str) -> None:
    reason = address_refusal(ipaddress.ip_address(address))
    assert reason is not None and fragment in reason


def test_public_addresses_pass() -> None:
    for address in (PUBLIC, "8.8.8.8", "2606:4700:4700::1111"):
        assert address_refusal(ipaddress.ip_address(address)) is None


def test_urls_in_text_leave_citation_markers_and_punctuation_out() -> None:
    text = "See https://example.com/policy.pdf [C1], or http://example.org/a?b=1. Also (https://x.example)."
    assert urls_in(text) == [
        "https://example.com/policy.pdf",
        "http://example.org/a?b=1",
        "https://x.example",
    ]
