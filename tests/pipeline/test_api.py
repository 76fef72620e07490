"""The HTTP API end to end: `certiq serve`'s server over the local runtime and real stores."""

from __future__ import annotations

import io
import json
import sqlite3
import struct
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from pathlib import Path
from typing import Any, TypedDict, Unpack

import pytest
from jsonschema import Draft7Validator
from openapi_spec_validator import validate as validate_openapi
from PIL import Image

from certiq import schemas
from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.adapters.local.sqlite_db import DB_FILE_NAME
from certiq.api.pages import PNG_SIGNATURE
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import DocumentRecord, DocumentStatus
from certiq.runtime.server import ApiServer, make_server
from tests.conftest import MakePdf
from tests.fakes import make_document

FACT = "Backups of customer data are kept for 35 days."
QUESTION = "How long are backups of customer data kept?"
POLL_DEADLINE_SECONDS = 10.0


class RequestOptions(TypedDict, total=False):
    """Api.fetch's keyword options, which Api.call passes on."""

    raw: bytes | None
    content_type: str
    headers: dict[str, str] | None


@dataclass
class Api:
    """A running server, the deps behind it and the documents ingested before it started."""

    base_url: str
    deps: Deps
    documents: list[DocumentRecord]
    server: ApiServer

    def call(
        self, method: str, path: str, body: Any = None, **options: Unpack[RequestOptions]
    ) -> tuple[int, Any]:
        """Sends a request; returns the status and the JSON body (any status, 4xx included)."""
        status, _, data = self.fetch(method, path, body, **options)
        return status, json.loads(data or b"null")

    def fetch(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Message, bytes]:
        """Sends a request; returns the status, the response headers (names case-insensitive, as
        HTTP has them) and the raw body."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Content-Type": content_type, **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def ask(self, question: str = QUESTION) -> dict[str, Any]:
        status, body = self.call("POST", "/v1/questions?wait=true", {"question": question})
        assert status == 200, body
        assert isinstance(body, dict)
        return body


@pytest.fixture
def api(tmp_path: Path, make_pdf: MakePdf) -> Iterator[Api]:
    deps = build_deps(Settings(home=tmp_path))
    pdfs = {
        "backups.pdf": make_pdf(
            [["This handbook describes how the company operates its services."], [FACT]]
        ),
        "office.pdf": make_pdf([["The office is closed on public holidays."]]),
    }
    documents = [
        ingest(Upload(data=data, file_name=name, uri=f"file:///in/{name}", tenant="default"), deps)
        for name, data in pdfs.items()
    ]
    yield from running(deps, documents)


def running(deps: Deps, documents: list[DocumentRecord]) -> Iterator[Api]:
    server = make_server(deps, LocalRuntime(deps), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="certiq-api", daemon=True)
    thread.start()
    try:
        yield Api(f"http://127.0.0.1:{server.server_port}", deps, documents, server)
    finally:
        server.shutdown()
        server.intake.wait_idle()
        thread.join(timeout=5)


def tamper_certificate_answer(home: Path, certificate_id: str, answer: str) -> None:
    """Rewrites a stored certificate's answer in the SQLite file, bypassing the store."""
    with sqlite3.connect(home / DB_FILE_NAME) as conn:
        (body,) = conn.execute(
            "SELECT body FROM certificates WHERE certificate_id = ?", (certificate_id,)
        ).fetchone()
        certificate = json.loads(body)
        certificate["answer"] = answer
        conn.execute(
            "UPDATE certificates SET body = ? WHERE certificate_id = ?",
            (json.dumps(certificate), certificate_id),
        )
    conn.close()


# --- questions ---------------------------------------------------------------------------------


def test_asking_and_waiting_returns_a_cited_answer_matching_the_schema(api: Api) -> None:
    # GIVEN indexed documents, one of which states the fact on its second page

    # WHEN the question is asked and waited for
    body = api.ask()

    # THEN the response is a valid QAResponse whose citation quotes the fact where it is drawn
    Draft7Validator(schemas.load("QAResponse")).validate(body)
    assert body["status"] == "COMPLETE"
    assert body["question"] == QUESTION
    assert FACT in body["answer"]
    citation = next(c for c in body["citations"] if c["quote"] == FACT)
    assert citation["file_name"] == "backups.pdf"
    assert citation["valid"] is True
    assert citation["page"] == 2
    assert citation["boxes"]
    for box in citation["boxes"]:
        assert box["page"] == 2
        assert 0 <= box["x0"] < box["x1"] <= box["page_width"]
        assert 0 <= box["y0"] < box["y1"] <= box["page_height"]
    assert body["claims"][0]["decision"]["state"] == "VERIFIED"
    assert body["certificate_id"]


