"""The SSRF guard of the URL checker: a battery of attempts, all refused before any request.

DNS is a fake resolver and HTTP an in-memory transport that records what reaches it, so a test
can prove that a refused URL never produced a request.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from certiq.config import UrlCheckSettings
from certiq.evaluation.guardrails import score_ssrf
from certiq.guardrails.urls import GuardedUrlChecker, address_refusal
from certiq.text import urls_in

BATTERY = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "guardrails" / "ssrf.json").read_text(
        encoding="utf-8"
    )
)
PUBLIC: str = BATTERY["public_address"]
FAKE_DNS: dict[str, list[str]] = BATTERY["fake_dns"]
# Each is refused before a request is sent: written forms of loopback, private, link-local,
# metadata and unspecified addresses, names resolving to them, other schemes, credentials,
# odd ports and malformed URLs.
DIRECT_ATTEMPTS: list[str] = BATTERY["direct"]
# A public page redirects (302) into refused space: the hop is refused, never requested.
REDIRECT_ATTEMPTS: list[str] = BATTERY["redirects"]


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
    # GIVEN every attempt of the battery, scored as `make bench` scores it
    score = score_ssrf(BATTERY)
    # THEN there are at least 25 and 100% are refused, none reaching a refused target
    assert score.attempts >= 25
    assert score.refused == score.attempts, score.errors
    assert score.requests_to_refused_targets == 0


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


def test_a_name_that_does_not_resolve_is_a_dead_link_not_a_refusal() -> None:
    transport = RecordingTransport({})
    verdict = checker(transport).check("https://nowhere.example/page")
    assert verdict.allowed and not verdict.reachable
    assert "does not resolve" in verdict.reason
    assert transport.requests == []


PUBLIC_PAYLOADS: list[str] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "guardrails" / "ssrf_public.json").read_text(
        encoding="utf-8"
    )
)["payloads"]


@pytest.mark.parametrize("url", PUBLIC_PAYLOADS)
def test_a_public_ssrf_payload_is_refused_before_any_lookup_or_request(url: str) -> None:
    # GIVEN a checker whose resolver and web record every use
    looked_up: list[str] = []

    def resolver(host: str, port: int) -> Sequence[str]:
        looked_up.append(host)
        return fake_resolver(host, port)

    transport = RecordingTransport({"/": (200, {})})
    guarded = GuardedUrlChecker(UrlCheckSettings(), resolver=resolver, transport=transport)
    # WHEN the payload is checked
    verdict = guarded.check(url)
    # THEN it is refused with a reason; nothing was requested, and no address-like host was
    # looked up (only a name may be: public.example, to find it resolves to its address)
    assert not verdict.allowed and verdict.reason.startswith("refused:"), verdict.reason
    assert transport.requests == []
    assert set(looked_up) <= {"public.example"}


@pytest.mark.parametrize(
    ("address", "block"),
    [
        ("192.0.0.192", "192.0.0.0/24"),
        ("198.18.0.1", "198.18.0.0/15"),
        ("100.64.0.1", "100.64.0.0/10"),
        ("240.0.0.1", "240.0.0.0/4"),
        ("192.88.99.1", "192.88.99.0/24"),
        ("2001:db8::1", "2001:db8::/32"),
        ("fc00::1", "fc00::/7"),
    ],
)
def test_every_iana_special_purpose_block_is_refused_and_named(address: str, block: str) -> None:
    reason = address_refusal(ipaddress.ip_address(address))
    assert reason is not None and block in reason


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        ("64:ff9b::a00:1", True),  # NAT64 of 10.0.0.1
        ("64:ff9b::808:808", False),  # NAT64 of 8.8.8.8, a public address
        ("2002:a00:1::", True),  # 6to4 of 10.0.0.1
        ("2002:808:808::", False),  # 6to4 of 8.8.8.8
        ("64:ff9b:1::808:808", True),  # local-use NAT64: never globally reachable
    ],
)
def test_ipv6_forms_are_judged_by_the_ipv4_address_they_carry(address: str, refused: bool) -> None:
    assert (address_refusal(ipaddress.ip_address(address)) is not None) is refused
