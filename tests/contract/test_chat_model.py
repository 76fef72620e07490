"""The ChatModel contract, run on every adapter: Claude and OpenAI over their real SDKs against
the HTTP fake, and the offline extractive answerer."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import AnswerSettings
from certiq.errors import ProviderError, TransientError
from certiq.models import ConversationTurn
from certiq.ports import ChatModel
from tests.fakes import make_chunk, make_evidence
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_chat,
    anthropic_citing,
    anthropic_error,
    anthropic_message,
    anthropic_text,
    by_provider,
    openai_chat,
    openai_citing,
    openai_completion,
    openai_error,
)

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


# --- the LLM adapters over their SDKs: what is retried, raised, or unusable --------------------

LLM_CHATS: dict[str, Callable[..., ChatModel]] = {
    "anthropic": anthropic_chat,
    "openai": openai_chat,
}
ANSWERS = by_provider(
    anthropic_citing("35 days"), openai_citing("35 days", "Backups are kept 35 days.")
)


@pytest.mark.parametrize(
    ("provider", "throttled"),
    [
        ("anthropic", anthropic_error(429, "rate_limit_error", "slow down", retry_after="0")),
        ("openai", openai_error(429, "requests", "Rate limit reached", retry_after="0")),
    ],
)
def test_a_429_with_retry_after_is_retried_by_the_sdk(
    provider_server: ProviderServer, provider_keys: None, provider: str, throttled: Reply
) -> None:
    # GIVEN one throttled reply asking to retry at once, then an answer; one SDK retry allowed
    chat = LLM_CHATS[provider](provider_server, max_output_tokens=64, max_retries=1)
    provider_server.script = [throttled]
    provider_server.responder = ANSWERS

    # WHEN asked THEN the second request answered
    assert chat.draft(QUESTION, EVIDENCE).sentences
    assert len(provider_server.requests) == 2


@pytest.mark.parametrize(
    ("provider", "reply", "error", "message"),
    [
        ("anthropic", anthropic_error(500, "api_error", "boom"), TransientError, "HTTP 500"),
        ("anthropic", anthropic_error(529, "overloaded_error", "busy"), TransientError, "HTTP 529"),
        (
            "anthropic",
            anthropic_error(400, "invalid_request_error", "bad"),
            ProviderError,
            "HTTP 400",
        ),
        ("anthropic", Reply(200, b"{not json"), ProviderError, "unreadable response body"),
        (
            "anthropic",
            Reply(200, anthropic_message([anthropic_text("Late.")]), delay_seconds=1.5),
            TransientError,
            "unreachable",
        ),
        ("openai", openai_error(500, "server_error", "boom"), TransientError, "HTTP 500"),
        (
            "openai",
            openai_error(401, "invalid_request_error", "bad key"),
            ProviderError,
            "HTTP 401",
        ),
        (
            "openai",
            Reply(200, b"<html>bad gateway</html>"),
            ProviderError,
            "unreadable response body",
        ),
        (
            "openai",
            Reply(200, openai_completion("{}"), delay_seconds=1.5),
            TransientError,
            "unreachable",
        ),
    ],
)
def test_failures_left_after_the_sdk_retries_are_raised_and_named(
    provider_server: ProviderServer,
    provider_keys: None,
    provider: str,
    reply: Reply,
    error: type[Exception],
    message: str,
) -> None:
    # GIVEN a provider answering every request (SDK retries included) with a failure
    chat = LLM_CHATS[provider](provider_server, timeout_seconds=1.0)
    provider_server.responder = lambda request: reply

    # WHEN asked THEN a certiq error is raised naming provider, action and the failure
    with pytest.raises(error, match=rf"{provider} draft: .*{message}"):
        chat.draft(QUESTION, EVIDENCE)


@pytest.mark.parametrize(
    ("provider", "problem"),
    [
        ("anthropic", "the response has no content or no usage"),
        ("openai", "the response has no choice or no usage"),
    ],
)
def test_a_body_of_another_shape_is_unusable(
    provider_server: ProviderServer, provider_keys: None, provider: str, problem: str
) -> None:
    # GIVEN a 200 whose JSON is not the API's shape
    provider_server.script = [Reply(200, {"unexpected": True})]

    # WHEN asked THEN the draft is unusable, saying why, and no call is counted
    draft = LLM_CHATS[provider](provider_server).draft(QUESTION, EVIDENCE)
    assert draft.problem == problem and not draft.calls
