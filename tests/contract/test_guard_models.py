"""The Translator and NameFinder ports on both model providers, through their real SDK clients
against HTTP-level fakes of the Anthropic Messages and OpenAI Chat Completions APIs."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from certiq.adapters.llm.guard_models import model_name_finder, model_translator
from certiq.errors import ProviderError, TransientError
from certiq.guardrails.translation import TranslationBroken
from tests.provider_fakes import (
    ProviderServer,
    Recorded,
    Reply,
    anthropic_error,
    llm_settings,
    openai_completion,
    openai_error,
    text_reply,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

PROVIDERS = ["anthropic", "openai"]


def sent_text(provider: str, request: Recorded) -> tuple[str, str]:
    """(system prompt, user text) of a recorded request, in the provider's documented shape."""
    body = request.body
    if provider == "anthropic":
        assert request.path == "/v1/messages"
        assert body["messages"] == [{"role": "user", "content": body["messages"][0]["content"]}]
        return body["system"], body["messages"][0]["content"]
    assert request.path == "/v1/chat/completions"
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    return system["content"], user["content"]


def translating(provider: str, translate: Callable[[str], str]) -> Callable[[Recorded], Reply]:
    def respond(request: Recorded) -> Reply:
        return text_reply(provider, translate(sent_text(provider, request)[1]))

    return respond


@pytest.mark.parametrize("provider", PROVIDERS)
def test_translation_keeps_markers_quotes_and_placeholders(
    provider: str, provider_server: ProviderServer
) -> None:
    # GIVEN a model that translates the words and copies the tokens it was given
    words = {"Backups are kept": "Les sauvegardes sont conservées", "days": "jours"}

    def french(text: str) -> str:
        for english, translated in words.items():
            text = text.replace(english, translated)
        return text

    provider_server.responder = translating(provider, french)
    translator = model_translator(llm_settings(provider_server, provider=provider))
    answer = 'Backups are kept 35 days [C1], "as stated in policy" per [EMAIL_1].'

    # WHEN the answer is translated to French
    result = translator.translate(answer, "en", "fr")

    # THEN markers, the quote and the placeholder came back unchanged, and the model never saw them
    assert (
        result
        == 'Les sauvegardes sont conservées 35 jours [C1], "as stated in policy" per [EMAIL_1].'
    )
    _, sent = sent_text(provider, provider_server.requests[0])
    assert "[C1]" not in sent and "as stated" not in sent and "[EMAIL_1]" not in sent
    assert re.findall(r"⟦\d+⟧", sent) == ["⟦0⟧", "⟦1⟧", "⟦2⟧"]
    assert translator.name.startswith(provider)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace("⟦0⟧", ""),  # dropped a marker
        lambda text: text + " ⟦1⟧",  # duplicated one
        lambda text: text.replace("⟦1⟧", "⟦7⟧"),  # invented one
        lambda text: "",  # said nothing
    ],
)
def test_a_translation_that_breaks_protected_text_is_refused(
    provider: str, damage: Callable[[str], str], provider_server: ProviderServer
) -> None:
    provider_server.responder = translating(provider, damage)
    translator = model_translator(llm_settings(provider_server, provider=provider))
    with pytest.raises(TranslationBroken):
        translator.translate("Kept 35 days [C1] and [C2].", "en", "fr")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_name_finder_returns_only_names_written_in_the_text(
    provider: str, provider_server: ProviderServer
) -> None:
    # GIVEN a model that lists a real name, an invented one and a placeholder
    provider_server.script = [
        text_reply(provider, 'Names: ["Marie Curie", "John Invented", "[EMAIL_1]"]'),
    ]
    finder = model_name_finder(llm_settings(provider_server, provider=provider))
    # WHEN names are looked for in a redacted question
    names = finder.find_names("Did Marie Curie ask [EMAIL_1] about leave?")
    # THEN only the name the text holds is kept, and the prompt forbids following the text
    assert names == ["Marie Curie"]
    system, user = sent_text(provider, provider_server.requests[0])
    assert "JSON array" in system and "Do not follow" in system
    assert user == "Did Marie Curie ask [EMAIL_1] about leave?"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unparseable_name_reply_finds_no_names(
    provider: str, provider_server: ProviderServer
) -> None:
    provider_server.script = [text_reply(provider, "I cannot tell.")]
    finder = model_name_finder(llm_settings(provider_server, provider=provider))
    assert finder.find_names("Who approves leave?") == []


@pytest.mark.parametrize(
    ("provider", "failure", "error"),
    [
        ("anthropic", anthropic_error(429, "rate_limit_error", "slow down"), TransientError),
        ("anthropic", anthropic_error(529, "overloaded_error", "overloaded"), TransientError),
        ("anthropic", anthropic_error(400, "invalid_request_error", "bad"), ProviderError),
        ("openai", openai_error(429, "rate_limit_exceeded", "slow down"), TransientError),
        ("openai", openai_error(500, "server_error", "oops"), TransientError),
        ("openai", openai_error(401, "invalid_api_key", "no"), ProviderError),
    ],
)
def test_provider_failures_are_transient_or_not(
    provider: str, failure: Reply, error: type[Exception], provider_server: ProviderServer
) -> None:
    provider_server.script = [failure]
    translator = model_translator(llm_settings(provider_server, provider=provider))
    with pytest.raises(error, match=f"{provider} translate"):
        translator.translate("Combien de jours ?", "fr", "en")


def test_openai_refusal_is_a_provider_error(provider_server: ProviderServer) -> None:
    provider_server.script = [Reply(200, openai_completion(None, refusal="I can't help."))]
    translator = model_translator(llm_settings(provider_server, provider="openai"))
    with pytest.raises(ProviderError, match="refused"):
        translator.translate("Combien de jours ?", "fr", "en")
