"""The Answer question step: conversation history, usage and failures in the state, metrics."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from certiq.adapters.local.metrics import RecordingMetrics
from certiq.answering.extractive import ExtractiveAnswerer
from certiq.answering.fallback import FallbackChain
from certiq.bootstrap import build_deps
from certiq.config import AnswerSettings, Settings
from certiq.deps import Deps
from certiq.errors import TransientError
from certiq.models import (
    ConversationTurn,
    DraftSentence,
    EvidenceSpan,
    ModelCall,
    QAResponse,
    QuestionState,
)
from certiq.ports import ChatDraft, ChatModel
from certiq.questions import receive
from certiq.steps import STEPS
from certiq.trust.certificate import check, seal_and_sign
from tests.fakes import FixedClock, make_certificate, make_chunk

POLICY = "Backups of customer data are kept for 35 days. Logs are rotated weekly"
QUESTION = "How long are backups of customer data kept?"


class PaidModel:
    """A ChatModel that cites the first span, costs tokens and remembers the history it saw."""

    name = "openai"

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.histories: list[list[ConversationTurn]] = []

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        self.histories.append(list(history))
        if self.fails:
            raise TransientError("openai draft: HTTP 503: unavailable")
        call = ModelCall(
            provider="openai",
            model="gpt-4.1-mini",
            input_tokens=900,
            output_tokens=40,
            cache_read_input_tokens=512,
            latency_ms=321.0,
        )
        sentence = DraftSentence(text=evidence[0].text, citation_ids=[evidence[0].span_id])
        return ChatDraft(sentences=[sentence], calls=(call,), answerer="openai")


@pytest.fixture
def deps(tmp_path: Path) -> Deps:
    settings = Settings(home=tmp_path, answer=AnswerSettings(history_turns=2))
    deps = dataclasses.replace(build_deps(settings), clock=FixedClock())
    deps.index.index([make_chunk(POLICY, doc_id="policy", tenant=settings.tenant)])
    return deps


def with_chain(deps: Deps, *models: ChatModel) -> Deps:
    offline = ExtractiveAnswerer(deps.settings.answer)
    chain = FallbackChain([*models, offline], offline=offline, token_budget=10_000)
    return dataclasses.replace(deps, chat_model=chain, metrics=RecordingMetrics())


def answered(deps: Deps, question: str, conversation_id: str | None = None) -> QuestionState:
    state = receive(question, deps, conversation_id=conversation_id)
    assert isinstance(deps.clock, FixedClock)
    deps.clock.advance()  # questions of a conversation are ordered by when they came
    state = STEPS["retrieve"](state, deps)
    return STEPS["answer"](state, deps)


def complete(deps: Deps, state: QuestionState, answer: str) -> None:
    deps.questions.complete(
        state.question_id,
        QAResponse(
            question_id=state.question_id,
            status=state.status.COMPLETE,
            question=state.question,
            language="en",
            answer=answer,
            claims=[],
            citations=[],
            sources=[],
            certificate_id=None,
            timings_ms={},
        ),
    )


def test_providers_see_the_last_turns_of_the_conversation_without_citation_markers(
    deps: Deps,
) -> None:
    # GIVEN three answered questions in a conversation, and one in another conversation
    model = PaidModel()
    deps = with_chain(deps, model)
    for number in (1, 2, 3):
        earlier = answered(deps, f"Backups question {number}?", "conv-1")
        complete(deps, earlier, f"Answer {number} about backups. [C1] [C2]")
    complete(deps, answered(deps, "Elsewhere question?", "conv-2"), "Other. [C1]")
    model.histories.clear()

    # WHEN a follow-up in the first conversation is answered
    answered(deps, QUESTION, "conv-1")

    # THEN the model saw the last two turns (history_turns=2), oldest first, markers removed
    assert model.histories == [
        [
            ConversationTurn(question="Backups question 2?", answer="Answer 2 about backups."),
            ConversationTurn(question="Backups question 3?", answer="Answer 3 about backups."),
        ]
    ]


def test_a_question_outside_a_conversation_has_no_history(deps: Deps) -> None:
    model = PaidModel()
    answered(with_chain(deps, model), QUESTION)
    assert model.histories == [[]]


def test_usage_failures_and_metrics_are_recorded_when_a_fallback_answers(deps: Deps) -> None:
    # GIVEN a chain whose first provider is down and whose second answers at a cost
    deps = with_chain(deps, PaidModel(fails=True), PaidModel())

    # WHEN the answer is drafted
    state = answered(deps, QUESTION)

    # THEN the state names the failure and who answered, with the call's usage
    assert [(f.provider, f.error) for f in state.provider_failures] == [
        ("openai", "TransientError")
    ]
    assert "HTTP 503" in state.provider_failures[0].message
    assert state.answerer == "openai" and state.usage is not None
    assert (state.usage.input_tokens, state.usage.output_tokens) == (900, 40)
    assert state.usage.cache_read_input_tokens == 512 and state.usage.token_budget == 50_000
    assert state.claims and state.citations
    # AND the metrics carry tokens and latency by provider, the failure and the fallback
    assert isinstance(deps.metrics, RecordingMetrics)
    recorded = {(r.name, r.dimensions.get("provider")): r.value for r in deps.metrics.all()}
    assert recorded[("InputTokens", "openai")] == 900
    assert recorded[("CacheReadInputTokens", "openai")] == 512
    assert recorded[("ModelLatency", "openai")] == 321.0
    assert recorded[("ProviderFailures", "openai")] == 1
    assert recorded[("QuestionTokens", None)] == 940
    assert recorded[("Fallbacks", None)] == 1


def test_the_offline_answerer_costs_nothing_and_is_no_fallback(deps: Deps) -> None:
    deps = dataclasses.replace(deps, metrics=RecordingMetrics())
    state = answered(deps, QUESTION)
    assert state.answerer == "extractive" and state.provider_failures == []
    assert state.usage is not None and state.usage.calls == [] and state.usage.input_tokens == 0
    assert isinstance(deps.metrics, RecordingMetrics)
    assert {r.name: r.value for r in deps.metrics.all()}["Fallbacks"] == 0


def test_the_certificate_seals_the_usage_and_the_response_shows_it(deps: Deps) -> None:
    # GIVEN a question answered by a paid provider after a failure, verified and persisted
    deps = with_chain(deps, PaidModel(fails=True), PaidModel())
    state = STEPS["persist"](STEPS["verify"](answered(deps, QUESTION), deps), deps)

    # THEN the certificate holds the usage under its own digest, and a change to it is caught
    certificate = deps.certificates.get(state.certificate_id or "")
    assert certificate is not None and certificate.usage == state.usage
    assert "usage" in certificate.field_digests and check(certificate, deps.signer).valid
    assert certificate.usage is not None
    tampered = certificate.model_copy(
        update={"usage": certificate.usage.model_copy(update={"input_tokens": 1})}
    )
    assert check(tampered, deps.signer).first_difference == "usage"
    # AND the response says the fallback answered and why
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.response.answerer == "openai"
    assert [f.error for f in record.response.provider_failures] == ["TransientError"]
    assert record.response.usage == state.usage


def test_a_certificate_without_usage_seals_as_before_the_field_existed(deps: Deps) -> None:
    # GIVEN a certificate with no drafting usage (no Answer question ran)
    sealed = seal_and_sign(make_certificate(), deps.signer)

    # THEN nothing about usage is sealed, and the certificate checks valid
    assert "usage" not in sealed.field_digests
    assert check(sealed, deps.signer).valid


def test_without_evidence_no_answerer_is_asked_and_nothing_is_spent(tmp_path: Path) -> None:
    # GIVEN an empty index and a paid provider in the chain
    model = PaidModel()
    deps = with_chain(build_deps(Settings(home=tmp_path)), model)

    # WHEN a question finds no evidence and is drafted
    state = STEPS["answer"](STEPS["retrieve"](receive(QUESTION, deps), deps), deps)

    # THEN the provider was never called and no usage or metric is recorded
    assert model.histories == []
    assert state.answer == "" and state.answerer is None and state.usage is None
    assert isinstance(deps.metrics, RecordingMetrics) and deps.metrics.all() == []
