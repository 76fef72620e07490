"""The model query rewriter, with the real SDK clients against the HTTP fake of each API."""

from __future__ import annotations

import pytest

from certiq.adapters.llm.query_rewriter import LlmQueryRewriter, clean_query, conversation_prompt
from certiq.bootstrap import build_rewriter
from certiq.config import ConversationSettings, LlmSettings, Settings
from certiq.errors import ConfigurationError, ProviderError, TransientError
from certiq.ports import Turn
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_error,
    llm_settings,
    openai_completion,
    openai_error,
    text_reply,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

TURNS = [Turn("How long are backups kept?", "Backups are kept for 35 days.")]
FOLLOW_UP = "and for contractors?"


def test_anthropic_writes_the_query_from_the_conversation(provider_server: ProviderServer) -> None:
    # GIVEN the Messages API answering with a query on a labelled, quoted line
    provider_server.script = [text_reply("anthropic", 'Query: "contractor backup retention"')]
    rewriter = LlmQueryRewriter(llm_settings(provider_server), "anthropic")
    # WHEN the follow-up is rewritten
    query = rewriter.rewrite(FOLLOW_UP, TURNS)
    # THEN the query comes back clean, and the request carried instructions, turns and question
    assert query == "contractor backup retention"
    (request,) = provider_server.requests
    assert request.path == "/v1/messages"
    assert request.body["model"] == "claude-sonnet-5" and request.body["max_tokens"] <= 200
    assert "standalone search query" in request.body["system"]
    prompt = request.body["messages"][0]["content"]
    assert TURNS[0].question in prompt and TURNS[0].answer in prompt and FOLLOW_UP in prompt
    assert rewriter.name == "anthropic:claude-sonnet-5"


def test_openai_writes_the_query_from_the_conversation(provider_server: ProviderServer) -> None:
    provider_server.script = [text_reply("openai", "contractor backup retention\n")]
    rewriter = LlmQueryRewriter(llm_settings(provider_server), "openai")
    assert rewriter.rewrite(FOLLOW_UP, TURNS) == "contractor backup retention"
    (request,) = provider_server.requests
    assert request.path == "/v1/chat/completions"
    roles = [message["role"] for message in request.body["messages"]]
    assert roles == ["system", "user"] and FOLLOW_UP in request.body["messages"][1]["content"]


def test_provider_failures_surface_as_certiq_errors(provider_server: ProviderServer) -> None:
    settings = llm_settings(provider_server)
    provider_server.script = [
        anthropic_error(529, "overloaded_error", "Overloaded"),
        openai_error(401, "invalid_request_error", "bad key"),
        Reply(200, openai_completion(None, refusal="I can't help with that.")),
        text_reply("anthropic", "  \n "),
    ]
    with pytest.raises(TransientError, match="HTTP 529"):
        LlmQueryRewriter(settings, "anthropic").rewrite(FOLLOW_UP, TURNS)
    with pytest.raises(ProviderError, match="HTTP 401"):
        LlmQueryRewriter(settings, "openai").rewrite(FOLLOW_UP, TURNS)
    with pytest.raises(ProviderError, match="refused"):
        LlmQueryRewriter(settings, "openai").rewrite(FOLLOW_UP, TURNS)
    with pytest.raises(ProviderError, match="no query"):
        LlmQueryRewriter(settings, "anthropic").rewrite(FOLLOW_UP, TURNS)


def test_a_missing_key_fails_the_rewrite_not_the_bootstrap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    rewriter = build_rewriter(Settings(llm=LlmSettings(provider="anthropic")))
    assert rewriter is not None
    with pytest.raises(ConfigurationError, match="ANTHROPIC_API_KEY"):
        rewriter.rewrite(FOLLOW_UP, TURNS)


def test_bootstrap_builds_a_model_rewriter_only_for_a_provider_in_auto() -> None:
    assert build_rewriter(Settings()) is None
    assert build_rewriter(Settings(llm=LlmSettings(provider="openai"))) is not None
    rules = Settings(
        llm=LlmSettings(provider="openai"), conversation=ConversationSettings(rewriter="rules")
    )
    assert build_rewriter(rules) is None


def test_prompt_and_cleaning() -> None:
    prompt = conversation_prompt(FOLLOW_UP, [Turn("q1", ""), *TURNS])
    assert "1. Question: q1" in prompt and "(no answer)" in prompt
    assert prompt.rstrip().endswith("Standalone search query:")
    assert clean_query("\n\n`backup retention`\nBecause ...") == "backup retention"
    assert clean_query("Standalone search query: backups") == "backups"
    assert clean_query("") == ""
