"""Follow-ups: when a question is one, how it is rewritten, and which earlier evidence returns."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.adapters.local.sqlite_stores import SqliteCertificateStore, SqliteQuestionStore
from certiq.config import ConversationSettings
from certiq.errors import TransientError
from certiq.models import (
    CertifiedDocument,
    Citation,
    QuestionStatus,
    SearchHit,
    SearchMetadata,
)
from certiq.ports import Turn
from certiq.retrieval.conversation import (
    EarlierTurn,
    earlier_evidence,
    earlier_turns,
    is_follow_up,
    merge_hits,
    rewrite_by_rules,
    rewrite_query,
)
from tests.fakes import FixedClock, make_certificate, make_chunk, make_question, make_response

SETTINGS = ConversationSettings()
PREVIOUS = "How long are backups of customer data kept in Germany?"


@pytest.mark.parametrize(
    "question",
    [
        "and for contractors?",
        "And what about invoices?",
        "what about it in France?",
        "How long is it kept?",
        "Are those encrypted too?",
        "Contractors?",
    ],
)
def test_follow_ups_are_recognised(question: str) -> None:
    assert is_follow_up(question, SETTINGS)


@pytest.mark.parametrize(
    "question",
    [
        "How long are invoices archived?",
        "What is the refund window for product A?",
        "Android tablets: who approves purchases?",
        "",
    ],
)
def test_standalone_questions_are_not_follow_ups(question: str) -> None:
    assert not is_follow_up(question, SETTINGS)


def test_rules_append_the_previous_content_words_the_question_lacks() -> None:
    assert (
        rewrite_by_rules("and for contractors?", "How long are backups of customer data kept?")
        == "and for contractors? long backups customer data kept"
    )
    # Words the question holds already (by stem) are not repeated
    assert rewrite_by_rules("How long is it kept?", "Where are backups kept?") == (
        "How long is it kept? backups"
    )


def test_a_question_naming_its_own_place_drops_the_previous_one() -> None:
    assert rewrite_by_rules("what about it in France?", PREVIOUS) == (
        "what about it in France? long backups customer data kept"
    )


def turn(query: str = PREVIOUS, answer: str = "Backups are kept for 35 days.") -> EarlierTurn:
    return EarlierTurn(
        question_id="q-0",
        question=query,
        query=query,
        answer=answer,
        citations=[],
        certificate_id=None,
    )


class ScriptedRewriter:
    """A QueryRewriter that returns, or raises, what it is given, and records its calls."""

    name = "fake:model"

    def __init__(self, result: str | Exception) -> None:
        self.result = result
        self.calls: list[tuple[str, list[Turn]]] = []

    def rewrite(self, question: str, turns: Sequence[Turn]) -> str:
        self.calls.append((question, list(turns)))
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def test_a_model_rewrite_is_used_and_named() -> None:
    rewriter = ScriptedRewriter("  backup retention for contractors in Germany \n")
    rewrite = rewrite_query("and for contractors?", [turn()], rewriter, SETTINGS)
    assert (rewrite.query, rewrite.rewriter, rewrite.note) == (
        "backup retention for contractors in Germany",
        "fake:model",
        None,
    )
    # The model saw the earlier turn's query and answer
    assert rewriter.calls == [("and for contractors?", [Turn(PREVIOUS, turn().answer)])]


def test_a_failing_model_leaves_the_rewrite_to_the_rules_and_says_why() -> None:
    rewriter = ScriptedRewriter(TransientError("anthropic query rewriting: HTTP 529"))
    rewrite = rewrite_query("and for contractors?", [turn()], rewriter, SETTINGS)
    assert rewrite.rewriter == "rules"
    assert rewrite.query.startswith("and for contractors? ")
    assert rewrite.note is not None and "HTTP 529" in rewrite.note


def test_an_empty_model_answer_is_a_failure_too() -> None:
    rewrite = rewrite_query("and for contractors?", [turn()], ScriptedRewriter(" "), SETTINGS)
    assert rewrite.rewriter == "rules" and "empty" in (rewrite.note or "")


def test_a_standalone_question_is_searched_as_asked() -> None:
    question = "How long are invoices archived?"
    assert not rewrite_query(question, [turn()], None, SETTINGS).rewritten
    unchanged = rewrite_query(question, [turn()], ScriptedRewriter(question), SETTINGS)
    assert (unchanged.query, unchanged.rewritten) == (question, False)


def test_without_earlier_turns_or_with_rewriting_off_nothing_is_rewritten() -> None:
    rewriter = ScriptedRewriter("never used")
    assert rewrite_query("and for contractors?", [], rewriter, SETTINGS).query == (
        "and for contractors?"
    )
    off = ConversationSettings(rewriter="none")
    assert not rewrite_query("and for contractors?", [turn()], rewriter, off).rewritten
    rules_only = ConversationSettings(rewriter="rules")
    assert rewrite_query("and for contractors?", [turn()], rewriter, rules_only).rewriter == (
        "rules"
    )
    assert rewriter.calls == []


def test_earlier_turns_are_the_complete_ones_before_the_question(tmp_path: Path) -> None:
    # GIVEN a conversation: an answered turn, a failed one, the question, and a later one
    clock = FixedClock()
    questions = SqliteQuestionStore(SqliteDatabase(tmp_path), clock)
    for number, status in enumerate(
        [QuestionStatus.COMPLETE, QuestionStatus.FAILED, QuestionStatus.RECEIVED, None]
    ):
        questions.create(make_question(f"q-{number}", at=clock.advance()))
        if status is not None and status is not QuestionStatus.RECEIVED:
            response = make_response(f"q-{number}", status).model_copy(
                update={
                    "answer": "Refunds are accepted within 30 days. [C1]",
                    "search": SearchMetadata(
                        query="refund window rewritten",
                        mode="bm25",
                        mode_used="bm25",
                        chunks_searched=1,
                        threshold=0.1,
                        engine="sqlite-fts5",
                        embedder=None,
                    ),
                }
            )
            questions.complete(f"q-{number}", response)
    # WHEN the turns before q-2 are read
    turns = earlier_turns(questions, "tenant-a", "conv-1", "q-2", max_turns=3)
    # THEN only the complete one, with its searched query and its answer without markers
    assert [(t.question_id, t.query, t.answer) for t in turns] == [
        ("q-0", "refund window rewritten", "Refunds are accepted within 30 days.")
    ]
    assert earlier_turns(questions, "tenant-a", "conv-1", "q-2", max_turns=1)[0].question_id == (
        "q-0"
    )


class Chunks:
    """A SearchIndex that only serves get_chunks."""

    def __init__(self, *chunks: object) -> None:
        self.chunks = {chunk.chunk_id: chunk for chunk in chunks}  # type: ignore[attr-defined]

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, object]:
        return {cid: self.chunks[cid] for cid in chunk_ids if cid in self.chunks}


def test_earlier_evidence_returns_only_while_it_holds_what_was_cited(tmp_path: Path) -> None:
    # GIVEN a turn citing doc-1:0 and doc-2:0, certified at version 1 of both
    certificates = SqliteCertificateStore(SqliteDatabase(tmp_path))
    versions = [
        CertifiedDocument(doc_id=d, file_name=f"{d}.pdf", sha256="0" * 64, version="1")
        for d in ("doc-1", "doc-2")
    ]
    certificate = make_certificate().model_copy(update={"documents": versions})
    certificates.append(certificate.tenant, lambda _previous: certificate)
    first = make_chunk("Refunds are accepted within 30 days. Shipping is free", tenant="tenant-a")
    second = make_chunk("Returns need a receipt. Keep it", doc_id="doc-2", tenant="tenant-a")
    cited = [
        Citation(
            id=f"C{n}",
            chunk_id=chunk.chunk_id,
            doc_id=chunk.doc_id,
            file_name=chunk.source.file_name,
            page=1,
            boxes=[],
            quote=chunk.sentences[0].text,
            start=chunk.sentences[0].start,
            end=chunk.sentences[0].end,
            score=0.5,
        )
        for n, chunk in enumerate((first, second), start=1)
    ]
    earlier = EarlierTurn("q-0", "refunds", "refunds", "...", cited, certificate.certificate_id)
    # WHEN both chunks are unchanged THEN both return, in citation order
    both = earlier_evidence(earlier, "tenant-a", None, Chunks(first, second), certificates)  # type: ignore[arg-type]
    assert [chunk.chunk_id for chunk in both] == ["doc-1:0", "doc-2:0"]
    # WHEN doc-2 is another version, or its quote moved THEN only doc-1:0 returns
    newer = second.model_copy(update={"source": second.source.model_copy(update={"version": "2"})})
    moved = make_chunk(
        "New rule. Returns need a receipt. Keep it", doc_id="doc-2", tenant="tenant-a"
    )
    for changed in (newer, moved):
        kept = earlier_evidence(earlier, "tenant-a", None, Chunks(first, changed), certificates)  # type: ignore[arg-type]
        assert [chunk.chunk_id for chunk in kept] == ["doc-1:0"]
    # AND another collection, or no certificate to say which version was cited, returns nothing
    assert earlier_evidence(earlier, "tenant-a", "hr", Chunks(first), certificates) == []  # type: ignore[arg-type]
    unsealed = EarlierTurn("q-0", "refunds", "refunds", "...", cited, None)
    assert earlier_evidence(unsealed, "tenant-a", None, Chunks(first), certificates) == []  # type: ignore[arg-type]


def test_carried_chunks_join_the_hits_once_scored_as_the_weakest() -> None:
    hits = [
        SearchHit(chunk=make_chunk("a b", doc_id="x"), score=3.0),
        SearchHit(chunk=make_chunk("c d", doc_id="y"), score=1.5),
    ]
    carried = [make_chunk("a b", doc_id="x"), make_chunk("e f", doc_id="z")]
    merged, added = merge_hits(hits, carried)
    assert added == 1
    assert [(hit.chunk.doc_id, hit.score) for hit in merged] == [
        ("x", 3.0),
        ("y", 1.5),
        ("z", 1.5),
    ]
