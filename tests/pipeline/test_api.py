"""The HTTP API end to end: `certiq serve`'s server over the local runtime and real stores."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from certiq import schemas
from certiq.adapters.local.sqlite_db import DB_FILE_NAME
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.ingestion.service import Upload, ingest
from certiq.models import DocumentRecord
from certiq.runtime.local import LocalRuntime
from certiq.runtime.server import make_server
from certiq.steps.deps import Deps
from tests.conftest import MakePdf

pytestmark = pytest.mark.pipeline

FACT = "Backups of customer data are kept for 35 days."
QUESTION = "How long are backups of customer data kept?"
POLL_DEADLINE_SECONDS = 10.0


@dataclass
class Api:
    """A running server, the deps behind it and the documents ingested before it started."""

    base_url: str
    deps: Deps
    documents: list[DocumentRecord]

    def call(
        self, method: str, path: str, body: Any = None, *, raw: bytes | None = None
    ) -> tuple[int, Any]:
        """Sends a request; returns the status and the JSON body (any status, 4xx included)."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

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
    server = make_server(deps, LocalRuntime(deps), "127.0.0.1", 0)
    # A short poll interval so shutdown() in teardown returns at once, not after 0.5 s.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, name="certiq-api", daemon=True
    )
    thread.start()
    try:
        yield Api(f"http://127.0.0.1:{server.server_port}", deps, documents)
    finally:
        server.shutdown()
        server.server_close()
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

    # THEN the client is told it is at fault
    assert 400 <= status < 500, body


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
