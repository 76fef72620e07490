"""The LLM-judge verifier and the LLM claim splitter, driving the real SDK clients against the
HTTP-level provider fake (tests/provider_fakes.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from certiq.adapters.llm.claim_splitter import LlmClaimSplitter
from certiq.adapters.llm.judge import LlmJudgeVerifier
from certiq.adapters.llm.structured_output import (
    UnusableOutput,
)
from certiq.config import PolicySettings
from certiq.errors import ProviderError, TransientError
from certiq.models import Claim, RenderState
from certiq.trust.claims import compile_claims
from certiq.trust.policy import decide
from tests.fakes import make_citation
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_error,
    anthropic_message,
    anthropic_text,
    anthropic_tool_use,
    openai_completion,
    openai_error,
    structured_model,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

CLAIM = "Backups are kept for 35 days."
EVIDENCE = ["Backups of customer data are retained for 35 days."]


def verdict(label: str = "entail", entail: float = 0.93, **fields: Any) -> dict[str, Any]:
    rest = 1.0 - entail
    body = {
        "label": label,
        "entail": entail,
        "contradict": rest / 2,
        "neutral": rest / 2,
        "rationale": "The evidence states a 35-day retention.",
    }
    body.update(fields)
    return body


def anthropic_judge(server: ProviderServer, **settings: object) -> LlmJudgeVerifier:
    """Claude as the judge, with one SDK retry unless told otherwise."""
    return LlmJudgeVerifier(structured_model("anthropic", server, **{"max_retries": 1, **settings}))


def openai_judge(server: ProviderServer, **settings: object) -> LlmJudgeVerifier:
    """OpenAI as the judge, with one SDK retry unless told otherwise."""
    return LlmJudgeVerifier(structured_model("openai", server, **{"max_retries": 1, **settings}))


def tool_reply(tool_input: dict[str, Any], stop_reason: str = "tool_use") -> Reply:
    return Reply(
        200,
        anthropic_message([anthropic_tool_use("verdict", tool_input)], stop_reason=stop_reason),
    )


def json_reply(content: str | None, **fields: Any) -> Reply:
    return Reply(200, openai_completion(content, **fields))


def test_anthropic_judge_forces_its_tool_and_reads_the_verdict(
    provider_server: ProviderServer,
) -> None:
    # GIVEN a judge over the Messages API whose model answers entail through the forced tool
    provider_server.script = [tool_reply(verdict())]
    judge = anthropic_judge(provider_server)
    # WHEN it assesses a claim
    support = judge.assess(CLAIM, EVIDENCE)
    # THEN the verdict's probabilities come back, with the rationale
    assert (support.entail, support.note) == (0.93, None)
    assert support.rationale == "The evidence states a 35-day retention."
    # AND the request forced one tool whose input_schema is strict JSON
    body = provider_server.requests[0].body
    assert body["tool_choice"] == {"type": "tool", "name": "verdict"}
    (tool,) = body["tools"]
    schema = tool["input_schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"label", "entail", "contradict", "neutral", "rationale"}
    assert schema["properties"]["label"]["enum"] == ["entail", "contradict", "neutral"]
    assert CLAIM in body["messages"][0]["content"] and EVIDENCE[0] in body["messages"][0]["content"]
    assert judge.name == "llm-judge:anthropic:claude-sonnet-5"


def test_openai_judge_asks_for_strict_json_schema_and_reads_the_content(
    provider_server: ProviderServer,
) -> None:
    # GIVEN a judge over Chat Completions whose model answers contradict
    provider_server.script = [
        json_reply(json.dumps(verdict("contradict", 0.05, contradict=0.9, neutral=0.05)))
    ]
    judge = openai_judge(provider_server)
    # WHEN it assesses / THEN contradict is read and entail stays 0 (the label is not entail)
    support = judge.assess(CLAIM, EVIDENCE)
    assert (support.entail, support.contradict) == (0.0, 0.9)
    response_format = provider_server.requests[0].body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    assert response_format["json_schema"]["schema"]["additionalProperties"] is False
    assert judge.name == "llm-judge:openai:gpt-4.1-mini"


def test_a_neutral_label_never_carries_entailment(provider_server: ProviderServer) -> None:
    # GIVEN a model that says neutral yet gives entail 0.45 (neutral 0.5)
    provider_server.script = [tool_reply(verdict("neutral", 0.45, contradict=0.05, neutral=0.5))]
    # WHEN assessed / THEN entail is 0: only an entail label certifies
    assert anthropic_judge(provider_server).assess(CLAIM, EVIDENCE).entail == 0.0


def test_a_429_with_retry_after_is_retried_by_the_sdk(provider_server: ProviderServer) -> None:
    # GIVEN one throttled reply (with retry-after) before a good one, and one SDK retry allowed
    provider_server.script = [
        anthropic_error(429, "rate_limit_error", "slow down", retry_after_ms="10"),
        tool_reply(verdict()),
    ]
    # WHEN assessed / THEN the SDK retried and the verdict is read
    assert anthropic_judge(provider_server).assess(CLAIM, EVIDENCE).entail == 0.93
    assert provider_server.paths() == ["/v1/messages", "/v1/messages"]


@pytest.mark.parametrize(
    "failure",
    [
        openai_error(429, "requests", "Rate limit reached", retry_after_ms="10"),
        openai_error(500, "server_error", "The server had an error"),
    ],
)
def test_throttling_and_5xx_that_outlast_the_retries_raise_transient_error(
    provider_server: ProviderServer, failure: Reply
) -> None:
    # GIVEN a provider failing every attempt, one SDK retry allowed
    provider_server.responder = lambda request: failure
    # WHEN assessed / THEN a TransientError names the provider and status, after 2 attempts
    with pytest.raises(TransientError, match=rf"openai judge: HTTP {failure.status}"):
        openai_judge(provider_server).assess(CLAIM, EVIDENCE)
    assert len(provider_server.requests) == 2


def test_a_timeout_raises_transient_error(provider_server: ProviderServer) -> None:
    # GIVEN a provider slower than the client's timeout, no retries
    provider_server.responder = lambda request: Reply(
        200, anthropic_message([anthropic_tool_use("verdict", verdict())]), delay_seconds=2.0
    )
    judge = anthropic_judge(provider_server, timeout_seconds=0.2, max_retries=0)
    # WHEN assessed / THEN the timeout is a TransientError, not a verdict
    with pytest.raises(TransientError, match="anthropic judge: unreachable"):
        judge.assess(CLAIM, EVIDENCE)


@pytest.mark.parametrize(
    ("reply", "note"),
    [
        (json_reply("{'label': 'entail'"), "openai judge: malformed output (not JSON"),
        (
            json_reply(json.dumps({"label": "entail", "entail": 0.9})),
            "openai judge: malformed output (contradict: Field required",
        ),
        (json_reply(None, refusal="I can't help with that."), "openai judge: the model refused"),
        (
            json_reply(json.dumps(verdict("entail", 1.7))),
            "openai judge: malformed output (entail: Input should be less than or equal to 1",
        ),
        (
            json_reply(json.dumps(verdict("entail", 0.9, neutral=0.9))),
            "judge: inconsistent output (probabilities sum to 1.850)",
        ),
        (
            json_reply(json.dumps(verdict("entail", 0.2, neutral=0.7, contradict=0.1))),
            "judge: inconsistent output (label entail is not likeliest)",
        ),
        (json_reply('{"label": "ent', finish_reason="length"), "cut off at the token limit"),
    ],
)
def test_openai_output_that_is_no_verdict_never_verifies_and_says_why(
    provider_server: ProviderServer, reply: Reply, note: str
) -> None:
    # GIVEN replies that are not a usable verdict
    provider_server.responder = lambda request: reply
    judge = openai_judge(provider_server)
    claim = Claim(id="K1", text=CLAIM, citation_ids=["C1"])
    # WHEN a claim is decided on it
    decision = decide(claim, {"C1": make_citation(EVIDENCE[0])}, judge, PolicySettings())
    # THEN it is UNVERIFIED, labelled with the judge, and the reason quotes the failure
    assert decision.state is RenderState.UNVERIFIED and decision.entail == 0.0
    assert decision.verifier == "llm-judge:openai:gpt-4.1-mini"
    assert note in decision.reason


@pytest.mark.parametrize(
    ("reply", "note"),
    [
        (tool_reply(verdict(), stop_reason="refusal"), "anthropic judge: the model refused"),
        (tool_reply(verdict(), stop_reason="max_tokens"), "cut off at max_tokens"),
        (
            Reply(200, anthropic_message([anthropic_text("It is entailed.")])),
            "anthropic judge: no verdict tool call",
        ),
        (
            tool_reply(verdict(label="supported")),
            "anthropic judge: malformed output (label: Input should be 'entail'",
        ),
        (tool_reply({**verdict(), "extra": 1}), "extra: Extra inputs are not permitted"),
    ],
)
def test_anthropic_output_that_is_no_verdict_is_a_note_not_a_judgement(
    provider_server: ProviderServer, reply: Reply, note: str
) -> None:
    provider_server.script = [reply]
    support = anthropic_judge(provider_server).assess(CLAIM, EVIDENCE)
    assert support.entail == 0.0 and support.note is not None and note in support.note


def test_an_http_refusal_fails_the_question_rather_than_becoming_a_note(
    provider_server: ProviderServer,
) -> None:
    # GIVEN a provider that rejects the key
    provider_server.script = [anthropic_error(401, "authentication_error", "invalid x-api-key")]
    # WHEN assessed / THEN the error is raised, naming the provider and status: settings to fix
    with pytest.raises(ProviderError, match="anthropic judge: HTTP 401") as raised:
        anthropic_judge(provider_server).assess(CLAIM, EVIDENCE)
    assert not isinstance(raised.value, UnusableOutput)


def test_a_verified_decision_names_the_judge_and_keeps_its_rationale(
    provider_server: ProviderServer,
) -> None:
    # GIVEN a judge that entails (the greedy selection asks once, the decision once more)
    provider_server.responder = lambda request: tool_reply(verdict())
    claim = Claim(id="K1", text=CLAIM, citation_ids=["C1"])
    # WHEN decided / THEN VERIFIED by the judge, its rationale in the reason
    decision = decide(
        claim,
        {"C1": make_citation(EVIDENCE[0])},
        anthropic_judge(provider_server),
        PolicySettings(),
    )
    assert decision.state is RenderState.VERIFIED
    assert decision.verifier == "llm-judge:anthropic:claude-sonnet-5"
    assert "35-day retention" in decision.reason


def test_llm_splitter_decomposes_a_sentence_through_the_forced_tool(
    provider_server: ProviderServer,
) -> None:
    # GIVEN a model that splits a sentence into two claims
    claims = ["Backups are encrypted.", "Backups may be kept for 35 days."]
    provider_server.script = [
        Reply(200, anthropic_message([anthropic_tool_use("atomicclaims", {"claims": claims})]))
    ]
    splitter = LlmClaimSplitter(structured_model("anthropic", provider_server, max_retries=1))
    # WHEN compiled with it / THEN its claims, hedges stripped and recorded, named by the model
    sentence = Claim(
        id="K1", text="Backups are encrypted and may be kept 35 days.", citation_ids=[]
    )
    compiled = compile_claims([sentence], splitter)
    assert [(c.text, c.hedges) for c in compiled] == [
        ("Backups are encrypted.", []),
        ("Backups be kept for 35 days.", ["may"]),
    ]
    assert {c.compiled_by for c in compiled} == {"llm:anthropic:claude-sonnet-5"}
    assert provider_server.requests[0].body["tool_choice"]["name"] == "atomicclaims"


def test_llm_splitter_failure_falls_back_to_the_rules(provider_server: ProviderServer) -> None:
    # GIVEN a model whose decomposition is not JSON
    provider_server.script = [json_reply("claims: one, two")]
    splitter = LlmClaimSplitter(structured_model("openai", provider_server, max_retries=1))
    # WHEN compiled / THEN the rules split it and every claim says why
    sentence = Claim(
        id="K1", text="Backups are encrypted and logs are kept for 90 days.", citation_ids=[]
    )
    compiled = compile_claims([sentence], splitter)
    assert [c.text for c in compiled] == ["Backups are encrypted.", "Logs are kept for 90 days."]
    assert all(
        c.compiled_by is not None
        and c.compiled_by.startswith("rules (llm:openai:gpt-4.1-mini failed: openai claim")
        for c in compiled
    )
