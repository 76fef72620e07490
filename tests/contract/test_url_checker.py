"""The UrlChecker port on its adapter (GuardedUrlChecker, httpx) against a real HTTP server.

The server listens on 127.0.0.1, which the guard refuses, as it should. The tests give the site a
public name (docs.example.com) that an injected resolver maps to a public address, and an injected
transport carries each request the guard lets through to the local server: the guard runs
unchanged, with no switch that would let loopback through.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from certiq.config import UrlCheckSettings
from certiq.guardrails.urls import GuardedUrlChecker

PAGE = b"<html><head><title>Backup policy</title></head><body>Kept 35 days.</body></html>"
SOFT_404 = b"<html><head><title>Oops! Page not found</title></head><body>Try search.</body></html>"


class Site(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str]]] = []

    def _reply(
        self,
        status: int,
        body: bytes = b"",
        location: str | None = None,
        content_type: str = "text/html",
    ) -> None:
        self.send_response(status)
        if location:
            self.send_header("location", location)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)

    def _route(self) -> None:
        Site.seen.append((self.command, self.path))
        path = self.path
        if path == "/ok.pdf":
            self._reply(200, b"%PDF-1.7", content_type="application/pdf")
        elif path in ("/", "/ok"):
            self._reply(200, PAGE)
        elif path == "/head-refused":
            self._reply(405) if self.command == "HEAD" else self._reply(200, PAGE)
        elif path == "/soft404":
            self._reply(200, SOFT_404)
        elif path == "/gone":
            self._reply(404, b"<title>404</title>")
        elif path == "/moved-to-404":
            self._reply(302, location="/404")
        elif path == "/404":
            self._reply(200, PAGE)
        elif path == "/deep/old/page":
            self._reply(301, location="/")
        elif path == "/to-private":
            self._reply(302, location="http://10.0.0.1/admin")
        elif path == "/to-metadata":
            self._reply(307, location="http://169.254.169.254/latest/meta-data/")
        elif path.startswith("/chain/"):
            left = int(path.rsplit("/", 1)[1])
            self._reply(302, location=f"/chain/{left - 1}") if left else self._reply(200, PAGE)
        elif path == "/slow":
            threading.Event().wait(2.0)
            self._reply(200, PAGE)
        else:
            self._reply(404)

    do_GET = _route
    do_HEAD = _route

    def log_message(self, format: str, *args: object) -> None:
        pass


SITE_NAME = "docs.example.com"
PUBLIC_ADDRESS = "93.184.215.14"  # a public unicast address: what the guard must see


class ToTestServer(httpx.BaseTransport):
    """Carries every request the guard sent (to the public address) to the local test server."""

    def __init__(self, port: int) -> None:
        self._inner = httpx.HTTPTransport()
        self._port = port
        self.addresses: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.addresses.append(request.url.host)
        request.url = request.url.copy_with(host="127.0.0.1", port=self._port)
        return self._inner.handle_request(request)


def public_name(host: str, port: int) -> list[str]:
    if host == SITE_NAME:
        return [PUBLIC_ADDRESS]
    raise OSError(f"{host}: no such name")


@pytest.fixture
def site() -> Iterator[str]:
    Site.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://{SITE_NAME}:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def local_checker(base: str, **overrides: object) -> GuardedUrlChecker:
    port = int(base.rsplit(":", 1)[1])
    settings = UrlCheckSettings.model_validate({"allowed_ports": [port], **overrides})
    return GuardedUrlChecker(settings, resolver=public_name, transport=ToTestServer(port))


def test_live_document_is_reachable_with_head_only(site: str) -> None:
    verdict = local_checker(site).check(f"{site}/ok.pdf")
    assert verdict.allowed and verdict.reachable and verdict.status == 200
    assert Site.seen == [("HEAD", "/ok.pdf")]


def test_live_html_page_is_read_with_get_for_its_title(site: str) -> None:
    verdict = local_checker(site).check(f"{site}/ok")
    assert verdict.reachable and verdict.reason == "GET answered HTTP 200"
    assert Site.seen == [("HEAD", "/ok"), ("GET", "/ok")]


def test_head_refused_then_get_succeeds(site: str) -> None:
    verdict = local_checker(site).check(f"{site}/head-refused")
    assert verdict.reachable and verdict.status == 200
    assert Site.seen == [("HEAD", "/head-refused"), ("GET", "/head-refused")]


def test_dead_link_is_not_reachable_with_its_status(site: str) -> None:
    verdict = local_checker(site).check(f"{site}/gone")
    assert verdict.allowed and not verdict.reachable and verdict.status == 404


def test_soft_404_page_is_dead(site: str) -> None:
    # GIVEN a page that answers 200 but is titled "Page not found"
    verdict = local_checker(site).check(f"{site}/soft404")
    # THEN the GET body gives it away
    assert not verdict.reachable and verdict.reason.startswith("soft 404")


@pytest.mark.parametrize("path", ["/moved-to-404", "/deep/old/page"])
def test_redirect_to_an_error_page_or_the_home_page_is_a_soft_404(site: str, path: str) -> None:
    verdict = local_checker(site).check(f"{site}{path}")
    assert verdict.allowed and not verdict.reachable
    assert "soft 404" in verdict.reason


def test_redirects_are_followed_up_to_the_limit(site: str) -> None:
    within = local_checker(site, max_redirects=10).check(f"{site}/chain/10")
    assert within.reachable and within.final_url == f"{site}/chain/0"
    beyond = local_checker(site, max_redirects=10).check(f"{site}/chain/11")
    assert not beyond.reachable and "more than 10 redirects" in beyond.reason


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata"])
def test_redirect_into_private_space_is_refused(site: str, path: str) -> None:
    verdict = local_checker(site).check(f"{site}{path}")
    assert not verdict.allowed and "redirect 1" in verdict.reason
    # AND only the first hop reached the server; nothing went to the private address
    assert all(seen_path == path for _, seen_path in Site.seen)


def test_slow_page_times_out(site: str) -> None:
    verdict = local_checker(site, timeout_seconds=0.5).check(f"{site}/slow")
    assert verdict.allowed and not verdict.reachable and "timed out" in verdict.reason


def test_the_local_server_itself_is_refused_by_its_loopback_address(site: str) -> None:
    # GIVEN the test server's real address, which the transport would happily reach
    port = int(site.rsplit(":", 1)[1])
    transport = ToTestServer(port)
    checker = GuardedUrlChecker(UrlCheckSettings(allowed_ports=[port]), transport=transport)
    # WHEN it is checked / THEN the guard refuses it and nothing is sent
    verdict = checker.check(f"http://127.0.0.1:{port}/ok")
    assert not verdict.allowed and "loopback" in verdict.reason
    assert Site.seen == [] and transport.addresses == []


def test_requests_go_to_the_address_the_guard_checked(site: str) -> None:
    # GIVEN a checker whose transport records where each request was addressed
    port = int(site.rsplit(":", 1)[1])
    transport = ToTestServer(port)
    settings = UrlCheckSettings(allowed_ports=[port])
    checker = GuardedUrlChecker(settings, resolver=public_name, transport=transport)
    # WHEN a page is checked
    assert checker.check(f"{site}/ok").reachable
    # THEN every request was sent to the resolved, checked address (no second lookup)
    assert transport.addresses and set(transport.addresses) == {PUBLIC_ADDRESS}
