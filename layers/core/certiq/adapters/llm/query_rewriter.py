"""Query rewriting for follow-up questions with the configured model (Anthropic or OpenAI).

Implements certiq.ports.QueryRewriter. The model sees the conversation's earlier turns (redacted
questions and the answers shown) and the follow-up, and writes one standalone search query. The
request is certiq.adapters.llm.completion's, its client built on first use (a missing key fails
the rewrite, not the process) and kept; failures surface as certiq errors for the caller to fall
back on rules.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Final

from certiq.adapters.llm.clients import Provider
from certiq.adapters.llm.completion import AnthropicCompletion, OpenAICompletion, plain_completion
from certiq.config import LlmSettings
from certiq.errors import ProviderError
from certiq.ports import Turn

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
        self._complete: AnthropicCompletion | OpenAICompletion | None = None
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
        complete = self._get_complete()
        query = clean_query(complete(INSTRUCTIONS, conversation_prompt(question, turns)))
        if not query:
            raise ProviderError(f"{self.name} returned no query")
        return query

    def _get_complete(self) -> AnthropicCompletion | OpenAICompletion:
        with self._lock:
            if self._complete is None:
                max_tokens = min(MAX_OUTPUT_TOKENS, self._settings.max_output_tokens)
                self._complete = plain_completion(
                    self._settings, self._provider, "query rewriting", max_tokens
                )
            return self._complete


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