def test_asking_without_waiting_accepts_and_polling_reaches_complete(api: Api) -> None:
    # GIVEN a question posted without wait
    status, accepted = api.call("POST", "/v1/questions", {"question": QUESTION})

    # THEN it is accepted with where to poll
    assert status == 202, accepted
    Draft7Validator(schemas.load("QuestionAccepted")).validate(accepted)
    question_id = accepted["question_id"]
    assert accepted["status_url"] == f"/v1/questions/{question_id}"

    # WHEN the status URL is polled
    deadline = time.monotonic() + POLL_DEADLINE_SECONDS
    while True:
        status, view = api.call("GET", accepted["status_url"])
        assert status == 200, view
        if view["status"] == "COMPLETE" or time.monotonic() > deadline:
            break
        time.sleep(0.02)

    # THEN the question completes with its answer beside the status
    assert view["status"] == "COMPLETE"
    assert view["question_id"] == question_id
    assert view["response"]["question_id"] == question_id
    assert FACT in view["response"]["answer"]


def test_the_response_groups_sources_per_file_and_describes_the_search(api: Api) -> None:
    # WHEN the question is asked in bm25 mode and waited for
    status, body = api.call(
        "POST", "/v1/questions?wait=true", {"question": QUESTION, "retrieval_mode": "bm25"}
    )

    # THEN each source is a file with its id, name, types, relevance and scored excerpts
    assert status == 200, body
    [source] = body["sources"]
    backups = next(d for d in api.documents if d.file_name == "backups.pdf")
    assert (source["doc_id"], source["file_name"]) == (backups.doc_id, "backups.pdf")
    assert (source["source_type"], source["mime_type"]) == ("blob", "application/pdf")
    assert source["excerpts"] and source["excerpts"][0]["text"] == FACT
    assert source["relevance"] == max(excerpt["score"] for excerpt in source["excerpts"])
    assert {"score", "chunk_ordinal", "page"} <= set(source["excerpts"][0])
    # AND the search metadata names the query, the mode and what was searched
    search = body["search"]
    assert search["query"] == QUESTION
    assert (search["mode"], search["mode_used"]) == ("bm25", "bm25")
    assert search["chunks_searched"] >= 1 and search["engine"] == "sqlite-fts5"
    assert search["threshold"] == api.deps.settings.retrieval.span_threshold


def test_a_dense_question_without_an_embedder_says_it_ran_bm25(api: Api) -> None:
    # GIVEN a server without an embedder (the test suite's default)
    # WHEN a question asks for dense retrieval
    status, body = api.call(
        "POST", "/v1/questions?wait=true", {"question": QUESTION, "retrieval_mode": "dense"}
    )

    # THEN it is answered from BM25, and the response says so
    assert status == 200, body
    assert FACT in body["answer"]
    assert (body["search"]["mode"], body["search"]["mode_used"]) == ("dense", "bm25")
    assert "no embedder" in body["search"]["note"]


def test_an_unknown_retrieval_mode_is_422(api: Api) -> None:
    status, body = api.call(
        "POST", "/v1/questions", {"question": QUESTION, "retrieval_mode": "telepathy"}
    )
    assert status == 422, body
    assert ["body", "retrieval_mode"] in [error["loc"][:2] for error in body["detail"]]


@pytest.mark.parametrize("field", ["conversation_id", "collection"])
def test_a_blank_conversation_or_collection_is_422_naming_the_field(api: Api, field: str) -> None:
    # WHEN a question names a blank conversation or collection (one every client could share)
    for blank in ("", "   "):
        status, body = api.call("POST", "/v1/questions", {"question": QUESTION, field: blank})
        # THEN 422, naming the field
        assert status == 422, body
        assert ["body", field] in [error["loc"][:2] for error in body["detail"]]


