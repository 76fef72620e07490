"""The page in headless Chromium: each statement's state in words, the source card's reading of
its quote, Delete's confirmation, and the question's status arriving as server-sent events."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_page import (
    FACT,
    FILE_NAME,
    QUESTION,
    browser,  # noqa: F401 (the fixture)
    open_app,
    retention_policy_pdf,
    serve,
    upload,
)


@pytest.fixture(scope="module")
def answered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`certiq serve` over its own home, to which the tests upload the retention policy."""
    yield from serve(Path(tmp_path_factory.mktemp("certiq-states")), {})


def ask(page: Any, question: str = QUESTION) -> None:
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.locator('.chip[data-citation="C1"]').first.wait_for()


def test_the_status_arrives_by_events_and_states_are_shown_in_words(
    answered: str,
    browser: Any,  # noqa: F811
) -> None:
    # GIVEN the page over a server with the retention policy, watching its requests
    page = open_app(browser, answered)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    upload(page, FILE_NAME, retention_policy_pdf())
    page.evaluate(
        "() => { window.viaSeen = [];"
        " new MutationObserver((records) => records.forEach((r) =>"
        "   window.viaSeen.push(r.target.dataset.via + ':' + r.target.dataset.status)))"
        " .observe(document.getElementById('conversation'),"
        "   {subtree: true, attributes: true, attributeFilter: ['data-status']}); }"
    )

    # WHEN a question is asked
    ask(page)

    # THEN its status came by the question's event stream, not by polling
    assert any(re.search(r"/v1/questions/[^/]+/events$", url) for url in requests)
    assert not [url for url in requests if re.search(r"/v1/questions/[^/?]+$", url)]
    seen = page.evaluate("window.viaSeen")
    assert seen and all(item.startswith("events:") for item in seen), seen
    # AND each statement shows its state in words, coloured, beside it (not only on hover)
    claim = page.locator(".claim", has_text=FACT.rstrip("."))
    badge = page.locator(".answer .state-badge").first
    assert badge.is_visible()
    assert badge.inner_text() == "VERIFIED"
    assert "state-verified" in (badge.get_attribute("class") or "")
    assert badge.evaluate("b => getComputedStyle(b).color") == "rgb(31, 122, 77)"
    assert claim.count() == 1
    # AND the source card says the page, that it is quoted, and whether it answers the question
    card = page.locator(".source .card").first
    meta = card.locator(".card-meta").inner_text()
    assert "page 2" in meta and "quoted" in meta
    assert "relevance" not in card.inner_text()
    answers = card.locator(".card-answers")
    score = float(answers.get_attribute("data-answers") or "nan")
    expected = "likely" if score >= 0.5 else "possibly"
    assert answers.inner_text() == f"answers your question: {expected}"

    # WHEN the page is switched to French
    page.locator("#language-toggle").click()

    # THEN the state and the card read in French
    assert page.locator(".answer .state-badge").first.inner_text() == "VÉRIFIÉ"
    assert "cité" in page.locator(".source .card-meta").first.inner_text()
    page.locator("#language-toggle").click()

    # WHEN the file is to be deleted, and the question dismissed
    messages: list[str] = []

    def dismiss(dialog: Any) -> None:
        messages.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    delete = page.locator(f'.document:has-text("{FILE_NAME}") .document-delete')
    delete.click()
    page.wait_for_timeout(300)

    # THEN it asked, naming the file and how many certified answers cite it (when the API
    # counts them), and the file is still there
    assert len(messages) == 1
    assert messages[0].startswith(f"Delete {FILE_NAME}?")
    counted = re.search(r"(\d+) certified answers? cites? it", messages[0])
    if counted:
        assert int(counted.group(1)) >= 1
    assert page.locator(f'.document-indexed:has-text("{FILE_NAME}")').count() == 1

    # WHEN it is confirmed
    page.once("dialog", lambda dialog: dialog.accept())
    delete.click()

    # THEN the file is deleted
    page.locator(f'.document-deleted:has-text("{FILE_NAME}")').wait_for()
    page.close()


def test_an_empty_file_is_refused_saying_so(answered: str, browser: Any) -> None:  # noqa: F811
    page = open_app(browser, answered)
    page.set_input_files(
        "#file-input", files=[{"name": "empty.pdf", "mimeType": "application/pdf", "buffer": b""}]
    )
    failed = page.locator('.upload[data-file-name="empty.pdf"][data-status="FAILED"]')
    failed.wait_for()
    assert "the file is empty" in failed.inner_text()
    page.close()
