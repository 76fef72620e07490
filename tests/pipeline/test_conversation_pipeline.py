"""Conversations through the whole state machine: follow-ups searched with their earlier turns.

Every question has at least three words, so it passes Validate whatever its rule for short
follow-ups.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from certiq.adapters.local.orchestrator import LocalRun, LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import (
    ConversationSettings,
    EmbeddingSettings,
    RedactionSettings,
    RetrievalSettings,
    Settings,
    TranslationSettings,
)
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.questions import receive
from tests.conftest import build_pdf
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    llm_settings,
    text_reply,
)

TENANT = "default"
BACKUPS_WHERE = "Backups of customer data are stored in Frankfurt."
BACKUPS_HOW_LONG = "Backups of customer data are kept for 35 days."
INVOICES_HOW_LONG = "Invoices are kept for ten years."
INVOICES_WHERE = "Invoices are stored in the archive room."
FIRST = "Where are backups of customer data stored?"
FOLLOW_UP = "How long are they kept?"


def deps_with_documents(tmp_path: Path, **settings: object) -> Deps:
    # A configured model answers as a query rewriter only: no name pass, no translation.
    fields: dict[str, object] = {
        "home": tmp_path / "home",
        "embedding": EmbeddingSettings(provider="none"),
        "redaction": RedactionSettings(names="off"),
        "translation": TranslationSettings(enabled=False),
        **settings,
    }
    deps = build_deps(Settings.model_validate(fields))
    documents = {
        "backups.pdf": [BACKUPS_WHERE, BACKUPS_HOW_LONG],
        "invoices.pdf": [INVOICES_HOW_LONG, INVOICES_WHERE],
    }
    for name, paragraphs in documents.items():
        upload = Upload(
            data=build_pdf([paragraphs]), file_name=name, uri=f"file:///{name}", tenant=TENANT
        )
        ingest(upload, deps)
    return deps


def ask(deps: Deps, question: str, conversation_id: str | None = None) -> LocalRun:
    run = LocalRuntime(deps).run(receive(question, deps, conversation_id=conversation_id))
    assert run.execution.status == "SUCCEEDED"
    return run


def first_claim(run: LocalRun) -> str:
    return run.state.claims[0].text


def test_a_follow_up_is_searched_with_the_previous_turn_and_answered_about_it(
    tmp_path: Path,
) -> None:
    # GIVEN a conversation whose first turn asked where backups are stored
    deps = deps_with_documents(tmp_path)
    first = ask(deps, FIRST, "conv-1")
    assert first_claim(first) == BACKUPS_WHERE

    # WHEN the follow-up asks how long "they" are kept
    follow_up = ask(deps, FOLLOW_UP, "conv-1")

    # THEN it was searched with the first turn's content words, and says so
    search = follow_up.state.search
    assert search is not None
    assert search.original_query == FOLLOW_UP and search.rewriter == "rules"
    assert search.query.startswith(FOLLOW_UP) and "backups" in search.query
    # AND its answer leads with the backups' retention
    assert first_claim(follow_up) == BACKUPS_HOW_LONG
    record = deps.questions.get(follow_up.state.question_id)
    assert record is not None and record.response is not None
    assert record.response.question == FOLLOW_UP
    assert record.response.search is not None and record.response.search.rewriter == "rules"
    # AND the same words outside the conversation are searched as asked: "they" may be
    # anything kept, and the invoices' period answers too
    alone = ask(deps, FOLLOW_UP)
    assert alone.state.search is not None and alone.state.search.original_query is None
    assert INVOICES_HOW_LONG in [claim.text for claim in alone.state.claims]


def test_a_follow_up_reuses_only_answers_to_the_same_rewritten_question(tmp_path: Path) -> None:
    # GIVEN one conversation about backups, answered to its follow-up
    deps = deps_with_documents(tmp_path)
    ask(deps, FIRST, "backups-1")
    earlier = ask(deps, FOLLOW_UP, "backups-1")

    # WHEN another conversation asks the same two questions, and a third asks the same
    # follow-up about invoices
    ask(deps, FIRST, "backups-2")
    same = ask(deps, FOLLOW_UP, "backups-2")
    ask(deps, "Where are invoices stored?", "invoices-1")
    other = ask(deps, FOLLOW_UP, "invoices-1")

    # THEN the same follow-up reuses the earlier verified answer, the invoice one does not
    assert same.state.reused_from is not None
    assert same.state.reused_from.question_id == earlier.state.question_id
    assert other.state.reused_from is None
    assert first_claim(other) == INVOICES_HOW_LONG


def test_a_model_rewrites_the_follow_up_and_earlier_evidence_is_searched_again(
    tmp_path: Path, provider_server: ProviderServer, provider_keys: None
) -> None:
    # GIVEN a model rewriter (a fake of the Anthropic API) and a search that keeps one chunk
    llm = llm_settings(provider_server, provider="anthropic")
    deps = deps_with_documents(tmp_path, llm=llm, retrieval=RetrievalSettings(top_k=1))
    first = ask(deps, FIRST, "conv-1")
    (cited,) = {citation.chunk_id for citation in first.state.citations}
    rewritten = "How long are invoices kept?"
    provider_server.script = [text_reply("anthropic", rewritten)]

    # WHEN the follow-up is asked
    follow_up = ask(deps, "How long are those kept?", "conv-1")

    # THEN the model saw the earlier turn and wrote the query that was searched
    (request,) = provider_server.requests
    assert FIRST in request.body["messages"][0]["content"]
    search = follow_up.state.search
    assert search is not None
    assert (search.query, search.rewriter) == (rewritten, f"anthropic:{llm.anthropic_model}")
    # AND the first turn's cited chunk was searched again beside the one new hit
    assert search.earlier_evidence == 1 and search.chunks_searched == 2
    assert cited in {span.chunk_id for span in follow_up.state.evidence}


def test_when_the_model_fails_the_rules_rewrite_and_the_state_says_why(
    tmp_path: Path, provider_server: ProviderServer, provider_keys: None
) -> None:
    # GIVEN a model rewriter whose API refuses every request
    llm = llm_settings(provider_server, provider="anthropic")
    deps = deps_with_documents(tmp_path, llm=llm)
    ask(deps, FIRST, "conv-1")
    provider_server.script = [
        Reply(400, {"type": "error", "error": {"type": "invalid_request_error", "message": "no"}})
    ]

    # WHEN the follow-up is asked
    follow_up = ask(deps, FOLLOW_UP, "conv-1")

    # THEN the rules rewrote it, the note names the model's failure, and the answer follows
    search = follow_up.state.search
    assert search is not None and search.rewriter == "rules"
    assert search.rewrite_note is not None and "HTTP 400" in search.rewrite_note
    assert first_claim(follow_up) == BACKUPS_HOW_LONG


def test_rewriting_can_be_switched_off(tmp_path: Path) -> None:
    deps = deps_with_documents(tmp_path)
    deps = dataclasses.replace(
        deps,
        settings=deps.settings.model_copy(
            update={"conversation": ConversationSettings(rewriter="none")}
        ),
    )
    ask(deps, FIRST, "conv-1")
    follow_up = ask(deps, FOLLOW_UP, "conv-1")
    assert follow_up.state.search is not None
    assert follow_up.state.search.query == FOLLOW_UP
    assert follow_up.state.search.rewriter is None
