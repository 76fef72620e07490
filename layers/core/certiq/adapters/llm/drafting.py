"""The drafting flow every provider's ChatModel shares; the adapters keep only the provider's API.

A ``ProviderChat`` holds the client, model and limits, builds the system prompt in the
provider's answer format, times the one request (under ``provider_errors``), records its usage
as a ModelCall, and turns what the adapter read from the response into a ChatDraft: unusable
when the adapter says why, when the response has no usage, or when no sentence cites the
evidence (fallback chains then ask the next provider). Evidence is numbered once per draft
(EvidenceIds) for the adapter to map citations back to span ids.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from certiq.adapters.llm.clients import Provider, provider_errors
from certiq.answering.parsing import EvidenceIds
from certiq.answering.prompts import NO_EARLIER_ANSWER, system_prompt
from certiq.models import ConversationTurn, DraftSentence, EvidenceSpan, ModelCall
from certiq.ports import ChatDraft

ClientT = TypeVar("ClientT")
MessageT = TypeVar("MessageT")
ResponseT = TypeVar("ResponseT")


@dataclass(frozen=True)
class Reading:
    """The sentences an adapter read from a response, and how the provider said it stopped."""

    sentences: list[DraftSentence]
    stopped: str  # e.g. "stop_reason end_turn": named in the problem when nothing is cited


def earlier_turns(history: Sequence[ConversationTurn]) -> Iterator[tuple[str, str]]:
    """(question, answer shown) of each earlier turn, oldest first, for the prior messages."""
    for turn in history:
        yield turn.question, turn.answer or NO_EARLIER_ANSWER


class ProviderChat(ABC, Generic[ClientT, MessageT, ResponseT]):
    """A certiq.ports.ChatModel over one provider's SDK client; subclasses speak its API."""

    provider: ClassVar[Provider]
    answer_format: ClassVar[str]  # the output instructions appended to the system prompt

    def __init__(
        self,
        client: ClientT,
        model: str,
        *,
        max_output_tokens: int,
        max_sentences: int,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._client = client
        self._model = model
        self._max_output_tokens = max_output_tokens
        self._system = system_prompt(max_sentences, self.answer_format)
        self._timer = timer

    @property
    def name(self) -> str:
        return self.provider

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        messages = self.messages(question, evidence, history)
        started = self._timer()
        with provider_errors(self.provider, "draft"):
            response = self._create(messages)
        latency_ms = round((self._timer() - started) * 1000, 3)
        call = self._call(response, latency_ms)
        calls = (call,) if call is not None else ()
        reading = self._read(response, EvidenceIds(evidence), has_usage=call is not None)
        if isinstance(reading, str):
            return ChatDraft(sentences=[], calls=calls, problem=reading)
        if not any(sentence.citation_ids for sentence in reading.sentences):
            return ChatDraft(
                sentences=[],
                calls=calls,
                problem=f"no sentence cites the evidence ({reading.stopped})",
            )
        return ChatDraft(sentences=reading.sentences, calls=calls, answerer=self.provider)

    @abstractmethod
    def messages(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> list[MessageT]:
        """The request's messages: earlier turns (``earlier_turns``), the evidence, the question."""

    @abstractmethod
    def _create(self, messages: list[MessageT]) -> ResponseT:
        """The one SDK request for a draft (called inside ``provider_errors``)."""

    @abstractmethod
    def _call(self, response: ResponseT, latency_ms: float) -> ModelCall | None:
        """The request's usage and cache counters, or None when the response reports none."""

    @abstractmethod
    def _read(self, response: ResponseT, ids: EvidenceIds, *, has_usage: bool) -> Reading | str:
        """The cited sentences, or why the response is unusable (a refusal, no content or usage)."""
