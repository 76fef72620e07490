"""The answer chain: providers in order, failures named, a token budget, the offline answerer."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.fallback import FallbackChain, usage_of
from certiq.config import AnswerSettings
from certiq.errors import ProviderError, TransientError
from certiq.models import ConversationTurn, DraftSentence, EvidenceSpan, ModelCall
from certiq.ports import ChatDraft
from tests.fakes import make_chunk, make_evidence

QUESTION = "How long are backups of customer data kept?"
EVIDENCE = make_evidence(
    make_chunk("Backups of customer data are kept for 35 days. Logs are rotated weekly")
)


class ScriptedModel:
    """A ChatModel that answers, spends tokens, answers unusably or raises, as told."""

    def __init__(
        self,
        name: str,
        *,
        raises: Exception | None = None,
        problem: str | None = None,
        tokens: int = 0,
    ) -> None:
        self.name = name
        self.raises = raises
        self.problem = problem
        self.tokens = tokens
        self.asked: list[Sequence[ConversationTurn]] = []

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        self.asked.append(history)
        if self.raises is not None:
            raise self.raises
        calls = (
            (
                ModelCall(
                    provider=self.name,
                    model=f"{self.name}-model",
                    input_tokens=self.tokens - 10,
                    output_tokens=10,
                    latency_ms=5.0,
                ),
            )
            if self.tokens
            else ()
        )
        if self.problem:
            return ChatDraft(sentences=[], calls=calls, problem=self.problem)
        sentence = DraftSentence(text=f"{self.name} says.", citation_ids=[evidence[0].span_id])
        return ChatDraft(sentences=[sentence], calls=calls, answerer=self.name)


def offline() -> ExtractiveAnswerer:
    return ExtractiveAnswerer(AnswerSettings())


def test_the_first_provider_that_answers_answers_and_earlier_failures_are_named() -> None:
    # GIVEN a chain whose first provider is down and whose second refuses
    down = ScriptedModel("anthropic", raises=TransientError("anthropic draft: HTTP 500: boom"))
    refusing = ScriptedModel("openai", problem="refused: no", tokens=120)
    answerer = offline()
    chain = FallbackChain([down, refusing, answerer], offline=answerer, token_budget=1000)

    # WHEN asked
    draft = chain.draft(QUESTION, EVIDENCE)

    # THEN the offline answerer answered, each failure is named, the refusal's call is counted
    assert draft.answerer == "extractive" and draft.sentences
    assert [(f.provider, f.error) for f in draft.failures] == [
        ("anthropic", "TransientError"),
        ("openai", "UnusableOutput"),
    ]
    assert "HTTP 500" in draft.failures[0].message
    assert [call.provider for call in draft.calls] == ["openai"]
    assert chain.name == "anthropic>openai>extractive"


def test_history_reaches_every_provider_asked() -> None:
    history = [ConversationTurn(question="Where are backups?", answer="In Frankfurt.")]
    first = ScriptedModel("anthropic", raises=ProviderError("HTTP 400"))
    second = ScriptedModel("openai", tokens=50)
    FallbackChain([first, second], offline=offline(), token_budget=1000).draft(
        QUESTION, EVIDENCE, history
    )
    assert first.asked == [history] and second.asked == [history]


def test_a_spent_budget_skips_every_paying_provider_and_the_offline_answerer_answers() -> None:
    # GIVEN a first provider whose unusable answer used the whole budget
    greedy = ScriptedModel("anthropic", problem="no sentence cites the evidence", tokens=500)
    never = ScriptedModel("openai", tokens=10)
    chain = FallbackChain([greedy, never], offline=offline(), token_budget=500)

    # WHEN asked
    draft = chain.draft(QUESTION, EVIDENCE)

    # THEN openai is never called, it is named as skipped, and the extractive answerer answers
    assert never.asked == []
    assert [(f.provider, f.error) for f in draft.failures] == [
        ("anthropic", "UnusableOutput"),
        ("openai", "TokenBudgetExhausted"),
    ]
    assert "500 of 500 tokens" in draft.failures[1].message
    assert draft.answerer == "extractive" and draft.sentences


@pytest.mark.parametrize(
    ("errors", "raised"),
    [
        ([TransientError("a"), ProviderError("b")], TransientError),
        ([ProviderError("a"), ProviderError("b")], ProviderError),
    ],
)
def test_when_every_provider_fails_the_chain_raises_naming_each(
    errors: list[Exception], raised: type[Exception]
) -> None:
    models = [
        ScriptedModel(name, raises=error)
        for name, error in zip(("anthropic", "openai"), errors, strict=True)
    ]
    chain = FallbackChain(models, offline=offline(), token_budget=1000)
    with pytest.raises(
        raised, match=r"every answer provider failed: anthropic \w+Error: a; openai"
    ):
        chain.draft(QUESTION, EVIDENCE)


def test_usage_sums_calls_and_the_time_spent_on_failures() -> None:
    # GIVEN a failure that took time, and an answer that cost tokens
    down = ScriptedModel("anthropic", raises=TransientError("timeout"))
    paid = ScriptedModel("openai", tokens=110)
    ticks = iter([0.0, 2.0, 2.0])  # the failed call took 2 s on the chain's timer
    chain = FallbackChain(
        [down, paid], offline=offline(), token_budget=1000, timer=lambda: next(ticks)
    )

    # WHEN asked and summed
    draft = chain.draft(QUESTION, EVIDENCE)
    usage = usage_of(draft, "openai", 1000)

    # THEN tokens are the call's and latency adds the failure's 2,000 ms to the call's 5 ms
    assert draft.failures[0].latency_ms == 2000.0
    assert (usage.input_tokens, usage.output_tokens) == (100, 10)
    assert usage.latency_ms == 2005.0 and usage.token_budget == 1000
    assert [call.model for call in usage.calls] == ["openai-model"]


def test_a_chain_needs_a_model() -> None:
    with pytest.raises(ValueError, match="at least one"):
        FallbackChain([], offline=offline(), token_budget=10)
