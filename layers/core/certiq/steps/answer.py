"""Answer question: the chat model writes sentences that cite evidence; we number the citations.

The chat model is the answer chain bootstrap built from settings (providers in order, a token
budget, the offline answerer last). What it cost (tokens, cache, latency per call and for the
question) and each provider that failed before one answered go into the state and the metrics.
When every provider fails the chain raises and the state machine's Retry and Catch take over.
"""

from __future__ import annotations

from typing import Protocol

from certiq.answering.citations import assemble
from certiq.answering.fallback import usage_of
from certiq.config import Settings
from certiq.models import AnswerUsage, ConversationTurn, QuestionState, QuestionStatus
from certiq.ports import ChatDraft, ChatModel, MetricsSink, QuestionStore
from certiq.retrieval.conversation import earlier_turns


class AnswerDeps(Protocol):
    """What Answer question uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def chat_model(self) -> ChatModel: ...

    @property
    def metrics(self) -> MetricsSink: ...


def answer(state: QuestionState, deps: AnswerDeps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.GENERATING_ANSWER)
    if not state.evidence:
        # Nothing to cite: no answerer is asked, nothing is spent.
        return state.model_copy(
            update={
                "status": QuestionStatus.GENERATING_ANSWER,
                "draft": [],
                "citations": [],
                "claims": [],
                "answer": "",
                "answerer": None,
                "unanswered": [],
                "usage": None,
                "provider_failures": [],
            }
        )
    draft = deps.chat_model.draft(state.question, state.evidence, conversation(state, deps))
    answerer = draft.answerer or deps.chat_model.name
    usage = usage_of(draft, answerer, deps.settings.answer.token_budget)
    record_metrics(deps.metrics, draft, usage)
    cited = assemble(draft.sentences, state.evidence)
    return state.model_copy(
        update={
            "status": QuestionStatus.GENERATING_ANSWER,
            "draft": draft.sentences,
            "citations": cited.citations,
            "claims": cited.claims,
            "answer": cited.text,
            "answerer": answerer,
            "unanswered": list(draft.unanswered),
            "usage": usage,
            "provider_failures": list(draft.failures),
        }
    )


def conversation(state: QuestionState, deps: AnswerDeps) -> list[ConversationTurn]:
    """The conversation's earlier answered turns, oldest first, the last history_turns of them.

    Questions and answers are the redacted ones the responses hold, answers without their
    citation markers (their numbers mean nothing next to new evidence), each text cut to
    history_max_chars.
    """
    settings = deps.settings.answer
    if not state.conversation_id or settings.history_turns == 0:
        return []
    turns = earlier_turns(
        deps.questions,
        state.tenant,
        state.conversation_id,
        state.question_id,
        settings.history_turns,
    )
    limit = settings.history_max_chars
    return [
        ConversationTurn(question=turn.question[:limit], answer=turn.answer[:limit])
        for turn in turns
    ]


def record_metrics(metrics: MetricsSink, draft: ChatDraft, usage: AnswerUsage) -> None:
    """Per call: tokens and latency by provider; per question: tokens, failures, fallbacks."""
    for call in draft.calls:
        by_provider = {"provider": call.provider}
        metrics.add("InputTokens", call.input_tokens, "Count", by_provider)
        metrics.add("OutputTokens", call.output_tokens, "Count", by_provider)
        metrics.add("CacheReadInputTokens", call.cache_read_input_tokens, "Count", by_provider)
        metrics.add(
            "CacheCreationInputTokens", call.cache_creation_input_tokens, "Count", by_provider
        )
        metrics.add("ModelLatency", call.latency_ms, "Milliseconds", by_provider)
    for failure in draft.failures:
        metrics.add("ProviderFailures", 1, "Count", {"provider": failure.provider})
    metrics.add("QuestionTokens", usage.input_tokens + usage.output_tokens, "Count")
    metrics.add("Fallbacks", 1 if draft.failures else 0, "Count")
