"""Certified answers that stay true: re-checked when the policy they quote changes or goes.

A retention policy is ingested and three answers quoting it are sealed; an edited version
(one quoted sentence reworded, one removed, one unchanged) is ingested under the same path, and
each answer is re-checked on its own: CHANGED, STALE and CURRENT through `certiq recheck`,
`certiq verify` and the API; deleting the policy leaves them SOURCE_DELETED. The certificates
are never rewritten, and the chain of re-check records checks with the public key alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
from aws_lambda_powertools.utilities.typing import LambdaContext
from click.testing import CliRunner, Result

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.api.routes import create_app
from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import Settings
from certiq.models import Certificate, Recheck, Standing
from certiq.trust.rechecks import check_rechecks_with_public_key
from certiq.trust.signatures import load_public_key
from tests.conftest import MakePdf
from tests.fakes import api_gateway_event

POLICY = "data-retention-policy.pdf"
BACKUPS = "Backups of customer data are kept for 35 days and then deleted."
BACKUPS_NOW = "Backups of customer data are kept for 90 days and then deleted."
LOGS = "Access logs are archived for one year before removal."
PASSWORDS = "Passwords must have at least twelve characters."
QUESTIONS = {
    "backups": ("How long are backups of customer data kept?", BACKUPS),
    "logs": ("How long are access logs archived?", LOGS),
    "passwords": ("How many characters must a password have?", PASSWORDS),
}


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"CERTIQ_HOME": str(home)})


@dataclass
class Sealed:
    home: Path
    pdf: Path
    doc_id: str
    certificates: dict[str, str]  # question key -> certificate id


class Context:
    function_name = "api"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:api"
    aws_request_id = "req-1"


def call_api(home: Path, method: str, path: str) -> tuple[int, Any]:
    """Resolves one request with the API's router over the data in home."""
    deps = build_deps(Settings(home=home))
    app = create_app(deps, LocalRuntime(deps))
    event = api_gateway_event(method, path, headers={"Content-Type": "application/json"})
    result: dict[str, Any] = app.resolve(event, cast(LambdaContext, Context()))
    return int(result["statusCode"]), json.loads(result.get("body") or "null")


@pytest.fixture
def sealed(tmp_path: Path, make_pdf: MakePdf) -> Sealed:
    home, folder = tmp_path / "home", tmp_path / "in"
    folder.mkdir()
    pdf = folder / POLICY
    pdf.write_bytes(make_pdf([["Data retention policy.", BACKUPS, LOGS, PASSWORDS]]))
    assert run(home, "ingest", str(pdf)).exit_code == 0
    certificates: dict[str, str] = {}
    for key, (question, quote) in QUESTIONS.items():
        result = run(home, "ask", question, "--json")
        assert result.exit_code == 0, result.output
        answer = json.loads(result.output)
        assert [citation["quote"] for citation in answer["citations"]] == [quote]
        certificates[key] = answer["certificate_id"]
    documents = json.loads(run(home, "documents", "--json").output)
    return Sealed(home, pdf, documents[0]["doc_id"], certificates)


def latest(home: Path, certificate_id: str) -> Recheck:
    status, body = call_api(home, "GET", f"/v1/certificates/{certificate_id}/rechecks")
    assert status == 200, body
    return Recheck.model_validate(body[-1])


