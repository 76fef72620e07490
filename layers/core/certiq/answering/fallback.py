"""The answer chain: providers in order of preference, a token budget, and every failure named.

Each provider is asked in turn. One that fails after its SDK's own retries (TransientError,
ProviderError) or answers unusably (a refusal, nothing cited) is recorded as a ProviderFailure
and the next one answers. Once the question's calls have used the token budget (input + output,
cached input included), no provider that spends tokens is called again: each is recorded as
skipped and the offline answerer answers. When every provider fails, the chain raises, naming
each failure: TransientError if any of them was transient (the state machine retries the step),
ProviderError otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from certiq.errors import CertiqError, ProviderError, TransientError
from certiq.models import (
    AnswerUsage,
    ConversationTurn,
    EvidenceSpan,
    ModelCall,
    ProviderFailure,
)
from certiq.ports import ChatDraft, ChatModel

UNUSABLE = "UnusableOutput"
BUDGET_SPENT = "TokenBudgetExhausted"


class FallbackChain:
    """Implements ChatModel over a list of ChatModels; ``offline`` is the one that spends nothing.

    ``offline`` answers once the budget is spent, even when it is not in ``models``.
    """

    def __init__(
        self,
        models: Sequence[ChatModel],
        *,
        offline: ChatModel,
        token_budget: int,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        if not models:
            raise ValueError("the answer chain needs at least one model")
        self.models = list(models)
        self.offline = offline
        self.token_budget = token_budget
        self._timer = timer

    @property
    def name(self) -> str:
        return ">".join(model.name for model in self.models)

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        calls: list[ModelCall] = []
        failures: list[ProviderFailure] = []
        for position, model in enumerate(self.models):
            spent = tokens_spent(calls)
            if model is not self.offline and spent >= self.token_budget:
                message = f"{spent} of {self.token_budget} tokens spent on this question"
                failures.extend(
                    ProviderFailure(provider=skipped.name, error=BUDGET_SPENT, message=message)
                    for skipped in self.models[position:]
                    if skipped is not self.offline
                )
                return self._answered(self.offline, question, evidence, history, calls, failures)
            started = self._timer()
            try:
                result = model.draft(question, evidence, history)
            except CertiqError as error:
                failures.append(
                    ProviderFailure(
                        provider=model.name,
                        error=type(error).__name__,
                        message=str(error),
                        latency_ms=self._elapsed_ms(started),
                    )
                )
                continue
            calls.extend(result.calls)
            failures.extend(result.failures)
            if result.problem is not None:
                failures.append(
                    ProviderFailure(
                        provider=model.name,
                        error=UNUSABLE,
                        message=result.problem,
                        latency_ms=self._elapsed_ms(started),
                    )
                )
                continue
            return ChatDraft(
                sentences=result.sentences,
                calls=tuple(calls),
                failures=tuple(failures),
                answerer=result.answerer or model.name,
                unanswered=result.unanswered,
            )
        raise _every_one_failed(failures)

    def _answered(
        self,
        model: ChatModel,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn],
        calls: list[ModelCall],
        failures: list[ProviderFailure],
    ) -> ChatDraft:
        result = model.draft(question, evidence, history)
        return ChatDraft(
            sentences=result.sentences,
            calls=(*calls, *result.calls),
            failures=(*failures, *result.failures),
            answerer=result.answerer or model.name,
            unanswered=result.unanswered,
        )

    def _elapsed_ms(self, started: float) -> float:
        return round((self._timer() - started) * 1000, 3)


def tokens_spent(calls: Sequence[ModelCall]) -> int:
    """Input (cached included) plus output tokens: what the budget counts."""
    return sum(call.input_tokens + call.output_tokens for call in calls)


def usage_of(draft: ChatDraft, answerer: str, token_budget: int) -> AnswerUsage:
    """The per-question sums of a draft's calls; latency includes the failures' time."""
    calls = list(draft.calls)
    # An unusable answer's time is already its call's: count the time of calls that raised.
    latency = sum(call.latency_ms for call in calls) + sum(
        failure.latency_ms for failure in draft.failures if failure.error != UNUSABLE
    )
    return AnswerUsage(
        answerer=answerer,
        calls=calls,
        input_tokens=sum(call.input_tokens for call in calls),
        output_tokens=sum(call.output_tokens for call in calls),
        cache_read_input_tokens=sum(call.cache_read_input_tokens for call in calls),
        cache_creation_input_tokens=sum(call.cache_creation_input_tokens for call in calls),
        latency_ms=round(latency, 3),
        token_budget=token_budget,
    )


def _every_one_failed(failures: Sequence[ProviderFailure]) -> CertiqError:
    named = "; ".join(f"{f.provider} {f.error}: {f.message}" for f in failures)
    message = f"every answer provider failed: {named}"
    if any(failure.error == TransientError.__name__ for failure in failures):
        return TransientError(message)
    return ProviderError(message)
