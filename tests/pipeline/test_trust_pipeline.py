"""Fail-closed rendering through the whole state machine: a contradicted claim never shows."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.cli.render import readable
from certiq.config import Settings
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import (
    QuestionStatus,
    RenderState,
)
from certiq.questions import receive
from certiq.trust.certificate import check
from tests.conftest import MakePdf
from tests.fakes import DENIAL, DenyingModel

FACT = "Backups of customer data are kept for 35 days."


def contradicted_policy(tmp_path: Path, make_pdf: MakePdf) -> Deps:
    """A policy stating FACT, indexed, and a chat model that drafts FACT then its DENIAL."""
    deps = build_deps(Settings(home=tmp_path / "home"))
    data = make_pdf([["Retention policy.", FACT]])
    ingest(
        Upload(data=data, file_name="policy.pdf", uri="file:///policy.pdf", tenant="default"), deps
    )
    return dataclasses.replace(deps, chat_model=DenyingModel())


def test_a_contradicted_claim_is_blocked_and_absent_from_the_answer(
    tmp_path: Path, make_pdf: MakePdf
) -> None:
    # GIVEN an indexed policy and a model that contradicts it in its second sentence
    deps = contradicted_policy(tmp_path, make_pdf)
    # WHEN a question runs through the state machine
    state = receive("How long are backups of customer data kept?", deps)
    run = LocalRuntime(deps).run(state)
    # THEN the denial is BLOCKED and the rendered answer shows only the supported claim
    assert run.execution.status == "SUCCEEDED"
    states = {claim.text: claim.decision.state for claim in run.state.claims if claim.decision}
    assert states == {FACT: RenderState.VERIFIED, DENIAL: RenderState.BLOCKED}
    assert run.state.answer == f"{FACT} [C1]"
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.COMPLETE
    assert DENIAL not in record.response.answer
    assert [claim.text for claim in record.response.claims] == [FACT]
    # AND the certificate keeps the blocked claim with its decision, for the audit
    certificate = deps.certificates.get(record.response.certificate_id or "")
    assert certificate is not None and check(certificate, deps.signer).valid
    blocked = [
        c for c in certificate.claims if c.decision and c.decision.state is RenderState.BLOCKED
    ]
    assert [claim.text for claim in blocked] == [DENIAL]


def test_a_blocked_statement_is_listed_as_withheld_with_its_reason_and_quote(
    tmp_path: Path, make_pdf: MakePdf
) -> None:
    # GIVEN an indexed policy and a model that contradicts it in its second sentence
    deps = contradicted_policy(tmp_path, make_pdf)
    # WHEN a question runs through the state machine
    state = receive("How long are backups of customer data kept?", deps)
    LocalRuntime(deps).run(state)
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    response = record.response
    # THEN the API's response lists the denial as withheld, with why and what it was judged on
    (withheld,) = [s for s in response.statements if not s.shown]
    assert (withheld.text, withheld.state) == (DENIAL, RenderState.BLOCKED)
    assert withheld.reason.startswith("the cited evidence contradicts this claim")
    quotes = {c.id: c.quote for c in response.citations}
    assert [quotes[cid] for cid in withheld.citation_ids] == [FACT]
    # AND the shown statements join into the answer, the same string the certificate seals
    shown = [s for s in response.statements if s.shown]
    assert [s.text for s in shown] == [FACT]
    certificate = deps.certificates.get(response.certificate_id or "")
    assert certificate is not None and certificate.answer == response.answer
    # AND the CLI prints it under its count and reason
    printed = readable(response)
    assert "Withheld: 1 statement withheld: its source says otherwise" in printed
    assert f"BLOCKED: {DENIAL}" in printed


PASSWORDS = "Passwords must be at least 14 characters long and must not be reused across services."


def test_a_claim_quoting_its_evidence_is_verified_never_blocked(
    tmp_path: Path, make_pdf: MakePdf
) -> None:
    # GIVEN a policy PDF stating the password rule, judged by the default verifier (certiq's model)
    deps = build_deps(Settings(home=tmp_path / "home"))
    data = make_pdf(
        [
            [
                "Acceptable use policy.",
                PASSWORDS,
                "The company password manager must be used to store work credentials.",
            ]
        ]
    )
    ingest(Upload(data=data, file_name="aup.pdf", uri="file:///aup.pdf", tenant="default"), deps)
    # WHEN the demo's password question runs through the state machine
    state = receive("How many characters must a password have at least?", deps)
    run = LocalRuntime(deps).run(state)
    # THEN the rule, quoted word for word, is one claim, VERIFIED, and nothing quoted is BLOCKED
    assert run.execution.status == "SUCCEEDED"
    decided = {c.text: c.decision for c in run.state.claims if c.decision is not None}
    length = decided[PASSWORDS]
    assert length.state is RenderState.VERIFIED
    assert length.verifier == "nli:certiq-verifier-minilm-v2"
    assert "word for word" in length.reason
    assert all(d.state is not RenderState.BLOCKED for d in decided.values())
    assert "at least 14 characters long" in run.state.answer
