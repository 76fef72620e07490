"""One plain-text prompt to the configured provider, its text back, under provider_errors.

A system prompt and one user message go to the Messages API or Chat Completions; the reply's
text comes back. A refusal or a reply with no choice is a ProviderError, and what the SDKs could
not recover from is re-raised by ``provider_errors`` as TransientError (the state machine's Retry)
or ProviderError. Clients come from certiq.adapters.llm.clients (timeouts, retries, endpoints).
Used by translation, name spotting and query rewriting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from certiq.adapters.llm.clients import Provider, anthropic_client, openai_client, provider_errors
from certiq.config import LlmSettings
from certiq.errors import ProviderError

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


def plain_completion(
    settings: LlmSettings, provider: Provider, action: str, max_tokens: int
) -> AnthropicCompletion | OpenAICompletion:
    """The provider's completion with its client (ConfigurationError when its key is missing)."""
    if provider == "anthropic":
        return AnthropicCompletion(
            anthropic_client(settings), settings.anthropic_model, max_tokens, action
        )
    return OpenAICompletion(openai_client(settings), settings.openai_model, max_tokens, action)
