"""The whole state machine with the verifier chosen in settings: an LLM judge over the provider
fake labels every verdict with itself, and a provider that keeps failing fails the question
with the reason (never a claim shown as verified)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import (
    RedactionSettings,
    Settings,
    TranslationSettings,
    VerificationSettings,
)
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import QuestionStatus, RenderState
from certiq.questions import receive
from tests.conftest import MakePdf
from tests.provider_fakes import (
    ProviderServer,
    Recorded,
    Reply,
    anthropic_error,
    anthropic_message,
    anthropic_tool_use,
    llm_settings,
)

FACT = "Backups of customer data are kept for 35 days and they are encrypted at rest."
QUESTION = "How long are backups of customer data kept?"


def settings(home: Path, server: ProviderServer) -> Settings:
    return Settings(
        home=home,
        llm=llm_settings(server, provider="anthropic"),
        verification=VerificationSettings(verifier="llm"),
        # The fake answers as a judge only: no other model pass runs on the question.
        redaction=RedactionSettings(names="off"),
        translation=TranslationSettings(enabled=False),
    )


def judge(request: Recorded) -> Reply:
    """Entails every claim, with a rationale quoting it."""
    claim = request.body["messages"][0]["content"].split("\n")[1]
    verdict = {
        "label": "entail",
        "entail": 0.9,
        "contradict": 0.05,
        "neutral": 0.05,
        "rationale": f"stated: {claim}",
    }
    message = anthropic_message([anthropic_tool_use("verdict", verdict)], stop_reason="tool_use")
    return Reply(200, message)


@pytest.fixture
def deps(
    tmp_path: Path, make_pdf: MakePdf, provider_server: ProviderServer, provider_keys: None
) -> Deps:
    """The LLM judge on the provider fake, and the policy indexed (no model call ingests it)."""
    deps = build_deps(settings(tmp_path / "home", provider_server))
    policy = make_pdf([["Retention policy.", FACT]])
    ingest(Upload(data=policy, file_name="p.pdf", uri="file:///p.pdf", tenant="default"), deps)
    return deps


def test_the_llm_judge_decides_every_claim_and_is_named_on_each_verdict(
    deps: Deps, provider_server: ProviderServer
) -> None:
    # GIVEN settings choosing the LLM judge, a provider that entails, and an indexed policy
    provider_server.responder = judge
    # WHEN a question runs through the state machine
    state = receive(QUESTION, deps)
    run = LocalRuntime(deps, sleep=lambda seconds: None).run(state)
    # THEN the offline answer's sentence, quoted word for word, is one claim judged whole
    # (never split into words the document does not have), VERIFIED by the named judge
    assert run.execution.status == "SUCCEEDED"
    claims = run.state.claims
    assert [(c.text, c.compiled_by) for c in claims] == [(FACT, "quoted")]
    assert {c.decision.verifier for c in claims if c.decision} == {
        "llm-judge:anthropic:claude-sonnet-5"
    }
    assert all(c.decision and c.decision.state is RenderState.VERIFIED for c in claims)
    # AND the judge saw each claim with its evidence, and the answer reads as the sentence
    judged = [json.dumps(r.body) for r in provider_server.requests]
    assert any(FACT in body for body in judged)
    assert run.state.answer == f"{FACT} [C1]"


def test_a_provider_that_keeps_failing_fails_the_question_with_the_reason(
    deps: Deps, provider_server: ProviderServer
) -> None:
    # GIVEN a judge whose provider answers 529 overloaded every time, and an indexed policy
    provider_server.responder = lambda request: anthropic_error(
        529, "overloaded_error", "Overloaded"
    )
    sleeps: list[float] = []
    # WHEN a question runs
    state = receive(QUESTION, deps)
    run = LocalRuntime(deps, sleep=sleeps.append).run(state)
    # THEN Verify was retried by the state machine, then the question FAILED saying why
    assert run.execution.status == "FAILED" and sleeps
    record = deps.questions.get(state.question_id)
    assert record is not None and record.status is QuestionStatus.FAILED
    assert record.reason is not None and "anthropic judge: HTTP 529" in record.reason
    assert deps.certificates.get(f"cert-{state.question_id}") is None
