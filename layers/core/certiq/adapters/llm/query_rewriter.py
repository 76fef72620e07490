"""Query rewriting for follow-up questions with the configured model (Anthropic or OpenAI).

Implements certiq.ports.QueryRewriter. The model sees the conversation's earlier turns (redacted
questions and the answers shown) and the follow-up, and writes one standalone search query. The
SDK client comes from certiq.adapters.llm.clients, built on first use (a missing key fails the
rewrite, not the process) and kept; failures surface as certiq errors for the caller to fall
back on rules.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from certiq.adapters.llm.clients import Provider, anthropic_client, openai_client, provider_errors
from certiq.config import LlmSettings
from certiq.errors import ProviderError
from certiq.ports import Turn

if TYPE_CHECKING:
    import anthropic
    import openai

INSTRUCTIONS: Final = (
    "You rewrite the last question of a conversation into one standalone search query for a"
    " document search engine. Resolve pronouns and ellipsis from the earlier turns, keep every"
    " name, number and qualifier the question gives, add nothing the conversation does not say."
    " If the question already stands alone, return it unchanged. Reply with the query only, on"
    " one line, without quotes or explanation."
)
MAX_QUERY_CHARS: Final = 500
MAX_ANSWER_CHARS: Final = 600
MAX_OUTPUT_TOKENS: Final = 200


class LlmQueryRewriter:
    def __init__(self, settings: LlmSettings, provider: Provider) -> None:
        self._settings = settings
        self._provider: Provider = provider
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        model = (
            self._settings.anthropic_model
            if self._provider == "anthropic"
            else self._settings.openai_model
        )
        return f"{self._provider}:{model}"

    def rewrite(self, question: str, turns: Sequence[Turn]) -> str:
        prompt = conversation_prompt(question, turns)
        ask = self._anthropic if self._provider == "anthropic" else self._openai
        query = clean_query(ask(prompt))
        if not query:
            raise ProviderError(f"{self.name} returned no query")
        return query

    def _anthropic(self, prompt: str) -> str:
        client: anthropic.Anthropic = self._get_client()
        with provider_errors("anthropic", "query rewriting"):
            message = client.messages.create(
                model=self._settings.anthropic_model,
                max_tokens=min(MAX_OUTPUT_TOKENS, self._settings.max_output_tokens),
                system=INSTRUCTIONS,
                messages=[{"role": "user", "content": prompt}],
            )
        return "".join(block.text for block in message.content if block.type == "text")

    def _openai(self, prompt: str) -> str:
        client: openai.OpenAI = self._get_client()
        with provider_errors("openai", "query rewriting"):
            completion = client.chat.completions.create(
                model=self._settings.openai_model,
                max_completion_tokens=min(MAX_OUTPUT_TOKENS, self._settings.max_output_tokens),
                messages=[
                    {"role": "system", "content": INSTRUCTIONS},
                    {"role": "user", "content": prompt},
                ],
            )
        if not completion.choices:
            raise ProviderError(f"{self.name} returned no choice")
        message = completion.choices[0].message
        if message.refusal:
            raise ProviderError(f"{self.name} refused: {message.refusal}")
        return message.content or ""

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                factory = anthropic_client if self._provider == "anthropic" else openai_client
                self._client = factory(self._settings)
            return self._client


def conversation_prompt(question: str, turns: Sequence[Turn]) -> str:
    """The earlier turns, oldest first, then the question to rewrite."""
    lines = ["Earlier turns:"]
    for number, turn in enumerate(turns, start=1):
        answer = turn.answer[:MAX_ANSWER_CHARS] or "(no answer)"
        lines += [f"{number}. Question: {turn.question}", f"   Answer: {answer}"]
    lines += ["", f"Last question: {question}", "Standalone search query:"]
    return "\n".join(lines)


def clean_query(text: str) -> str:
    """The first non-empty line, without surrounding quotes or a "Query:" label."""
    for line in text.strip().splitlines():
        line = line.strip()
        if line.lower().startswith(("query:", "standalone search query:")):
            line = line.split(":", 1)[1].strip()
        line = line.strip("\"'“”`").strip()
        if line:
            return line[:MAX_QUERY_CHARS]
    return ""
