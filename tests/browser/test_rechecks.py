"""The certificate badge says how a sealed answer stands since its sources changed.

A policy is uploaded through the page and two answers quoting it are sealed; an edited version
(the backups sentence removed, the passwords one unchanged) is uploaded under the same name,
which re-checks both answers. Reloaded, the backups answer's badge warns, in words and colour,
that it is out of date (STALE), with the re-check's summary and date; the passwords answer says
quietly that its sources are unchanged; deleting the policy turns both to SOURCE_DELETED.
Where the re-checks route answers 404 or fails, the badge shows nothing more. Set
TEST_SCREENSHOT_RECHECK to a path to keep the screenshot.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_page import (
    browser,  # noqa: F401 (the fixture)
    get_json,
    open_app,
    serve,
    upload,
)
from tests.conftest import build_pdf

POLICY = "data-retention-policy.pdf"
BACKUPS = "Backups of customer data are kept for 35 days and then deleted."
LOGS = "Access logs are archived for one year before removal."
PASSWORDS = "Passwords must have at least twelve characters."
ASK_BACKUPS = "How long are backups of customer data kept?"
ASK_PASSWORDS = "How many characters must a password have?"
STALE_SUMMARY = f"Source changed since this answer: 1 quote no longer in {POLICY}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`certiq serve` over its own home, to which the test uploads the policy."""
    yield from serve(Path(tmp_path_factory.mktemp("certiq-rechecks")), {})


def ask(page: Any, question: str) -> str:
    """Asks on the page; returns the certificate id of the answer, once its badge checked it."""
    turns = page.locator(".turn")
    before = turns.count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    turn = turns.nth(before)
    turn.locator(".certificate-result.certificate-valid").wait_for()
    return str(turn.locator(".certificate-badge").get_attribute("data-certificate"))


