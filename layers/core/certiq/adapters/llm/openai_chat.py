"""OpenAI as a ChatModel: Chat Completions with a strict JSON Schema of cited sentences.

The evidence goes in the last user message as labelled passages ([S1] (file, page) text); the
reply must match {"sentences": [{"text", "citation_ids"}]} (response_format json_schema,
strict). Labels map back to span ids (unknown ones are dropped) and each cited span is quoted
whole. A refusal (message.refusal) or a reply that parses to no cited sentence is unusable: the
fallback chain asks the next provider. A reply that is not the JSON asked for is read as marked
prose ([S1] markers, <extract> tags) before it is given up on. OpenAI caches repeated prompt
prefixes of 1,024 tokens or more by itself; the cached count is recorded.

The flow around the request (timing, usage, the checks that make a draft usable) is
certiq.adapters.llm.drafting's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from certiq.adapters.llm.drafting import ProviderChat, Reading, earlier_turns
from certiq.answering.parsing import EvidenceIds, parse_model_text
from certiq.answering.prompts import (
    JSON_FORMAT,
    labelled_evidence,
    question_message,
)
from certiq.models import ConversationTurn, EvidenceSpan, ModelCall

if TYPE_CHECKING:
    import openai  # noqa: F401 (the client type named in the base class)
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
    from openai.types.shared_params import ResponseFormatJSONSchema

PROVIDER: Final = "openai"

RESPONSE_FORMAT: Final[ResponseFormatJSONSchema] = {
    "type": "json_schema",
    "json_schema": {
        "name": "cited_answer",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {
                "sentences": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "text": {"type": "string"},
                            "citation_ids": {"type": "array", "items": {"type": "string"}},
                        },
                        "required": ["text", "citation_ids"],
                        "additionalProperties": False,
                    },
                }
            },
            "required": ["sentences"],
            "additionalProperties": False,
        },
    },
}


class OpenAIChat(ProviderChat["openai.OpenAI", "ChatCompletionMessageParam", "ChatCompletion"]):
    """Implements certiq.ports.ChatModel with OpenAI Chat Completions and structured output."""

    provider = PROVIDER
    answer_format = JSON_FORMAT

    def messages(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> list[ChatCompletionMessageParam]:
        messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": self._system}]
        for earlier_question, earlier_answer in earlier_turns(history):
            messages.append({"role": "user", "content": earlier_question})
            messages.append({"role": "assistant", "content": earlier_answer})
        evidence_text = labelled_evidence(evidence)
        messages.append(
            {
                "role": "user",
                "content": f"Evidence:\n{evidence_text}\n\n{question_message(question)}",
            }
        )
        return messages

    def _create(self, messages: list[ChatCompletionMessageParam]) -> ChatCompletion:
        return self._client.chat.completions.create(
            model=self._model,
            messages=messages,
            max_completion_tokens=self._max_output_tokens,
            response_format=RESPONSE_FORMAT,
        )

    def _read(
        self, response: ChatCompletion, ids: EvidenceIds, *, has_usage: bool
    ) -> Reading | str:
        choices = response.choices if isinstance(response.choices, list) else []
        message = choices[0].message if choices else None
        if message is None or not has_usage:
            return "the response has no choice or no usage"
        if message.refusal:
            return f"refused: {message.refusal}"
        content = message.content if isinstance(message.content, str) else ""
        return Reading(parse_model_text(content, ids), f"finish_reason {choices[0].finish_reason}")

    def _call(self, response: ChatCompletion, latency_ms: float) -> ModelCall | None:
        usage: Any = getattr(response, "usage", None)
        if usage is None or not isinstance(usage.prompt_tokens, int):
            return None
        details = getattr(usage, "prompt_tokens_details", None)
        cached = getattr(details, "cached_tokens", None) or 0
        return ModelCall(
            provider=PROVIDER,
            model=response.model if isinstance(response.model, str) else self._model,
            input_tokens=usage.prompt_tokens,  # includes the cached ones
            output_tokens=usage.completion_tokens or 0,
            cache_read_input_tokens=cached,
            latency_ms=latency_ms,
        )
