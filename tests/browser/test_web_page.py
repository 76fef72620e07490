"""The web page in headless Chromium against `certiq serve`: upload, ask, follow a citation to the
box on its page, reload, verify the certificate, delete the file and see the tombstone.

Chromium is Debian's package (/usr/bin/chromium, installed by `make test`), driven by the
playwright package through executable_path: no browser is downloaded. Set TEST_SCREENSHOT
to a path to keep the screenshot of the highlighted citation (docs/screenshot.png is one).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SCHEDULE_ROWS, build_pdf, build_table_pdf, needs_tesseract
from tests.pipeline.test_scanned_documents import first_page_typed_second_scanned
from tests.provider_fakes import ProviderServer, openai_stating

CHROMIUM = Path("/usr/bin/chromium")
FACT = "Backups of customer data are kept for 35 days and then deleted."
QUESTION = "How long are backups of customer data kept?"
COPIES = "Copies of these backups of customer data are kept in a second region for 35 days."
FILE_NAME = "retention-policy.pdf"
EDITED = "Backups of customer data are kept for ten years."
TIMEOUT_MS = 20_000
# Pixels a drawn box may differ from the one computed from its Box: rounding at the page's scale.
TOLERANCE_PX = 1.5

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the playwright package")
if not CHROMIUM.exists():
    pytest.skip(
        "Chromium is not installed at /usr/bin/chromium (`make test` installs it with apt-get;"
        " this machine could not)",
        allow_module_level=True,
    )


def retention_policy_pdf() -> bytes:
    return build_pdf(
        [
            ["This policy explains how the company keeps and removes the data it holds."],
            [
                "Logs of access to systems are kept for one year for audit purposes.",
                "Data retention applies to every environment, production and staging alike.",
                FACT,
                COPIES,
                "Archived invoices are kept for ten years as the law requires.",
            ],
        ]
    )


@pytest.fixture(scope="module")
def server_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("certiq-home")


@pytest.fixture(scope="module")
def server(server_home: Path) -> Iterator[str]:
    """`certiq serve` on a free port of 127.0.0.1 over an empty CERTIQ_HOME; yields its URL."""
    yield from serve(server_home, {})


def serve(home: Path, settings: dict[str, str]) -> Iterator[str]:
    """`certiq serve` over ``home`` with these CERTIQ_* settings; yields its URL."""
    env = {
        **os.environ,
        "CERTIQ_HOME": str(home),
        "CERTIQ_EMBEDDING__PROVIDER": "none",
        "PYTHONUNBUFFERED": "1",
        **settings,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "certiq.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, f"certiq serve did not start: {line!r}"
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        # --no-sandbox: CI and this machine run as root, where Chromium's sandbox cannot start.
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            launched.close()


def open_app(browser: Any, server: str) -> Any:
    """A new tab on the served page, in English, once the page says it is ready."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    return page


def upload(page: Any, name: str, data: bytes) -> None:
    """Uploads a PDF through the page's file input and waits until it is indexed."""
    page.set_input_files(
        "#file-input", files=[{"name": name, "mimeType": "application/pdf", "buffer": data}]
    )
    page.wait_for_selector(f'.upload[data-file-name="{name}"][data-status="INDEXED"]')


def upload_retention_policy(page: Any) -> None:
    upload(page, FILE_NAME, retention_policy_pdf())


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def expected_rect(box: dict[str, float], image: dict[str, float]) -> dict[str, float]:
    """Where a Box (PDF points, origin top-left) lands on the image as shown on screen."""
    scale_x = image["width"] / box["page_width"]
    scale_y = image["height"] / box["page_height"]
    return {
        "x": image["x"] + box["x0"] * scale_x,
        "y": image["y"] + box["y0"] * scale_y,
        "width": (box["x1"] - box["x0"]) * scale_x,
        "height": (box["y1"] - box["y0"]) * scale_y,
    }


