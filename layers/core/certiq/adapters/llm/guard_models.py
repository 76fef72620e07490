"""The model behind translation and name spotting: one system + user turn, text back.

The request and its failures are certiq.adapters.llm.completion's (one plain-text prompt to the
configured provider, under provider_errors).
"""

from __future__ import annotations

from certiq.adapters.llm.completion import AnthropicCompletion, OpenAICompletion, plain_completion
from certiq.config import LlmSettings
from certiq.errors import ConfigurationError
from certiq.guardrails.translation import ModelNameFinder, ModelTranslator


def _completion(settings: LlmSettings, action: str) -> AnthropicCompletion | OpenAICompletion:
    if settings.provider == "none":
        raise ConfigurationError("no model provider is configured (llm.provider is none)")
    return plain_completion(settings, settings.provider, action, settings.max_output_tokens)


def model_translator(settings: LlmSettings) -> ModelTranslator:
    complete = _completion(settings, "translate")
    return ModelTranslator(complete, complete.name)


def model_name_finder(settings: LlmSettings) -> ModelNameFinder:
    complete = _completion(settings, "find names")
    return ModelNameFinder(complete, complete.name)
