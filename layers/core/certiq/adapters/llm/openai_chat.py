"""OpenAI as a ChatModel: Chat Completions with a strict JSON Schema of cited sentences.

The evidence goes in the last user message as labelled passages ([S1] (file, page) text); the
reply must match {"sentences": [{"text", "citation_ids"}]} (response_format json_schema,
strict). Labels map back to span ids (unknown ones are dropped) and each cited span is quoted
whole. A refusal (message.refusal) or a reply that parses to no cited sentence is unusable: the
fallback chain asks the next provider. A reply that is not the JSON asked for is read as marked
prose ([S1] markers, <extract> tags) before it is given up on. OpenAI caches repeated prompt
prefixes of 1,024 tokens or more by itself; the cached count is recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from certiq.adapters.llm.clients import provider_errors
from certiq.answering.parsing import EvidenceIds, parse_model_text
from certiq.answering.prompts import (
    JSON_FORMAT,
    NO_EARLIER_ANSWER,
    labelled_evidence,
    question_message,
    system_prompt,
)
from certiq.models import ConversationTurn, EvidenceSpan, ModelCall
from certiq.ports import ChatDraft

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletionMessageParam
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


class OpenAIChat:
    """Implements certiq.ports.ChatModel with OpenAI Chat Completions and structured output."""

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        *,
        max_output_tokens: int,
        max_sentences: int,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._client = client
        self._model = model
        self._max_output_tokens = max_output_tokens
        self._system = system_prompt(max_sentences, JSON_FORMAT)
        self._timer = timer

    @property
    def name(self) -> str:
        return PROVIDER

    def messages(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> list[ChatCompletionMessageParam]:
        messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": self._system}]
        for turn in history:
            messages.append({"role": "user", "content": turn.question})
            messages.append({"role": "assistant", "content": turn.answer or NO_EARLIER_ANSWER})
        evidence_text = labelled_evidence(evidence)
        messages.append(
            {
                "role": "user",
                "content": f"Evidence:\n{evidence_text}\n\n{question_message(question)}",
            }
        )
        return messages

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        started = self._timer()
        with provider_errors(PROVIDER, "draft"):
            completion = self._client.chat.completions.create(
                model=self._model,
                messages=self.messages(question, evidence, history),
                max_completion_tokens=self._max_output_tokens,
                response_format=RESPONSE_FORMAT,
            )
        latency_ms = round((self._timer() - started) * 1000, 3)
        call = _call(completion, self._model, latency_ms)
        calls = (call,) if call is not None else ()
        choices = completion.choices if isinstance(completion.choices, list) else []
        message = choices[0].message if choices else None
        if message is None or call is None:
            return ChatDraft(
                sentences=[], calls=calls, problem="the response has no choice or no usage"
            )
        if message.refusal:
            return ChatDraft(sentences=[], calls=calls, problem=f"refused: {message.refusal}")
        content = message.content if isinstance(message.content, str) else ""
        sentences = parse_model_text(content, EvidenceIds(evidence))
        if not any(sentence.citation_ids for sentence in sentences):
            reason = choices[0].finish_reason
            return ChatDraft(
                sentences=[],
                calls=calls,
                problem=f"no sentence cites the evidence (finish_reason {reason})",
            )
        return ChatDraft(sentences=sentences, calls=calls, answerer=PROVIDER)


def _call(completion: Any, requested_model: str, latency_ms: float) -> ModelCall | None:
    usage = getattr(completion, "usage", None)
    if usage is None or not isinstance(usage.prompt_tokens, int):
        return None
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or 0
    return ModelCall(
        provider=PROVIDER,
        model=completion.model if isinstance(completion.model, str) else requested_model,
        input_tokens=usage.prompt_tokens,  # includes the cached ones
        output_tokens=usage.completion_tokens or 0,
        cache_read_input_tokens=cached,
        latency_ms=latency_ms,
    )
