"""The ChatModel contract, run on every adapter: Claude and OpenAI over their real SDKs against
the HTTP fake, and the offline extractive answerer."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import AnswerSettings
from certiq.models import ConversationTurn
from certiq.ports import ChatModel
from tests.fakes import make_chunk, make_evidence
from tests.provider_fakes import (
    ProviderServer,
    anthropic_chat,
    anthropic_citing,
    by_provider,
    openai_chat,
    openai_citing,
)

pytestmark = pytest.mark.contract

QUESTION = "How long are backups of customer data kept?"
EVIDENCE = make_evidence(
    make_chunk(
        "Logs are rotated weekly. Backups of customer data are kept for 35 days. "
        "Backups are encrypted at rest",
        doc_id="policy",
    )
)
HISTORY = [ConversationTurn(question="Where are backups stored?", answer="In Frankfurt.")]

Build = Callable[[ProviderServer], ChatModel]


def extractive(server: ProviderServer) -> ChatModel:
    return ExtractiveAnswerer(AnswerSettings())


@pytest.fixture(params=[anthropic_chat, openai_chat, extractive], ids=lambda build: build.__name__)
def model(
    request: pytest.FixtureRequest,
    provider_server: ProviderServer,
    provider_keys: None,
) -> ChatModel:
    provider_server.responder = by_provider(
        anthropic_citing("35 days"), openai_citing("35 days", "Backups are kept 35 days.")
    )
    build: Build = request.param
    return build(provider_server)


def test_every_citation_names_given_evidence_and_every_quote_is_in_its_span(
    model: ChatModel,
) -> None:
    # WHEN an answer is drafted from evidence, with an earlier turn
    draft = model.draft(QUESTION, EVIDENCE, HISTORY)

    # THEN it is usable and answered by the model itself
    assert draft.problem is None and draft.answerer == model.name
    assert draft.sentences and any(sentence.citation_ids for sentence in draft.sentences)
    spans = {span.span_id: span for span in EVIDENCE}
    for sentence in draft.sentences:
        # AND each cited id is a span it was given, quoted by text found verbatim in that span
        assert set(sentence.citation_ids) <= set(spans)
        assert [quote.span_id for quote in sentence.quotes] == sentence.citation_ids
        for quote in sentence.quotes:
            assert quote.text and quote.text in spans[quote.span_id].text


def test_calls_report_their_tokens_and_the_offline_answerer_makes_none(model: ChatModel) -> None:
    draft = model.draft(QUESTION, EVIDENCE)
    if model.name == "extractive":
        assert draft.calls == ()
        return
    [call] = draft.calls
    assert call.provider == model.name and call.model
    assert call.input_tokens > 0 and call.output_tokens > 0 and call.latency_ms >= 0


def test_no_evidence_means_no_cited_sentence(model: ChatModel) -> None:
    draft = model.draft(QUESTION, [])
    assert not any(sentence.citation_ids for sentence in draft.sentences)