def test_a_blank_collection_for_an_upload_is_422(api: Api) -> None:
    status, body = api.call(
        "POST",
        "/v1/documents?file_name=a.pdf&collection=%20",
        raw=b"%PDF-1.4",
        content_type="application/pdf",
    )
    assert status == 422, body
    assert "collection" in json.dumps(body["detail"])


def test_an_unknown_question_is_404(api: Api) -> None:
    # WHEN an id nobody asked is read
    status, body = api.call("GET", "/v1/questions/unknown")

    # THEN not found
    assert status == 404, body


def test_a_body_without_question_is_422_naming_the_field(api: Api) -> None:
    # WHEN the body lacks the question
    status, body = api.call("POST", "/v1/questions", {})

    # THEN 422, and the detail points at body.question
    assert status == 422, body
    assert ["body", "question"] in [error["loc"] for error in body["detail"]]


def test_a_body_with_an_unknown_field_is_422_naming_it(api: Api) -> None:
    # WHEN the body carries a field the contract does not have
    status, body = api.call("POST", "/v1/questions", {"question": QUESTION, "colour": "red"})

    # THEN 422, naming the field, and no question was started
    assert status == 422, body
    assert ["body", "colour"] in [error["loc"] for error in body["detail"]]


def test_a_body_that_is_not_json_is_a_client_error(api: Api) -> None:
    # WHEN the body is not JSON
    status, body = api.call("POST", "/v1/questions", raw=b'{"question": "How long')

    # THEN 400, saying the JSON is malformed and where
    assert status == 400, body
    assert body["message"] == "the body is not valid JSON"
    [error] = body["detail"]
    assert error["type"] == "json_invalid" and error["loc"][0] == "body"
    assert "Unterminated string" in error["msg"]


def test_a_field_of_the_wrong_type_is_422_naming_it_and_saying_why(api: Api) -> None:
    # WHEN the question is a number and wait is not a boolean
    status, body = api.call("POST", "/v1/questions?wait=maybe", {"question": 42})

    # THEN 422, naming both, each with its reason
    assert status == 422, body
    errors = {tuple(error["loc"]): error for error in body["detail"]}
    assert errors[("body", "question")]["msg"] == "Input should be a valid string"
    assert ("query", "wait") in errors
    assert "body.question" in body["message"]


def test_a_body_that_is_not_utf8_or_not_json_typed_is_a_clear_client_error(api: Api) -> None:
    not_utf8 = api.call("POST", "/v1/questions", raw=b"\xff\xfe\x00")
    wrong_type = api.call("POST", "/v1/questions", raw=b"question=1", content_type="text/plain")
    assert not_utf8 == (400, {"statusCode": 400, "message": "the body is not UTF-8 text"})
    assert wrong_type[0] == 415 and "application/json" in wrong_type[1]["message"]


def test_a_body_over_the_limit_is_413_before_it_is_read(tmp_path: Path) -> None:
    # GIVEN a server taking bodies up to 2 KiB
    deps = build_deps(Settings(home=tmp_path, api={"max_body_bytes": 2048}))
    for api in running(deps, []):
        # WHEN a 3 KiB question and a 3 KiB upload are sent
        question = api.call("POST", "/v1/questions", {"question": "x" * 3000})
        upload = api.call(
            "POST",
            "/v1/documents?file_name=a.pdf",
            raw=b"%PDF-" + b"0" * 3000,
            content_type="application/pdf",
        )
        # THEN both are refused with 413 and the limit
        for status, body in (question, upload):
            assert status == 413, body
            assert "the limit is 2048" in body["message"]
        # AND nothing was recorded
        assert deps.documents.list("default") == []


def test_an_unknown_route_is_404_with_a_json_body(api: Api) -> None:
    assert api.call("GET", "/v1/nothing-here") == (
        404,
        {"statusCode": 404, "message": "Not found"},
    )


def test_a_too_short_question_comes_back_asking_for_clarification(api: Api) -> None:
    # WHEN a one-word question is asked and waited for
    body = api.ask("Backups?")

    # THEN it ends NEEDS_CLARIFICATION with a message and no answer
    Draft7Validator(schemas.load("QAResponse")).validate(body)
    assert body["status"] == "NEEDS_CLARIFICATION"
    assert body["message"]
    assert body["answer"] == "" and body["certificate_id"] is None


