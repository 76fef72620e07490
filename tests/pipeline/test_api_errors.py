"""Errors said in words, as the API's JSON, by `certiq serve` (and by `certiq ask`); its access
log and its icon."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import Settings
from certiq.ingestion.service import Upload, ingest
from tests.conftest import MakePdf
from tests.pipeline.test_api import FACT, QUESTION, Api, running

LIMIT = 2048


@pytest.fixture
def hr_api(tmp_path: Path, make_pdf: MakePdf) -> Iterator[Api]:
    """A server over one document in the collection "hr", taking bodies up to 2 KiB."""
    deps = build_deps(Settings(home=tmp_path, api={"max_body_bytes": LIMIT}))
    upload = Upload(
        data=make_pdf([[FACT]]),
        file_name="backups.pdf",
        uri="file:///in/backups.pdf",
        tenant="default",
        collection="hr",
    )
    yield from running(deps, [ingest(upload, deps)])


def raw_exchange(api: Api, head: str, body: bytes = b"") -> tuple[int, dict[str, object]]:
    """Sends a request as bytes on a socket; returns the status and the JSON body."""
    host, port = api.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(head.encode("ascii") + body)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
    status_line, _, rest = received.partition(b"\r\n")
    _, _, payload = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), json.loads(payload)


def test_an_empty_upload_is_422_saying_the_file_is_empty(hr_api: Api) -> None:
    # WHEN a PDF upload is sent without a byte
    status, body = hr_api.call(
        "POST", "/v1/documents?file_name=empty.pdf", raw=b"", content_type="application/pdf"
    )
    # THEN it is refused, saying the file is empty (not how uploads are sent)
    assert status == 422, body
    assert "the file is empty" in body["message"]
    assert body["detail"][0]["loc"] == ["body"]


@pytest.mark.parametrize("size", [LIMIT + 1, 3_000_000, 50_000_000])
def test_a_body_over_the_limit_is_the_apis_json_413_at_any_size(hr_api: Api, size: int) -> None:
    # WHEN an upload over the 2 KiB limit is sent whole, far over it too (waitress alone
    # refused past 2 x limit + 1 MiB, in plain text, and reset a client still sending)
    head = (
        "POST /v1/documents?file_name=big.pdf HTTP/1.1\r\nHost: localhost\r\n"
        f"Content-Type: application/pdf\r\nContent-Length: {size}\r\n\r\n"
    )
    status, body = raw_exchange(hr_api, head, b"%PDF-" + b"0" * (size - 5))
    # THEN the client, done sending, reads the API's JSON 413 naming the size and the limit
    assert status == 413
    assert body == {"statusCode": 413, "message": f"the body is {size} bytes; the limit is {LIMIT}"}
    # AND nothing was recorded
    assert hr_api.deps.documents.list("default") == hr_api.documents


def test_a_body_announced_past_what_is_read_through_is_refused_at_once(hr_api: Api) -> None:
    # WHEN a request announces 5 GB and sends only its first bytes
    head = (
        "POST /v1/documents?file_name=big.pdf HTTP/1.1\r\nHost: localhost\r\n"
        "Content-Type: application/pdf\r\nContent-Length: 5000000000\r\n\r\n"
    )
    status, body = raw_exchange(hr_api, head, b"%PDF-")
    # THEN the JSON 413 comes at once, without waiting for the rest
    assert (status, body["message"]) == (413, f"the body is 5000000000 bytes; the limit is {LIMIT}")


def test_a_body_over_the_limit_sent_by_urllib_gets_the_json_413(hr_api: Api) -> None:
    # WHEN a client that sends the whole body before reading sends 3 MB
    status, body = hr_api.call(
        "POST",
        "/v1/documents?file_name=big.pdf",
        raw=b"%PDF-" + b"0" * 3_000_000,
        content_type="application/pdf",
    )
    # THEN it reads the JSON 413 naming the limit (not a reset connection)
    assert status == 413, body
    assert body["message"] == f"the body is 3000005 bytes; the limit is {LIMIT}"


def test_a_question_in_a_collection_that_does_not_exist_is_404_naming_it(hr_api: Api) -> None:
    # WHEN a question is asked in "finance", where no document is, and in "hr", where one is
    status, body = hr_api.call(
        "POST", "/v1/questions", {"question": QUESTION, "collection": "finance"}
    )
    known, accepted = hr_api.call(
        "POST", "/v1/questions", {"question": QUESTION, "collection": "hr"}
    )
    # THEN the first is 404 naming the collection and the ones there are; nothing was recorded
    assert status == 404, body
    assert (
        body["message"] == "no collection 'finance': no document is in it (the collections are hr)"
    )
    # AND the second is accepted
    assert known == 202, accepted


def test_the_cli_says_a_collection_does_not_exist(tmp_path: Path, make_pdf: MakePdf) -> None:
    # GIVEN a home with one document in the collection "hr"
    deps = build_deps(Settings(home=tmp_path))
    data = make_pdf([[FACT]])
    upload = Upload(
        data=data, file_name="b.pdf", uri="file:///b.pdf", tenant="default", collection="hr"
    )
    ingest(upload, deps)
    # WHEN `certiq ask` is asked in "finance"
    result = CliRunner().invoke(
        main, ["ask", QUESTION, "--collection", "finance"], env={"CERTIQ_HOME": str(tmp_path)}
    )
    # THEN it fails saying the collection does not exist
    assert result.exit_code == 1, result.output
    assert "no collection 'finance': no document is in it" in result.output


def test_an_unknown_certificate_is_a_worded_404(hr_api: Api) -> None:
    status, body = hr_api.call("GET", "/v1/certificates/cert-unknown")
    assert (status, body["message"]) == (404, "no certificate cert-unknown")


def test_each_request_is_one_access_line_and_the_queue_warnings_are_silent(
    hr_api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    # WHEN two requests are answered
    with caplog.at_level(logging.INFO, logger="certiq.access"):
        hr_api.fetch("GET", "/v1/documents")
        hr_api.fetch("GET", "/v1/questions/q-none")
    # THEN each is one line: method, path, status and duration
    lines = [r.getMessage() for r in caplog.records if r.name == "certiq.access"]
    assert [line.rsplit(" ", 2)[0] for line in lines] == [
        "GET /v1/documents 200",
        "GET /v1/questions/q-none 404",
    ]
    assert all(line.endswith(" ms") for line in lines)
    # AND waitress's "Task queue depth" warnings are not logged
    assert logging.getLogger("waitress.queue").getEffectiveLevel() > logging.WARNING


def test_the_favicon_is_served_and_the_page_links_it(hr_api: Api) -> None:
    status, headers, icon = hr_api.fetch("GET", "/favicon.ico")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml"
    assert icon.startswith(b"<svg")
    page = hr_api.fetch("GET", "/")[2]
    assert b'<link rel="icon" href="static/favicon.svg"' in page