def rechecks(server: str, certificate_id: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = get_json(f"{server}/v1/certificates/{certificate_id}/rechecks")
    return result


def standing_of(page: Any, certificate_id: str) -> Any:
    return page.locator(f'.certificate-standing[data-certificate="{certificate_id}"]')


def test_an_answer_whose_quote_was_removed_warns_and_an_unchanged_one_does_not(
    server: str,
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    # GIVEN two answers sealed on the policy, uploaded through the page
    page = open_app(browser, server)
    upload(page, POLICY, build_pdf([["Data retention policy.", BACKUPS, LOGS, PASSWORDS]]))
    backups = ask(page, ASK_BACKUPS)
    passwords = ask(page, ASK_PASSWORDS)
    # AND, never re-checked, the badge says nothing more than that the certificate is valid
    assert rechecks(server, backups) == []
    assert standing_of(page, backups).is_hidden()
    assert page.locator(".standing-warning").count() == 0

    # WHEN an edited policy, the backups sentence removed, is uploaded under the same name
    page.set_input_files(
        "#file-input",
        files=[
            {
                "name": POLICY,
                "mimeType": "application/pdf",
                "buffer": build_pdf([["Data retention policy, June edition.", LOGS, PASSWORDS]]),
            }
        ],
    )
    page.wait_for_function(
        "(name) => document.querySelector(`.upload[data-file-name='${name}']`)"
        "?.dataset.status === 'INDEXED'",
        arg=POLICY,
    )
    # (the answers citing it are re-checked once it is indexed, just after)
    deadline = time.monotonic() + 20
    while not (rechecks(server, backups) and rechecks(server, passwords)):
        assert time.monotonic() < deadline, "the answers were not re-checked"
        time.sleep(0.2)
    # AND the answers are shown again
    page.reload()
    page.wait_for_selector("body[data-ready]")

    # THEN the backups answer's badge warns that it is out of date, in words and colour
    stale = standing_of(page, backups)
    stale.locator(".standing-summary").wait_for()
    assert stale.get_attribute("data-standing") == "STALE"
    assert "standing-warning" in (stale.get_attribute("class") or "")
    assert stale.locator(".standing-label").inner_text() == "OUT OF DATE"
    assert stale.locator(".standing-summary").inner_text() == STALE_SUMMARY
    assert stale.locator(".standing-date").inner_text().startswith("(last checked ")
    assert stale.evaluate("n => getComputedStyle(n).color") == "rgb(180, 35, 24)"
    assert stale.is_visible()
    # AND with the date of the last re-check, and what became of the quote on hover
    [recheck] = rechecks(server, backups)
    assert stale.get_attribute("data-checked-at") == recheck["checked_at"]
    [finding] = recheck["findings"]
    assert finding["note"] in (stale.get_attribute("title") or "")
    # AND the certificate itself still checks: it is the sources that changed, not the seal
    turn = page.locator(".turn").filter(has=stale)
    assert turn.locator(".certificate-result.certificate-valid").count() == 1

    # AND the passwords answer, whose quote is unchanged, shows no warning: only a quiet line
    current = standing_of(page, passwords)
    page.wait_for_selector(
        f'.certificate-standing[data-certificate="{passwords}"][data-standing="CURRENT"]'
    )
    assert "standing-warning" not in (current.get_attribute("class") or "")
    assert current.inner_text().startswith("Sources unchanged, checked ")
    assert page.locator(".standing-warning").count() == 1

    screenshot = tmp_path / "recheck.png"
    stale.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot), full_page=False)
    assert screenshot.stat().st_size > 10_000
    keep = os.environ.get("TEST_SCREENSHOT_RECHECK")
    if keep:
        Path(keep).write_bytes(screenshot.read_bytes())

    # WHEN the page is switched to French
    page.locator("#language-toggle").click()

    # THEN the fixed words are French (the summary is the server's, in English)
    stale = standing_of(page, backups)
    stale.locator(".standing-summary").wait_for()
    assert stale.locator(".standing-label").inner_text() == "PÉRIMÉE"
    assert stale.locator(".standing-date").inner_text().startswith("(dernière vérification le ")
    assert standing_of(page, passwords).inner_text().startswith("Sources inchangées, vérifiées le")
    page.locator("#language-toggle").click()

    # WHEN the policy is deleted from the library, and the deletion confirmed
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f'.document:has-text("{POLICY}") .document-delete').click()

    # THEN both answers warn at once that their source is gone, without a reload
    for certificate_id in (backups, passwords):
        gone = standing_of(page, certificate_id)
        page.wait_for_selector(
            f'.certificate-standing[data-certificate="{certificate_id}"]'
            '[data-standing="SOURCE_DELETED"]'
        )
        assert gone.locator(".standing-label").inner_text() == "SOURCE DELETED"
        assert (
            gone.locator(".standing-summary")
            .inner_text()
            .startswith(f"Source deleted since this answer: {POLICY} was deleted")
        )
    page.close()


@pytest.mark.parametrize("refusal", ["404", "abort"])
def test_without_the_rechecks_route_the_badge_shows_nothing_more(
    server: str,
    browser: Any,  # noqa: F811
    refusal: str,
) -> None:
    # GIVEN the page where the re-checks route answers 404, or fails outright
    page = open_app(browser, server)
    upload(page, "password-policy.pdf", build_pdf([["Password policy.", PASSWORDS]]))

    def refuse(route: Any) -> None:
        if refusal == "404":
            route.fulfill(status=404, json={"message": "Not found"})
        else:
            route.abort()

    page.route("**/v1/certificates/*/rechecks", refuse)
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)

    # WHEN an answer is asked and its badge checks it
    ask(page, ASK_PASSWORDS)

    # THEN the certificate is valid, and nothing more is said, nor the sign-in dialog opened
    page.wait_for_timeout(300)
    assert page.locator(".certificate-result.certificate-valid").last.is_visible()
    assert page.locator(".certificate-standing:not([hidden])").count() == 0
    assert page.locator("#sign-in-dialog[open]").count() == 0
    assert dialogs == []
    page.close()