# --- certificates ------------------------------------------------------------------------------


def test_a_certificate_can_be_read_and_verifies(api: Api) -> None:
    # GIVEN an answered question
    certificate_id = api.ask()["certificate_id"]

    # WHEN its certificate is read and verified
    status, certificate = api.call("GET", f"/v1/certificates/{certificate_id}")
    check_status, result = api.call("POST", f"/v1/certificates/{certificate_id}/verify")

    # THEN it is the certificate of that answer, and it checks valid
    assert status == 200, certificate
    Draft7Validator(schemas.load("Certificate")).validate(certificate)
    assert certificate["certificate_id"] == certificate_id
    assert FACT in certificate["answer"]
    assert check_status == 200, result
    assert result["valid"] is True
    assert result["first_difference"] is None


def test_a_certificate_rewritten_in_the_database_fails_verification(api: Api) -> None:
    # GIVEN an answered question whose stored certificate then has its answer rewritten
    certificate_id = api.ask()["certificate_id"]
    tamper_certificate_answer(
        api.deps.settings.home, certificate_id, "Backups of customer data are kept for 90 days."
    )

    # WHEN it is verified
    status, result = api.call("POST", f"/v1/certificates/{certificate_id}/verify")

    # THEN it is invalid and the answer is named as what changed
    assert status == 200, result
    assert result["valid"] is False
    assert result["first_difference"] == "answer"


def test_an_unknown_certificate_is_404(api: Api) -> None:
    status, body = api.call("GET", "/v1/certificates/cert-unknown")
    verify_status, _ = api.call("POST", "/v1/certificates/cert-unknown/verify")
    assert status == 404, body
    assert verify_status == 404


# --- documents and the API description ----------------------------------------------------------


def test_documents_lists_the_ingested_documents_as_indexed(api: Api) -> None:
    # WHEN the documents are listed
    status, body = api.call("GET", "/v1/documents")

    # THEN both ingested PDFs are there, indexed
    assert status == 200, body
    listed = {document["doc_id"]: document for document in body}
    assert set(listed) == {document.doc_id for document in api.documents}
    assert {document["file_name"] for document in body} == {"backups.pdf", "office.pdf"}
    assert {document["status"] for document in body} == {"INDEXED"}
    # AND no record shows where the server keeps its files: a local original is named, not located
    assert {document["uri"] for document in body} == {"local:backups.pdf", "local:office.pdf"}
    assert str(api.deps.settings.home) not in json.dumps(body)


def test_a_document_is_read_by_id_and_an_unknown_one_is_404(api: Api) -> None:
    # GIVEN an ingested document
    document = api.documents[0]

    # WHEN it and an unknown id are read
    status, body = api.call("GET", f"/v1/documents/{document.doc_id}")
    missing_status, _ = api.call("GET", "/v1/documents/no-such-document")

    # THEN the first is its record, the second not found
    assert status == 200, body
    Draft7Validator(schemas.load("DocumentRecord")).validate(body)
    assert body["doc_id"] == document.doc_id
    assert body["status"] == "INDEXED"
    assert body["pages"] == document.pages
    assert missing_status == 404


def test_openapi_describes_the_questions_route(api: Api) -> None:
    # WHEN the API description is read
    status, body = api.call("GET", "/openapi.json")

    # THEN it is an OpenAPI 3 document with the questions route
    assert status == 200
    assert body["openapi"].startswith("3.")
    assert "post" in body["paths"]["/v1/questions"]
    assert "/v1/questions/{question_id}" in body["paths"]


# --- conversations -------------------------------------------------------------------------------


