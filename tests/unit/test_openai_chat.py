"""The OpenAI ChatModel over the real openai SDK, against the HTTP fake of Chat Completions."""

from __future__ import annotations

import json

import pytest

from certiq.adapters.llm.openai_chat import OpenAIChat
from certiq.models import ConversationTurn, DraftQuote
from tests.fakes import BACKUP_EVIDENCE, BACKUP_QUESTION, BACKUP_RULE
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    openai_chat,
    openai_completion,
    openai_usage,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

S1, S2 = (span.span_id for span in BACKUP_EVIDENCE)


@pytest.fixture
def chat(provider_server: ProviderServer) -> OpenAIChat:
    return openai_chat(provider_server, max_output_tokens=256, timeout_seconds=1.0)


def structured(*sentences: tuple[str, list[str]], **usage: int) -> Reply:
    content = json.dumps(
        {"sentences": [{"text": text, "citation_ids": ids} for text, ids in sentences]}
    )
    return Reply(200, openai_completion(content, usage=openai_usage(**usage)))


def test_structured_sentences_cite_spans_by_label_and_quote_them_whole(
    chat: OpenAIChat, provider_server: ProviderServer
) -> None:
    # GIVEN a structured reply citing S2, an unknown S5, and S1
    provider_server.script = [
        structured(
            ("Backups are kept for 35 days.", ["S2", "S5"]),
            ("Logs rotate weekly.", ["S1"]),
            prompt_tokens=1500,
            completion_tokens=30,
            cached_tokens=1024,
        )
    ]

    # WHEN a draft is asked for
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)

    # THEN labels become span ids, S5 is dropped and each cited span is quoted exactly
    assert draft.problem is None and draft.answerer == "openai"
    assert [(s.text, s.citation_ids) for s in draft.sentences] == [
        ("Backups are kept for 35 days.", [S2]),
        ("Logs rotate weekly.", [S1]),
    ]
    assert draft.sentences[0].quotes == [DraftQuote(span_id=S2, text=BACKUP_RULE)]
    # AND usage has the prompt's cached tokens
    [call] = draft.calls
    assert (call.provider, call.model, call.input_tokens, call.output_tokens) == (
        "openai",
        "gpt-4.1-mini",
        1500,
        30,
    )
    assert call.cache_read_input_tokens == 1024


def test_the_request_asks_for_strict_json_schema_with_history_before_the_evidence(
    chat: OpenAIChat, provider_server: ProviderServer
) -> None:
    provider_server.script = [structured(("Kept 35 days.", ["S2"]))]
    history = [ConversationTurn(question="Who keeps backups?", answer="The IT team does.")]

    chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE, history)

    body = provider_server.requests[0].body
    assert body["model"] == "gpt-4.1-mini" and body["max_completion_tokens"] == 256
    schema = body["response_format"]["json_schema"]
    assert body["response_format"]["type"] == "json_schema" and schema["strict"] is True
    item = schema["schema"]["properties"]["sentences"]["items"]
    assert item["required"] == ["text", "citation_ids"]
    assert item["additionalProperties"] is False
    roles = [message["role"] for message in body["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert body["messages"][1]["content"] == "Who keeps backups?"
    last = body["messages"][-1]["content"]
    assert f"[S2] (policy.pdf, page 1) {BACKUP_RULE}" in last and last.endswith(BACKUP_QUESTION)


def test_a_refusal_is_unusable(chat: OpenAIChat, provider_server: ProviderServer) -> None:
    provider_server.script = [
        Reply(200, openai_completion(None, refusal="I can't help with that."))
    ]
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)
    assert draft.sentences == [] and draft.problem == "refused: I can't help with that."
    assert len(draft.calls) == 1  # the refusal was billed: it counts


def test_malformed_json_content_is_read_for_markers_before_it_is_given_up(
    chat: OpenAIChat, provider_server: ProviderServer
) -> None:
    # GIVEN a reply that ignored the format but cites with a marker, then one citing nothing
    provider_server.script = [
        Reply(200, openai_completion("Backups are kept for 35 days [S2].")),
        Reply(
            200, openai_completion('{"sentences": [{"text": "Backups are', finish_reason="length")
        ),
    ]

    # WHEN each is read THEN the first is usable, the second is not, naming the finish reason
    marked = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)
    assert [s.citation_ids for s in marked.sentences] == [[S2]]
    cut = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)
    assert cut.sentences == [] and cut.problem is not None and "length" in cut.problem