def test_an_edited_policy_leaves_its_answers_changed_stale_and_current(
    sealed: Sealed, make_pdf: MakePdf
) -> None:
    home, ids = sealed.home, sealed.certificates
    # GIVEN three answers quoting the policy, which the policy's citations route lists
    status, citations = call_api(home, "GET", f"/v1/documents/{sealed.doc_id}/citations")
    assert status == 200
    assert citations == {
        "doc_id": sealed.doc_id,
        "certificates": list(ids.values()),
        "count": 3,
    }
    sealed_before = {key: run(home, "export", cid).output for key, cid in ids.items()}

    # WHEN an edited version is ingested: backups reworded, logs removed, passwords unchanged
    sealed.pdf.write_bytes(
        make_pdf([["Data retention policy, June edition.", BACKUPS_NOW, PASSWORDS]])
    )
    assert run(home, "ingest", str(sealed.pdf)).exit_code == 0

    # THEN each answer was re-checked on ingestion, and stands as its quote does
    backups, logs, passwords = (latest(home, ids[key]) for key in QUESTIONS)
    assert (backups.standing, logs.standing, passwords.standing) == (
        "CHANGED",
        "STALE",
        "CURRENT",
    )
    [reworded] = backups.findings
    assert reworded.now_text == BACKUPS_NOW and reworded.verdicts
    assert logs.summary == f"Source changed since this answer: 1 quote no longer in {POLICY}"

    # AND `certiq recheck` says the same, with its findings, and records a new re-check
    result = run(home, "recheck", "--all")
    assert result.exit_code == 0, result.output
    assert f"STALE           {ids['logs']}: Source changed" in result.output
    assert f"CHANGED         {ids['backups']}" in result.output
    assert f"CURRENT         {ids['passwords']}" in result.output
    assert f'now "{BACKUPS_NOW}"' in result.output
    # AND `certiq verify` checks the sealed certificate and prints its standing
    result = run(home, "verify", ids["logs"])
    assert result.exit_code == 0, result.output
    assert "VALID" in result.output and "Standing: STALE, last checked" in result.output

    # AND the API re-checks on demand, in JSON, and words an unknown certificate's 404
    status, body = call_api(home, "POST", f"/v1/certificates/{ids['backups']}/recheck")
    assert (status, body["standing"], body["sequence"]) == (200, "CHANGED", 3)
    status, body = call_api(home, "POST", "/v1/certificates/cert-unknown/recheck")
    assert (status, body["message"]) == (404, "no certificate cert-unknown")

    # AND no certificate was rewritten
    assert {key: run(home, "export", cid).output for key, cid in ids.items()} == sealed_before


def test_a_deleted_policy_leaves_its_answers_source_deleted_in_a_chain_that_checks(
    sealed: Sealed, tmp_path: Path
) -> None:
    home, ids = sealed.home, sealed.certificates
    # GIVEN the policy's answers re-checked once, unchanged
    assert run(home, "recheck", ids["passwords"]).exit_code == 0
    # WHEN the policy is deleted through the API
    status, _ = call_api(home, "DELETE", f"/v1/documents/{sealed.doc_id}")
    assert status in (200, 202, 204)

    # THEN every answer quoting it is SOURCE_DELETED, worded for people
    for key in QUESTIONS:
        recheck = latest(home, ids[key])
        assert recheck.standing == "SOURCE_DELETED", key
        assert recheck.summary.startswith(f"Source deleted since this answer: {POLICY}")
    # AND the tombstone still lists the certificates citing it
    status, citations = call_api(home, "GET", f"/v1/documents/{sealed.doc_id}/citations")
    assert (status, citations["count"]) == (200, 3)

    # AND with the public key alone (exported certificate and re-checks) the chain checks
    (tmp_path / "key.pem").write_text(run(home, "public-key").output)
    key = load_public_key((tmp_path / "key.pem").read_bytes())
    certificate_json = run(home, "export", ids["passwords"]).output
    status, body = call_api(home, "GET", f"/v1/certificates/{ids['passwords']}/rechecks")
    certificate = Certificate.model_validate_json(certificate_json)
    rechecks = [Recheck.model_validate(each) for each in body]
    assert [r.standing for r in rechecks] == ["CURRENT", "SOURCE_DELETED"]
    checks = check_rechecks_with_public_key(certificate, rechecks, key)
    assert [c.valid for c in checks] == [True, True]
    # AND a re-check's standing rewritten in the store no longer checks
    forged = rechecks[-1].model_copy(update={"standing": Standing.CURRENT})
    assert not check_rechecks_with_public_key(certificate, [rechecks[0], forged], key)[-1].valid

    # AND an unknown document has no citations, in words
    status, body = call_api(home, "GET", "/v1/documents/doc-unknown/citations")
    assert (status, body["message"]) == (404, "no document doc-unknown")