def test_a_conversation_lists_its_questions_oldest_first_with_their_answers(api: Api) -> None:
    # GIVEN two questions asked in one conversation, and one in another
    first = api.call(
        "POST", "/v1/questions?wait=true", {"question": QUESTION, "conversation_id": "conv-1"}
    )[1]
    second = api.call(
        "POST",
        "/v1/questions?wait=true",
        {"question": "When is the office closed?", "conversation_id": "conv-1"},
    )[1]
    api.call("POST", "/v1/questions?wait=true", {"question": QUESTION, "conversation_id": "other"})

    # WHEN the conversation is read
    status, body = api.call("GET", "/v1/conversations/conv-1")

    # THEN it holds its two questions in order, each with its cited answer
    assert status == 200, body
    Draft7Validator(schemas.load("ConversationView")).validate(body)
    assert body["conversation_id"] == "conv-1"
    assert [q["question_id"] for q in body["questions"]] == [
        first["question_id"],
        second["question_id"],
    ]
    restored = body["questions"][0]["response"]
    assert restored["citations"] == first["citations"]
    assert restored["sources"] == first["sources"]


def test_an_unknown_conversation_is_404(api: Api) -> None:
    status, body = api.call("GET", "/v1/conversations/never-started")
    assert status == 404
    assert body["message"] == "no conversation never-started"


# --- documents: upload, pages, delete --------------------------------------------------------


def upload(api: Api, name: str, data: bytes) -> tuple[int, Any]:
    return api.call(
        "POST", f"/v1/documents?file_name={name}", raw=data, content_type="application/pdf"
    )


def test_an_uploaded_pdf_is_queued_at_once_then_indexed_in_the_background(
    api: Api, make_pdf: MakePdf
) -> None:
    # WHEN a PDF is posted as the body
    pdf = make_pdf([["Visitors sign in at the front desk."], ["Badges are returned on exit."]])
    status, body = upload(api, "visitors.pdf", pdf)

    # THEN it is accepted with its record, not yet indexed, and where to follow it
    assert status == 202, body
    Draft7Validator(schemas.load("DocumentUpload")).validate(body)
    assert body["document"]["status"] in {"QUEUED", "PROCESSING", "INDEXED"}
    assert body["status_url"] == f"/v1/documents/{body['doc_id']}"
    assert body["upload"] is None

    # WHEN ingestion has run
    api.server.intake.wait_idle()

    # THEN the record is INDEXED with its pages, and the new file answers questions
    status, record = api.call("GET", body["status_url"])
    assert (status, record["status"], record["pages"]) == (200, "INDEXED", 2)
    answer = api.ask("Where do visitors sign in?")
    assert any(c["doc_id"] == body["doc_id"] for c in answer["citations"])


def test_an_unreadable_pdf_upload_ends_failed_with_its_reason(api: Api) -> None:
    # GIVEN bytes that start like a PDF and are not one
    status, body = upload(api, "broken.pdf", b"%PDF-1.7\nnot really a PDF")
    assert status == 202, body
    api.server.intake.wait_idle()

    # THEN the document ends FAILED, saying why
    record = api.call("GET", body["status_url"])[1]
    assert record["status"] == "FAILED"
    assert "not a readable PDF" in record["reason"]