def test_an_answer_opens_its_cited_box_survives_a_reload_and_shows_a_deleted_file_as_a_tombstone(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    page_image_requests: list[Any] = []
    page.on(
        "request",
        lambda request: (
            page_image_requests.append(request)
            if re.search(r"/v1/documents/[^/]+/pages/\d+\.png$", request.url)
            else None
        ),
    )
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")

    # GIVEN a PDF uploaded through the page, followed until it is indexed
    upload_retention_policy(page)

    # WHEN a question is typed and sent with the keyboard
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    chip = page.locator('.chip[data-citation="C1"]').first
    chip.wait_for()

    # THEN the answer shows the fact as a verified statement with its reason available on focus
    claim = page.locator(".claim", has_text=FACT.rstrip("."))
    assert "claim-verified" in (claim.get_attribute("class") or "")
    claim.focus()
    assert claim.locator(".claim-tip").is_visible()
    # AND, answered offline, it says what Verified checks of a quote and leaves to the reader
    note = page.locator(".answer-note")
    assert note.count() == 1
    assert "Quoted offline" in note.inner_text()
    assert "for you to judge" in note.inner_text()
    # AND beside the statement, how likely certiq's reader finds that it answers the question
    judged = page.locator(".answers-question").first
    likely = float(judged.inner_text().removeprefix("(answers: ").removesuffix(")"))
    assert 0.0 <= likely <= 1.0
    assert "certiq's reader" in (judged.get_attribute("title") or "")

    # AND the conversation in the URL has the response the page shows
    conversation_id = page.evaluate("new URL(location.href).searchParams.get('c')")
    [question] = get_json(f"{server}/v1/conversations/{conversation_id}")["questions"]
    citation = next(c for c in question["response"]["citations"] if c["quote"] == FACT)
    assert citation["page"] == 2
    chip = page.locator(f'.chip[data-citation="{citation["id"]}"]').first

    # WHEN the citation chip is activated from the keyboard
    chip.focus()
    page.keyboard.press("Enter")

    # THEN its source card is highlighted
    card = page.locator(".card-highlighted")
    card.wait_for()
    assert card.locator(".card-name").inner_text() == FILE_NAME
    source_item = page.locator(f'.source[data-doc-id="{citation["doc_id"]}"] .card-highlighted')
    assert source_item.count() == 1
    # AND the cited page is shown with a box over each line of the quote, where the Box says
    page.wait_for_function(
        "() => { const i = document.getElementById('page-image');"
        " return i.complete && i.naturalWidth > 0; }"
    )
    assert page.locator("#viewer").get_attribute("data-page") == "2"
    # AND the image was fetched asking for image/png first (what makes API Gateway send binary)
    # and is shown from a blob: URL
    assert [request.url.rsplit("/", 1)[-1] for request in page_image_requests] == ["2.png"]
    assert page_image_requests[0].headers["accept"] == "image/png"
    assert (page.locator("#page-image").get_attribute("src") or "").startswith("blob:")
    image = page.locator("#page-image").bounding_box()
    drawn = page.locator(f'.page-box-active[data-citation="{citation["id"]}"]')
    assert drawn.count() == len(citation["boxes"]) >= 1
    for index, box in enumerate(citation["boxes"]):
        actual = drawn.nth(index).bounding_box()
        expected = expected_rect(box, image)
        for key in ("x", "y", "width", "height"):
            assert abs(actual[key] - expected[key]) <= TOLERANCE_PX, (key, actual, expected)
    # AND every other citation of the answer on that page is boxed too, less emphasised
    same_page = [
        c
        for c in question["response"]["citations"]
        if (c["doc_id"], c["page"]) == (citation["doc_id"], 2)
    ]
    assert len(same_page) >= 2, "the PDF is written so that two citations share page 2"
    assert page.locator(".page-box").count() == sum(len(c["boxes"]) for c in same_page)
    for other in [c for c in same_page if c["id"] != citation["id"]]:
        boxed = page.locator(f'.page-box[data-citation="{other["id"]}"]')
        assert boxed.count() == len(other["boxes"])
        assert "page-box-active" not in (boxed.first.get_attribute("class") or "")
    # AND the box is scrolled into view
    assert drawn.first.is_visible()
    assert page.evaluate(
        "() => { const r = document.querySelector('.page-box-active').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    screenshot = tmp_path / "screenshot.png"
    page.screenshot(path=str(screenshot), full_page=False)
    assert screenshot.stat().st_size > 10_000
    keep = os.environ.get("TEST_SCREENSHOT")
    if keep:
        Path(keep).write_bytes(screenshot.read_bytes())

    # WHEN the certificate badge is clicked
    page.locator(".certificate-badge").first.click()

    # THEN it verifies
    page.wait_for_selector(".certificate-result.certificate-valid")

    # WHEN the page is reloaded
    page.reload()
    page.wait_for_selector("body[data-ready]")

    # THEN the same answer is back, with its chips and sources
    assert page.locator(".question-text").first.inner_text() == QUESTION
    assert page.locator(".claim", has_text=FACT.rstrip(".")).count() == 1
    assert page.locator('.chip[data-citation="C1"]').count() >= 1
    assert page.locator(".source .card-name").first.inner_text() == FILE_NAME

    # WHEN the file is deleted from the library, and the deletion confirmed
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f'.document[data-doc-id="{citation["doc_id"]}"] .document-delete').click()

    # THEN the old answer shows it as a greyed, non-clickable tombstone
    tombstone = page.locator(f'.source[data-doc-id="{citation["doc_id"]}"][data-status="deleted"]')
    tombstone.wait_for()
    assert "File unavailable" in tombstone.inner_text()
    assert tombstone.locator("button").count() == 0
    assert tombstone.locator('[aria-disabled="true"]').count() == 1
    assert (
        page.locator(f'.document[data-doc-id="{citation["doc_id"]}"] .document-delete').count() == 0
    )
    # AND its page answers 410 Gone
    status = page.evaluate(
        "async (url) => (await fetch(url)).status",
        f"{server}/v1/documents/{citation['doc_id']}/pages/2.png",
    )
    assert status == 410
    page.close()


def test_the_page_switches_to_french_labels(server: str, browser: Any) -> None:
    # GIVEN the page opened in a French browser
    page = browser.new_page(locale="fr-FR")
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")

    # THEN its labels are French, and the toggle switches them to English
    assert page.locator("#ask-button").inner_text() == "Demander"
    assert page.evaluate("document.documentElement.lang") == "fr"
    # AND, offline (no translation model, English documents), it suggests no French question:
    # it asks for English and says why
    placeholder = page.locator("#question").get_attribute("placeholder") or ""
    assert placeholder == (
        "Posez la question en anglais, la langue des documents : How long are backups kept?"
    )
    hint = page.locator("#translation-hint")
    assert hint.is_visible() and "Aucun modèle de traduction" in hint.inner_text()
    page.click("#language-toggle")
    assert page.locator("#ask-button").inner_text() == "Ask"
    # AND in English, the documents' language, the hint is gone
    assert not page.locator("#translation-hint").is_visible()
    assert page.locator("#question").get_attribute("placeholder") == "How long are backups kept?"
    page.close()


def test_a_pasted_or_returned_id_token_is_sent_with_every_api_request(
    server: str, browser: Any
) -> None:
    # GIVEN the page, recording the Authorization header of each /v1 request
    page = browser.new_page(locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    sent: list[tuple[str, str | None]] = []
    page.on(
        "request",
        lambda request: (
            sent.append((request.url, request.headers.get("authorization")))
            if "/v1/" in request.url
            else None
        ),
    )
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    assert sent and all(token is None for _, token in sent)
    assert page.locator("#sign-in").inner_text() == "Sign in"

    # WHEN a Cognito ID token is pasted into the sign-in dialog
    sent.clear()
    page.click("#sign-in")
    page.fill("#id-token", "Bearer eyJ.pasted.token")
    page.click("#sign-in-save")

    # THEN the next /v1 request carries it as Authorization (the raw token) and the page says so
    page.wait_for_function("() => document.getElementById('sign-in').textContent === 'Signed in'")
    with page.expect_request(lambda request: "/v1/documents" in request.url) as documents:
        page.click("#language-toggle")  # re-renders and refreshes the library
    assert documents.value.headers.get("authorization") == "eyJ.pasted.token"
    page.click("#language-toggle")

    # WHEN signed out THEN requests go without it
    page.click("#sign-in")
    page.click("#sign-out")
    with page.expect_request(lambda request: "/v1/documents" in request.url) as documents:
        page.click("#language-toggle")
    assert documents.value.headers.get("authorization") is None
    page.close()

    # WHEN Cognito's hosted UI sends the browser back with #id_token=... in the URL
    page = browser.new_page(locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    with page.expect_request(lambda request: "/v1/" in request.url) as first:
        page.goto(server + "/#id_token=eyJ.from.fragment&token_type=Bearer")
    page.wait_for_selector("body[data-ready]")
    # THEN the token is taken, sent, and removed from the address bar
    assert first.value.headers.get("authorization") == "eyJ.from.fragment"
    assert "id_token" not in page.url
    page.close()


def test_a_refused_request_asks_the_user_to_sign_in(server: str, browser: Any) -> None:
    # GIVEN an API that refuses the caller, as API Gateway's authorizer does without a token
    page = browser.new_page(locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    page.route(
        "**/v1/documents",
        lambda route: route.fulfill(
            status=401, content_type="application/json", body='{"message":"Unauthorized"}'
        ),
    )

    # WHEN the page loads its library
    page.goto(server + "/")

    # THEN the sign-in dialog opens and says why
    page.wait_for_selector("#sign-in-dialog[open]")
    assert "HTTP 401" in page.locator("#sign-in-reason").inner_text()
    page.close()


DENIAL = "Backups of customer data are never deleted."


def test_a_withheld_statement_is_shown_as_withheld_with_its_reason_and_quote(
    server: str, browser: Any
) -> None:
    # GIVEN the policy indexed, and an API whose answer withheld a statement its source
    # contradicts (added to the real response: the extractive answerer quotes, so never
    # drafts one)
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)

    def add_withheld(route: Any) -> None:
        response = route.fetch()
        view = response.json()
        if view.get("response") and view["response"]["citations"]:
            cited = view["response"]["citations"][0]["id"]
            view["response"]["statements"].append(
                {
                    "text": DENIAL,
                    "state": "BLOCKED",
                    "shown": False,
                    "claim_ids": ["K9"],
                    "citation_ids": [cited],
                    "reason": "the cited evidence contradicts this claim",
                }
            )
        route.fulfill(response=response, json=view)

    page.route(re.compile(r".*/v1/questions/[^/]+$"), add_withheld)
    # The status stream is refused, so the page falls back to polling, where the route edits.
    page.route(re.compile(r".*/v1/questions/[^/]+/events$"), lambda route: route.abort())
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    upload_retention_policy(page)
    # WHEN the question is asked
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    withheld = page.locator(".withheld")
    withheld.wait_for()
    # THEN the answer says a statement was withheld and why, without showing it as an answer
    assert withheld.locator("summary").inner_text() == (
        "1 statement withheld: its source says otherwise"
    )
    assert DENIAL not in page.locator(".answer").inner_text()
    # AND opening it shows the statement, the reason and the quote that overruled it
    withheld.locator("summary").click()
    item = withheld.locator(".withheld-blocked")
    assert item.locator(".withheld-text").inner_text() == DENIAL
    assert "contradicts" in item.locator(".withheld-reason").inner_text()
    assert item.locator(".withheld-quote").first.inner_text() in {FACT, COPIES}
    page.close()


def test_the_badge_fails_when_the_answer_shown_is_not_the_one_certified(
    server: str, server_home: Path, browser: Any
) -> None:
    # GIVEN an answer on the page whose badge checked it against its certificate
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    upload_retention_policy(page)
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    page.wait_for_selector(".certificate-result.certificate-valid")
    question_id = page.locator(".turn").last.get_attribute("data-question-id")
    assert question_id

    # WHEN the stored answer is edited behind the certificate's back (its first statement made
    # to say something the document does not), and the page is reloaded
    with sqlite3.connect(server_home / "certiq.db") as conn:
        (stored,) = conn.execute(
            "SELECT response FROM questions WHERE question_id = ?", (question_id,)
        ).fetchone()
        response = json.loads(stored)
        response["statements"][0]["text"] = EDITED
        conn.execute(
            "UPDATE questions SET response = ? WHERE question_id = ?",
            (json.dumps(response), question_id),
        )
    page.reload()
    page.wait_for_selector("body[data-ready]")

    # THEN the page shows the edited words, and the badge fails visibly, naming what differs
    turn = page.locator(f'.turn[data-question-id="{question_id}"]')
    assert EDITED in turn.locator(".answer").inner_text()
    result = turn.locator(".certificate-result.certificate-invalid")
    result.wait_for()
    assert "Not what was certified: statement 1: text differs" in result.inner_text()
    # AND the certificate itself is untouched: it is the answer shown that is not the sealed one
    certificate_id = response["certificate_id"]
    verdict = page.evaluate(
        "async (url) => (await fetch(url, {method: 'POST'})).json()",
        f"{server}/v1/certificates/{certificate_id}/verify",
    )
    assert verdict["valid"] is True
    page.close()


@needs_tesseract
def test_a_quote_from_a_scanned_page_says_it_was_read_by_ocr(server: str, browser: Any) -> None:
    page = open_app(browser, server)
    # GIVEN a policy whose second page is a scan, uploaded through the page
    upload(page, "scanned-incidents.pdf", first_page_typed_second_scanned())

    # WHEN a question only the scan answers is asked and its citation opened
    page.fill("#question", "How quickly are severity one incidents reported?")
    page.press("#question", "Enter")
    page.locator(".claim", has_text="reported to the regulator within 4 hours").wait_for()
    conversation_id = page.evaluate("new URL(location.href).searchParams.get('c')")
    [question] = get_json(f"{server}/v1/conversations/{conversation_id}")["questions"]
    citation = next(c for c in question["response"]["citations"] if "within 4 hours" in c["quote"])
    page.locator(f'.chip[data-citation="{citation["id"]}"]').first.click()
    page.wait_for_function(
        "() => { const i = document.getElementById('page-image');"
        " return i.complete && i.naturalWidth > 0; }"
    )

    # THEN the scanned page is shown, saying its text was read by OCR and how confidently
    assert page.locator("#viewer").get_attribute("data-page") == "2"
    note = page.locator("#viewer-ocr")
    note.wait_for(state="visible")
    assert re.fullmatch(
        r"This page is a scan: its text was read by OCR \(tesseract, 9\d% confidence\)\..*",
        note.inner_text(),
    )
    keep = os.environ.get("TEST_SCREENSHOT")
    if keep:
        page.screenshot(path=keep.replace(".png", "-ocr.png"), full_page=True)
    page.close()


def test_passages_for_an_untranslated_question_are_offered_as_unchecked(
    server: str, browser: Any
) -> None:
    # GIVEN the policy indexed, no translation model, and a question in French: the server
    # answers NOT_FOUND_AS_WRITTEN (the route adds the passage dense search would offer where
    # an embedder runs: this server searches lexically)
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page.set_default_timeout(TIMEOUT_MS)
    outcomes: list[str] = []

    def offer_passage(route: Any) -> None:
        response = route.fetch()
        view = response.json()
        answer = view.get("response")
        if answer:
            outcomes.append(answer["outcome"])
            if not answer["related"]:
                passage = {"doc_id": "d", "file_name": "retention.pdf", "page": 1}
                answer["related"] = [{**passage, "text": FACT, "score": 0.5}]
        route.fulfill(response=response, json=view)

    page.route(re.compile(r".*/v1/questions/[^/]+$"), offer_passage)
    # The status stream is refused, so the page falls back to polling, where the route edits.
    page.route(re.compile(r".*/v1/questions/[^/]+/events$"), lambda route: route.abort())
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    upload_retention_policy(page)
    # WHEN the question is asked
    page.fill(
        "#question", "Combien de temps les sauvegardes des données clients sont-elles gardées ?"
    )
    page.press("#question", "Enter")
    related = page.locator(".related")
    related.wait_for()
    # THEN the passages are offered as unchecked, never as ones that do not state the answer
    assert outcomes[-1] == "NOT_FOUND_AS_WRITTEN"
    assert related.get_attribute("data-outcome") == "NOT_FOUND_AS_WRITTEN"
    title = related.locator(".related-title").inner_text()
    assert "not checked against the question" in title
    assert "none was found to state" not in title
    page.close()


def test_a_quote_a_page_break_cut_is_shown_on_both_pages(server: str, browser: Any) -> None:
    page = open_app(browser, server)
    # GIVEN a plan whose last sentence on page 1 ends on page 2, uploaded through the page
    pdf = build_pdf(
        [
            [
                "6. After the review",
                "Every review of an outage is written up within 5 business days.",
                "The outage write-up lists the root cause and the follow-up actions, each with an",
            ],
            ["owner and a due date agreed by the engineering manager.", "Plans are tested."],
        ]
    )
    upload(page, "outage-plan.pdf", pdf)

    # WHEN a question that sentence answers is asked and its citation opened
    page.fill("#question", "What does the outage write-up list?")
    page.press("#question", "Enter")
    claim = page.locator(".claim", has_text="each with an owner and a due date")
    claim.wait_for()
    conversation_id = page.evaluate("new URL(location.href).searchParams.get('c')")
    [question] = get_json(f"{server}/v1/conversations/{conversation_id}")["questions"]
    citation = next(c for c in question["response"]["citations"] if "owner and" in c["quote"])
    page.locator(f'.chip[data-citation="{citation["id"]}"]').first.click()

    # THEN the whole sentence is one claim, its first page is shown with its box, and the viewer
    # says the quote goes on
    assert page.locator("#viewer").get_attribute("data-page") == "1"
    note = page.locator("#viewer-continued")
    note.wait_for(state="visible")
    assert note.inner_text().startswith("The quote continues on page 2.")
    # AND following it shows page 2 with the rest of the quote boxed
    note.locator("button").click()
    page.wait_for_function("() => document.getElementById('viewer').dataset.page === '2'")
    active = page.locator(f'.page-box-active[data-citation="{citation["id"]}"]')
    assert active.count() == sum(1 for box in citation["boxes"] if box["page"] == 2) > 0
    assert page.locator("#viewer-continued").is_hidden()
    page.close()


def test_a_table_row_offered_as_reading_shows_its_cells_under_the_header(
    server: str, browser: Any
) -> None:
    page = open_app(browser, server)
    # GIVEN a retention schedule set as a table, uploaded through the page
    upload(page, "schedule.pdf", build_table_pdf())
    # WHEN a question the table answers is asked
    page.fill("#question", "How long is CCTV footage kept?")
    page.press("#question", "Enter")
    row = page.locator(".related-row").first
    row.wait_for()
    # THEN the row is offered as reading, its cells under the labels of the table's header
    header, *_, cctv = SCHEDULE_ROWS
    assert row.locator("th").all_inner_texts() == list(header)
    assert row.locator("td").all_inner_texts() == list(cctv)
    assert page.locator(".claim").count() == 0  # reading, never a verified statement
    # AND asking to see it opens its page with the row boxed where it is drawn
    conversation_id = page.evaluate("new URL(location.href).searchParams.get('c')")
    [question] = get_json(f"{server}/v1/conversations/{conversation_id}")["questions"]
    passage = question["response"]["related"][0]
    page.locator(".related-open").first.click()
    page.wait_for_function("() => document.getElementById('viewer').dataset.page === '1'")
    drawn = page.locator(".page-box-reading")
    assert drawn.count() == len(passage["boxes"]) == 1
    page.wait_for_function(
        "() => document.getElementById('page-image').naturalWidth > 0"
        " && document.getElementById('page-image').getBoundingClientRect().width > 0"
    )
    image = page.locator("#page-image").bounding_box()
    assert image is not None
    expected = expected_rect(passage["boxes"][0], image)
    actual = drawn.first.bounding_box()
    assert actual is not None
    for key in ("x", "y", "width", "height"):
        assert abs(actual[key] - expected[key]) <= TOLERANCE_PX, key
    page.close()


def test_a_chosen_citation_s_own_quote_is_shown_on_its_file_s_card(
    server: str, browser: Any
) -> None:
    page = open_app(browser, server)
    # GIVEN a plan whose rules stand under one heading, on one page
    pdf = build_pdf(
        [
            [
                "2. Where records are kept",
                "Every record has an owner who answers for it.",
                "Backups of customer data are kept for 35 days.",
                "Backups of customer data are stored in Frankfurt.",
                "Invoices are stored in the archive room.",
            ]
        ]
    )
    upload(page, "records-plan.pdf", pdf)

    # WHEN a question in two parts is asked, and each citation chosen in turn
    page.fill("#question", "How long are backups kept and where are invoices stored?")
    page.press("#question", "Enter")
    page.locator(".claim", has_text="Invoices are stored in the archive room").wait_for()
    conversation_id = page.evaluate("new URL(location.href).searchParams.get('c')")
    [question] = get_json(f"{server}/v1/conversations/{conversation_id}")["questions"]
    citations = [
        c for c in question["response"]["citations"] if c["file_name"] == "records-plan.pdf"
    ]
    assert len({c["page"] for c in citations}) == 1 < len(citations)
    for citation in citations:
        page.locator(f'.chip[data-citation="{citation["id"]}"]').first.click()
        # THEN the file's card quotes that citation, not the first one on its page, under
        # the heading it stands under, as the CLI prints it
        card = page.locator(".card-highlighted")
        assert card.locator(".card-excerpt").inner_text() == citation["quote"]
        assert citation["section"] == "2. Where records are kept"
        assert (
            card.locator(".card-section").inner_text()
            == "under \u201c2. Where records are kept\u201d"
        )
    page.close()


def test_a_model_s_paraphrase_is_shown_and_its_changed_fact_withheld_with_the_reason(
    tmp_path: Path, browser: Any, provider_server: ProviderServer, provider_keys: None
) -> None:
    # GIVEN `certiq serve` answering with OpenAI (the HTTP-level fake) in the model's own words:
    # the retention rule restated faithfully, and restated with its number changed
    faithful = "Customer data backups are retained for 35 days."
    changed = "Customer data backups are retained for 90 days."
    provider_server.responder = openai_stating([(faithful, "35 days"), (changed, "35 days")])
    settings = {
        "CERTIQ_ANSWER__PROVIDERS": '["openai"]',
        "CERTIQ_LLM__OPENAI_BASE_URL": provider_server.openai_url,
        "CERTIQ_LLM__MAX_RETRIES": "0",
    }
    with contextmanager(serve)(tmp_path / "home", settings) as url:
        page = open_app(browser, url)
        upload_retention_policy(page)
        # WHEN the question is asked on the page
        page.fill("#question", QUESTION)
        page.press("#question", "Enter")
        withheld = page.locator(".withheld")
        withheld.wait_for()
        # THEN the paraphrase is the answer, judged on its meaning, and the changed fact is not
        answer = page.locator(".answer").inner_text()
        assert faithful[:-1] in answer and changed[:-1] not in answer
        # AND it is listed as withheld, with the reason and the quote that overruled it
        assert withheld.locator("summary").inner_text() == (
            "1 statement withheld: its source says otherwise"
        )
        withheld.locator("summary").click()
        item = withheld.locator(".withheld-blocked")
        assert item.locator(".withheld-text").inner_text() == changed
        assert "contradicts" in item.locator(".withheld-reason").inner_text()
        assert "35 days" in item.locator(".withheld-quote").first.inner_text()
        page.close()
