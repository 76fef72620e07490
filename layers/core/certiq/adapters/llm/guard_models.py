"""The model behind translation and name spotting: one system + user turn, text back.

Clients come from certiq.adapters.llm.clients (timeouts, retries and endpoints set there); what
their SDKs could not recover from is re-raised by ``provider_errors`` as TransientError (the
state machine's Retry) or ProviderError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from certiq.adapters.llm.clients import anthropic_client, openai_client, provider_errors
from certiq.config import LlmSettings
from certiq.errors import ConfigurationError, ProviderError
from certiq.guardrails.translation import Complete, ModelNameFinder, ModelTranslator

if TYPE_CHECKING:
    import anthropic
    import openai


class AnthropicCompletion:
    """Messages API: the system prompt, one user message, the text blocks of the reply."""

    def __init__(self, client: anthropic.Anthropic, model: str, max_tokens: int, action: str):
        self._client = client
        self._model = model
        self._max_tokens = max_tokens
        self._action = action
        self.name = f"anthropic:{model}"

    def __call__(self, system: str, user: str) -> str:
        with provider_errors("anthropic", self._action):
            message = self._client.messages.create(
                model=self._model,
                max_tokens=self._max_tokens,
                system=system,
                messages=[{"role": "user", "content": user}],
            )
        if message.stop_reason == "refusal":
            raise ProviderError(f"anthropic {self._action}: the model refused")
        return "".join(block.text for block in message.content if block.type == "text")


class OpenAICompletion:
    """Chat Completions: a system and a user message, the first choice's content."""

    def __init__(self, client: openai.OpenAI, model: str, max_tokens: int, action: str):
        self._client = client
        self._model = model
        self._max_tokens = max_tokens
        self._action = action
        self.name = f"openai:{model}"

    def __call__(self, system: str, user: str) -> str:
        with provider_errors("openai", self._action):
            completion = self._client.chat.completions.create(
                model=self._model,
                max_completion_tokens=self._max_tokens,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
            )
        if not completion.choices:
            raise ProviderError(f"openai {self._action}: no choice in the reply")
        message = completion.choices[0].message
        if message.refusal:
            raise ProviderError(f"openai {self._action}: the model refused ({message.refusal})")
        return message.content or ""


def _completion(settings: LlmSettings, action: str) -> tuple[Complete, str]:
    if settings.provider == "anthropic":
        anthropic_completion = AnthropicCompletion(
            anthropic_client(settings), settings.anthropic_model, settings.max_output_tokens, action
        )
        return anthropic_completion, anthropic_completion.name
    if settings.provider == "openai":
        openai_completion = OpenAICompletion(
            openai_client(settings), settings.openai_model, settings.max_output_tokens, action
        )
        return openai_completion, openai_completion.name
    raise ConfigurationError("no model provider is configured (llm.provider is none)")


def model_translator(settings: LlmSettings) -> ModelTranslator:
    complete, name = _completion(settings, "translate")
    return ModelTranslator(complete, name)


def model_name_finder(settings: LlmSettings) -> ModelNameFinder:
    complete, name = _completion(settings, "find names")
    return ModelNameFinder(complete, name)