def test_upload_requests_that_cannot_be_a_pdf_are_422_naming_the_field(api: Api) -> None:
    not_pdf = upload(api, "notes.pdf", b"plain text")
    wrong_name = upload(api, "notes.txt", b"%PDF-1.7")
    folder = upload(api, "a%2Fb.pdf", b"%PDF-1.7")
    no_name = api.call("POST", "/v1/documents", raw=b"%PDF-1.7", content_type="application/pdf")
    no_body = api.call("POST", "/v1/documents?file_name=a.pdf", content_type="application/pdf")

    assert not_pdf[0] == 422 and not_pdf[1]["detail"][0]["loc"] == ["body"]
    assert wrong_name[0] == 422 and wrong_name[1]["detail"][0]["loc"] == ["file_name"]
    assert folder[0] == 422 and folder[1]["detail"][0]["loc"] == ["file_name"]
    assert no_name[0] == 422 and ["query", "file_name"] in [e["loc"] for e in no_name[1]["detail"]]
    assert no_body[0] == 422 and "the file is empty" in no_body[1]["message"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_page_is_rendered_as_png_at_the_configured_resolution_and_revalidated(api: Api) -> None:
    # GIVEN an indexed two-page document (US Letter: 612 x 792 points)
    backups = next(d for d in api.documents if d.file_name == "backups.pdf")
    path = f"/v1/documents/{backups.doc_id}/pages/2.png"

    # WHEN its second page is read
    status, headers, data = api.fetch("GET", path)

    # THEN it is a PNG of the page at page_dpi, with text drawn on it
    assert status == 200
    assert headers["Content-Type"] == "image/png"
    scale = api.deps.settings.api.page_dpi / 72
    assert png_size(data) == (round(612 * scale), round(792 * scale))
    image = Image.open(io.BytesIO(data))
    assert image.mode == "RGB"
    assert image.getextrema()[0][0] < 128  # some dark pixels: the text
    # AND a client holding it gets 304 without a body
    again, _, empty = api.fetch("GET", path, headers={"If-None-Match": headers["ETag"]})
    assert (again, empty) == (304, b"")
    # AND it was rendered once: the cache serves the next request
    cached = list((api.deps.settings.home / "page-cache").rglob("*.png"))
    assert len(cached) == 1
    assert api.fetch("GET", path)[2] == data


def test_requests_served_at_once_each_get_their_own_answer(api: Api) -> None:
    # GIVEN the requests the page sends together when a citation opens: the document's record
    # (for the OCR note) and the page image, many times over on the server's worker threads
    backups = next(d for d in api.documents if d.file_name == "backups.pdf")
    paths = [f"/v1/documents/{backups.doc_id}", f"/v1/documents/{backups.doc_id}/pages/2.png"]
    api.fetch("GET", paths[1])  # rendered once, so every later request is quick
    # WHEN 200 of them arrive at once, threads switching as often as they can (the server runs
    # in this process), as on a busy machine
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            results = list(pool.map(lambda i: api.fetch("GET", paths[i % 2]), range(200)))
    finally:
        sys.setswitchinterval(interval)
    # THEN every one is answered, each with its own kind of body
    assert [status for status, _, _ in results] == [200] * 200
    for index, (_, headers, _) in enumerate(results):
        expected = "image/png" if index % 2 else "application/json"
        assert headers["Content-Type"].startswith(expected)


def test_pages_that_do_not_exist_are_404_or_422(api: Api) -> None:
    doc_id = api.documents[0].doc_id
    assert api.call("GET", f"/v1/documents/{doc_id}/pages/9.png")[0] == 404
    assert api.call("GET", "/v1/documents/no-such/pages/1.png")[0] == 404
    status, body = api.call("GET", f"/v1/documents/{doc_id}/pages/0.png")
    assert status == 422 and body["detail"][0]["loc"] == ["path", "page"]


def test_pages_of_text_documents_or_of_lost_originals_are_client_errors(api: Api) -> None:
    # GIVEN a text document, and a PDF whose original file has gone from the blob folder
    text = make_document("d-text", tenant="default").model_copy(update={"mime_type": "text/plain"})
    api.deps.documents.put(text)
    backups = next(d for d in api.documents if d.file_name == "backups.pdf")
    Path(urllib.parse.urlsplit(backups.uri).path).unlink()

    # WHEN their pages are asked for
    text_status, text_body = api.call("GET", "/v1/documents/d-text/pages/1.png")
    lost_status, lost_body = api.call("GET", f"/v1/documents/{backups.doc_id}/pages/1.png")

    # THEN the first has no page images (404), the second's original is gone (410)
    assert text_status == 404 and "no page images" in text_body["message"]
    assert lost_status == 410 and "no longer stored" in lost_body["message"]


def test_deleting_a_document_leaves_a_tombstone_and_old_answers_show_it(api: Api) -> None:
    # GIVEN an answer citing backups.pdf
    answer = api.call(
        "POST", "/v1/questions?wait=true", {"question": QUESTION, "conversation_id": "c-del"}
    )[1]
    backups = next(d for d in api.documents if d.file_name == "backups.pdf")
    assert [s["status"] for s in answer["sources"]] == ["available"]

    # WHEN the document is deleted
    status, tombstone = api.call("DELETE", f"/v1/documents/{backups.doc_id}")

    # THEN it is a DELETED tombstone, its page is gone (410) and the original is kept
    assert status == 200, tombstone
    assert (tombstone["status"], tombstone["chunks"]) == ("DELETED", 0)
    assert api.call("GET", f"/v1/documents/{backups.doc_id}")[1]["status"] == "DELETED"
    gone_status, gone = api.call("GET", f"/v1/documents/{backups.doc_id}/pages/2.png")
    assert gone_status == 410 and "deleted" in gone["message"]
    assert Path(urllib.parse.urlsplit(backups.uri).path).is_file()
    # AND the old answer, read again, shows the file as deleted, though its record is frozen
    question_id = answer["question_id"]
    view = api.call("GET", f"/v1/questions/{question_id}")[1]
    assert [s["status"] for s in view["response"]["sources"]] == ["deleted"]
    conversation = api.call("GET", "/v1/conversations/c-del")[1]
    assert [s["status"] for s in conversation["questions"][0]["response"]["sources"]] == ["deleted"]
    stored = api.deps.questions.get(question_id)
    assert stored is not None and stored.response is not None
    assert stored.response.sources[0].status == "available"
    # AND the file is no longer searched
    assert all(c["doc_id"] != backups.doc_id for c in api.ask()["citations"])
    # AND deleting again changes nothing; an unknown id is 404
    assert api.call("DELETE", f"/v1/documents/{backups.doc_id}") == (200, tombstone)
    assert api.call("DELETE", "/v1/documents/no-such")[0] == 404


# --- the web page's files and the API description ---------------------------------------------


def test_the_web_page_and_its_modules_are_served_and_nothing_else(api: Api) -> None:
    status, headers, page = api.fetch("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'<script type="module" src="static/app.js">' in page
    status, headers, script = api.fetch("GET", "/static/app.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b'from "./api.js"' in script
    for path in ("/static/missing.js", "/static/..%2Froutes.py", "/static/../api/routes.py"):
        assert api.fetch("GET", path)[0] == 404, path


def test_the_openapi_document_validates_and_names_every_route(api: Api) -> None:
    status, document = api.call("GET", "/openapi.json")
    assert status == 200
    validate_openapi(document)
    assert set(document["paths"]) == {
        "/v1/questions",
        "/v1/questions/{question_id}",
        "/v1/conversations/{conversation_id}",
        "/v1/documents",
        "/v1/documents/{doc_id}",
        "/v1/documents/{doc_id}/pages/{page}.png",
        "/v1/documents/{doc_id}/retry",
        "/v1/certificates/{certificate_id}",
        "/v1/certificates/{certificate_id}/verify",
        "/v1/certificates/{certificate_id}/recheck",
        "/v1/certificates/{certificate_id}/rechecks",
        "/v1/documents/{doc_id}/citations",
        "/v1/signing-key",
        "/v1/capabilities",
    }
    assert "delete" in document["paths"]["/v1/documents/{doc_id}"]
    upload_body = document["paths"]["/v1/documents"]["post"]["requestBody"]
    assert "application/pdf" in upload_body["content"]


# --- the local server -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/v1/documents", "GET, HEAD, OPTIONS, POST"),
        ("PATCH", "/v1/questions", "OPTIONS, POST"),
        ("TRACE", "/", "GET, HEAD, OPTIONS"),
        ("POST", "/v1/certificates/cert-1", "GET, HEAD, OPTIONS"),
    ],
)
def test_a_method_a_route_does_not_take_is_a_json_405_naming_the_allowed_ones(
    api: Api, method: str, path: str, allow: str
) -> None:
    status, headers, data = api.fetch(method, path)
    assert status == 405
    assert headers["Allow"] == allow
    assert headers["Content-Type"] == "application/json"
    assert json.loads(data)["message"] == f"{method} is not allowed on {path}"


def test_a_document_id_that_is_a_newline_is_not_found_not_a_405(api: Api) -> None:
    # GIVEN an id a fuzzer sent: a newline, which "/v1/documents$" would match before
    # WHEN it is deleted / THEN no document has it, as for any unknown id
    status, headers, _ = api.fetch("DELETE", "/v1/documents/%0A")
    assert status == 404 and headers["Content-Type"] == "application/json"


def test_head_answers_where_get_does_and_options_lists_the_methods(api: Api) -> None:
    # WHEN a route is asked with HEAD / THEN GET's status and headers come back, without a body
    get_status, _, get_body = api.fetch("GET", "/v1/documents")
    status, headers, body = api.fetch("HEAD", "/v1/documents")
    assert (status, body) == (get_status, b"")
    assert headers["Content-Type"] == "application/json"
    assert headers["Content-Length"] == str(len(get_body))
    # AND OPTIONS says what the route takes
    status, headers, body = api.fetch("OPTIONS", "/v1/questions")
    assert (status, headers["Allow"], body) == (204, "OPTIONS, POST", b"")
    # AND an unknown path is a JSON 404 whatever the method
    for method in ("GET", "PUT", "HEAD"):
        status, headers, _ = api.fetch(method, "/v1/nothing-here")
        assert status == 404 and headers["Content-Type"] == "application/json"


def test_fifty_requests_at_once_are_all_answered(api: Api) -> None:
    # GIVEN fifty clients that connect at the same moment (a page polls, uploads and fetches
    # images in parallel; the standard library's listen backlog of 5 reset connections)
    start = threading.Barrier(50)
    results: list[int | str] = []

    def client() -> None:
        start.wait()
        try:
            results.append(api.fetch("GET", "/v1/documents")[0])
        except OSError as error:
            results.append(type(error).__name__)

    threads = [threading.Thread(target=client) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    # THEN every one is answered 200: no reset, no 5xx
    assert results == [200] * 50


def test_listing_ends_an_interrupted_ingestion_and_retry_ingests_it_again(api: Api) -> None:
    # GIVEN a document whose ingestion died: PROCESSING, its record untouched for two minutes
    document = api.documents[0]
    stale = document.model_copy(
        update={
            "status": DocumentStatus.PROCESSING,
            "updated_at": api.deps.clock.now() - timedelta(minutes=2),
        }
    )
    api.deps.documents.put(stale)

    # WHEN the documents are listed (the page does so all the time)
    _, listed = api.call("GET", "/v1/documents")

    # THEN it is FAILED, saying it was interrupted and how to retry it
    shown = next(d for d in listed if d["doc_id"] == document.doc_id)
    assert shown["status"] == "FAILED" and shown["reason"].startswith("interrupted")
    assert f"POST /v1/documents/{document.doc_id}/retry" in shown["reason"]

    # WHEN it is retried
    status, body = api.call("POST", f"/v1/documents/{document.doc_id}/retry")

    # THEN it is taken at once and ingested again from the kept original, under its id
    assert status == 202, body
    assert body["doc_id"] == document.doc_id
    api.server.intake.wait_idle()
    _, record = api.call("GET", f"/v1/documents/{document.doc_id}")
    assert (record["status"], record["pages"]) == ("INDEXED", document.pages)

    # AND a document that did not fail is not retried
    status, body = api.call("POST", f"/v1/documents/{document.doc_id}/retry")
    assert status == 409 and "only a FAILED one is retried" in body["message"]


def test_an_upload_of_known_bytes_under_another_name_is_a_409_naming_the_document(
    api: Api, make_pdf: MakePdf
) -> None:
    # GIVEN a PDF uploaded and indexed
    pdf = make_pdf([["Visitors sign in at the front desk."]])
    status, first = upload(api, "visitors.pdf", pdf)
    assert status == 202
    api.server.intake.wait_idle()

    # WHEN the same bytes are uploaded as another file
    status, body = upload(api, "visitors-copy.pdf", pdf)

    # THEN the API says which document holds them, and the library still has one
    assert status == 409
    assert body["message"] == (
        f"the same content is already document {first['doc_id']} (visitors.pdf): not indexed twice"
    )
    _, listed = api.call("GET", "/v1/documents")
    assert [d["file_name"] for d in listed].count("visitors.pdf") == 1
    assert "visitors-copy.pdf" not in {d["file_name"] for d in listed}


def test_every_answer_names_its_request_in_a_correlation_id(api: Api) -> None:
    # WHEN two requests are sent, one answered and one refused
    _, answered, _ = api.fetch("GET", "/v1/documents")
    _, refused, _ = api.fetch("GET", "/v1/documents/no-such-document")
    # THEN each carries the id of its own request
    ids = [answered["X-Correlation-Id"], refused["X-Correlation-Id"]]
    assert all(ids) and ids[0] != ids[1]
