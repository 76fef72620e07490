"""The Claude ChatModel over the real anthropic SDK, against the HTTP fake of the Messages API."""

from __future__ import annotations

import pytest

from certiq.adapters.llm.anthropic_chat import AnthropicChat
from certiq.models import ConversationTurn, DraftQuote
from tests.fakes import BACKUP_EVIDENCE, BACKUP_QUESTION, BACKUP_RULE, LOGS_RULE
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_char_citation,
    anthropic_chat,
    anthropic_message,
    anthropic_search_citation,
    anthropic_text,
    anthropic_usage,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

S1, S2 = (span.span_id for span in BACKUP_EVIDENCE)


@pytest.fixture
def chat(provider_server: ProviderServer) -> AnthropicChat:
    return anthropic_chat(provider_server, max_output_tokens=512, timeout_seconds=1.0)


def cited_answer(**usage: int) -> Reply:
    """Claude's documented shape: uncited and cited text blocks interleaved."""
    return Reply(
        200,
        anthropic_message(
            [
                anthropic_text("According to the policy, "),
                anthropic_text(
                    "backups of customer data are kept for 35 days",
                    [anthropic_search_citation(BACKUP_RULE, source=S2, search_result_index=1)],
                ),
                anthropic_text(". "),
                anthropic_text(
                    "Logs are rotated weekly.",
                    # a citation naming no source of ours is placed by its index
                    [
                        anthropic_search_citation(
                            LOGS_RULE, source="elsewhere", search_result_index=0
                        )
                    ],
                ),
            ],
            usage=anthropic_usage(**usage),
        ),
    )


def test_citations_map_to_span_ids_with_their_cited_text_as_the_quote(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    # GIVEN Claude answering with search-result citations, part of the prompt read from cache
    provider_server.script = [
        cited_answer(input_tokens=40, output_tokens=25, cache_read=1200, cache_creation=0)
    ]

    # WHEN a draft is asked for
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)

    # THEN each sentence cites the span its citation names, quoting the cited text exactly
    assert draft.problem is None and draft.answerer == "anthropic"
    assert [(s.text, s.citation_ids) for s in draft.sentences] == [
        ("According to the policy, backups of customer data are kept for 35 days.", [S2]),
        ("Logs are rotated weekly.", [S1]),
    ]
    assert draft.sentences[0].quotes == [DraftQuote(span_id=S2, text=BACKUP_RULE)]
    # AND the call's usage counts the cached prompt tokens too
    [call] = draft.calls
    assert (call.provider, call.model) == ("anthropic", "claude-sonnet-5")
    assert (call.input_tokens, call.output_tokens) == (1240, 25)
    assert (call.cache_read_input_tokens, call.cache_creation_input_tokens) == (1200, 0)
    assert call.latency_ms > 0


def test_the_request_sends_search_results_with_citations_and_caches_the_prefix(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    # GIVEN a conversation with one earlier turn
    provider_server.script = [cited_answer()]
    history = [ConversationTurn(question="Who keeps backups?", answer="The IT team does.")]

    # WHEN a draft is asked for
    chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE, history)

    # THEN the system prompt is a cached block, the earlier turn comes first as messages
    body = provider_server.requests[0].body
    assert body["model"] == "claude-sonnet-5" and body["max_tokens"] == 512
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "Use only the evidence" in body["system"][0]["text"]
    first, second, last = body["messages"]
    assert first == {"role": "user", "content": "Who keeps backups?"}
    assert second["role"] == "assistant"
    assert second["content"][0]["text"] == "The IT team does."
    assert second["content"][0]["cache_control"] == {"type": "ephemeral"}
    # AND each span is a search result with citations on, its source our span id
    results = [block for block in last["content"] if block["type"] == "search_result"]
    assert [r["source"] for r in results] == [S1, S2]
    assert all(r["citations"] == {"enabled": True} for r in results)
    assert results[1]["content"] == [{"type": "text", "text": BACKUP_RULE}]
    assert last["content"][-1] == {"type": "text", "text": f"Question: {BACKUP_QUESTION}"}


def test_a_cited_text_not_in_its_span_is_repaired_or_dropped(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    # GIVEN one citation whose cited text differs by a word, one that is nowhere in its span
    provider_server.script = [
        Reply(
            200,
            anthropic_message(
                [
                    anthropic_text(
                        "Backups are kept 35 days.",
                        [
                            anthropic_search_citation(
                                "Backups of client data are kept for 35 days",
                                source=S2,
                                search_result_index=1,
                            )
                        ],
                    ),
                    anthropic_text(
                        " Visitors sign in.",
                        [
                            anthropic_search_citation(
                                "Visitors sign in", source=S1, search_result_index=0
                            )
                        ],
                    ),
                ]
            ),
        )
    ]

    # WHEN read
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)

    # THEN the first quote becomes the evidence's exact text; the second sentence cites nothing
    assert draft.sentences[0].quotes == [DraftQuote(span_id=S2, text=BACKUP_RULE)]
    assert draft.sentences[1].citation_ids == [] and draft.sentences[1].quotes == []


def test_a_document_citation_is_placed_by_its_text(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    cited = anthropic_char_citation(BACKUP_RULE, document_index=0, start=0, end=len(BACKUP_RULE))
    provider_server.script = [
        Reply(200, anthropic_message([anthropic_text("Backups: 35 days.", [cited])]))
    ]
    assert chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE).sentences[0].citation_ids == [S2]


def test_an_answer_that_ignores_citations_is_read_for_markers(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    provider_server.script = [
        Reply(200, anthropic_message([anthropic_text("Backups are kept for 35 days [S2].")]))
    ]
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)
    assert draft.problem is None
    assert [s.citation_ids for s in draft.sentences] == [[S2]]


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (anthropic_message([anthropic_text("I cannot help.")]), "no sentence cites"),
        (anthropic_message([], stop_reason="refusal"), "refused"),
    ],
)
def test_an_answer_citing_nothing_or_a_refusal_is_unusable_with_its_cost(
    chat: AnthropicChat, provider_server: ProviderServer, reply: dict[str, object], problem: str
) -> None:
    provider_server.script = [Reply(200, reply)]
    draft = chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE)
    assert draft.sentences == [] and draft.problem is not None and problem in draft.problem
    assert [call.output_tokens for call in draft.calls] == [20]


def test_an_answer_cut_at_max_tokens_loses_its_unfinished_sentence(
    chat: AnthropicChat, provider_server: ProviderServer
) -> None:
    cite = anthropic_search_citation(BACKUP_RULE, source=S2, search_result_index=1)
    provider_server.script = [
        Reply(
            200,
            anthropic_message(
                [anthropic_text("Backups are kept 35 days. Logs are", [cite])],
                stop_reason="max_tokens",
            ),
        )
    ]
    assert [s.text for s in chat.draft(BACKUP_QUESTION, BACKUP_EVIDENCE).sentences] == [
        "Backups are kept 35 days."
    ]
