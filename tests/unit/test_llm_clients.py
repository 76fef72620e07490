"""The SDK client factories and the meaning of provider failures, against the HTTP fake."""

from __future__ import annotations

import pytest

from certiq.adapters.llm.clients import anthropic_client, openai_client, provider_errors
from certiq.config import LlmSettings
from certiq.errors import ConfigurationError, ProviderError, TransientError
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_error,
    llm_settings,
    openai_completion,
    openai_error,
    text_reply,
)


def ask_anthropic(settings: LlmSettings) -> str:
    with provider_errors("anthropic", "draft"):
        message = anthropic_client(settings).messages.create(
            model=settings.anthropic_model,
            max_tokens=16,
            messages=[{"role": "user", "content": "hello"}],
        )
    block = message.content[0]
    assert block.type == "text"
    return block.text


def ask_openai(settings: LlmSettings) -> str | None:
    with provider_errors("openai", "draft"):
        completion = openai_client(settings).chat.completions.create(
            model=settings.openai_model, messages=[{"role": "user", "content": "hello"}]
        )
    return completion.choices[0].message.content


def test_clients_reach_the_configured_endpoint_with_settings_model(
    provider_server: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN keys in the SDKs' variables and a fake answering both APIs
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    provider_server.script = [
        text_reply("anthropic", "hi from claude"),
        text_reply("openai", "hi from gpt"),
    ]
    settings = llm_settings(provider_server)

    # WHEN each client asks
    # THEN each answer is parsed and each request went to the provider's path with the model
    assert ask_anthropic(settings) == "hi from claude"
    assert ask_openai(settings) == "hi from gpt"
    assert provider_server.paths() == ["/v1/messages", "/v1/chat/completions"]
    assert provider_server.requests[0].body["model"] == settings.anthropic_model
    sent = provider_server.requests[0].headers
    assert "sk-ant-test" in (sent.get("x-api-key", "") + sent.get("authorization", ""))
    assert provider_server.requests[1].body["model"] == settings.openai_model


def test_missing_keys_are_a_configuration_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN no provider key in the environment
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)

    # WHEN the clients are built THEN the error names the variable to set
    with pytest.raises(ConfigurationError, match="ANTHROPIC_API_KEY"):
        anthropic_client(LlmSettings())
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        openai_client(LlmSettings())


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (anthropic_error(429, "rate_limit_error", "slow down", retry_after="0"), TransientError),
        (anthropic_error(529, "overloaded_error", "overloaded"), TransientError),
        (anthropic_error(500, "api_error", "boom"), TransientError),
        (anthropic_error(400, "invalid_request_error", "bad"), ProviderError),
        (anthropic_error(401, "authentication_error", "no"), ProviderError),
    ],
)
def test_anthropic_failures_left_after_retries_are_named(
    provider_server: ProviderServer,
    monkeypatch: pytest.MonkeyPatch,
    reply: Reply,
    expected: type[Exception],
) -> None:
    # GIVEN an API that fails every request this way
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    provider_server.responder = lambda request: reply

    # WHEN asked THEN the failure is transient or not, and names provider, action and status
    with pytest.raises(expected, match=rf"anthropic draft: HTTP {reply.status}"):
        ask_anthropic(llm_settings(provider_server))


def test_sdk_retries_a_429_before_giving_up(
    provider_server: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN one 429 with retry-after 0, then an answer, and one SDK retry allowed
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    provider_server.script = [
        openai_error(429, "requests", "Rate limit reached", retry_after="0"),
        text_reply("openai", "second time lucky"),
    ]

    # WHEN asked THEN the SDK retried and the answer arrived
    assert ask_openai(llm_settings(provider_server, max_retries=1)) == "second time lucky"
    assert len(provider_server.requests) == 2


def test_openai_timeout_is_transient(
    provider_server: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN an API slower than the client's timeout
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    provider_server.responder = lambda request: Reply(
        200, openai_completion("too late"), delay_seconds=3
    )

    # WHEN asked with a 0.5 s timeout THEN it is a TransientError saying unreachable
    with pytest.raises(TransientError, match="openai draft: unreachable"):
        ask_openai(llm_settings(provider_server, timeout_seconds=0.5))
