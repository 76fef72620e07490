"""Reuse of verified answers: which questions are the same, which answers qualify, the ASL path."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.adapters.local.sqlite_stores import SqliteDocumentStore
from certiq.bootstrap import build_deps
from certiq.config import ASL_FILE, EmbeddingSettings, Settings
from certiq.models import (
    CertifiedDocument,
    DocumentStatus,
    RenderState,
    ReusedFrom,
    VerifiedAnswer,
)
from certiq.retrieval.reuse import (
    cited_evidence,
    fully_verified,
    near_identical,
    question_terms,
    stale_document,
    term_overlap,
    terms_key,
)
from certiq.statemachine.interpreter import StateMachine
from certiq.steps.find_verified_answer import MAX_CHECKED, find_verified_answer
from certiq.trust.certificate import check, seal_and_sign
from tests.fakes import (
    EPOCH,
    HashingEmbedder,
    make_certificate,
    make_chunk,
    make_document,
    make_state,
)

ASL = ASL_FILE


# --- which questions are the same ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("How long are backups kept?", "how long are the backups kept"),
        ("What is the refund window?", "What is a refund window?"),
        ("Please tell me the refund window", "tell me the refund window"),
        ("Backups: how long kept?", "How long kept, backups?"),
    ],
)
def test_the_same_question_worded_a_little_differently_has_the_same_terms(
    first: str, second: str
) -> None:
    assert question_terms(first) == question_terms(second)
    assert terms_key(question_terms(first)) == terms_key(question_terms(second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("What is the refund window for A?", "What is the refund window for B?"),
        ("What is the refund window for plan A?", "What is the refund window for plan?"),
        ("Which files are encrypted?", "Which files are not encrypted?"),
        ("When are backups deleted?", "Why are backups deleted?"),
        ("What happens before deletion?", "What happens after deletion?"),
        ("Refunds within 30 days?", "Refunds within 60 days?"),
        ("Can I delete my data?", "Can you delete your data?"),
    ],
)
def test_questions_asking_something_else_have_other_terms(first: str, second: str) -> None:
    assert question_terms(first) != question_terms(second)
    assert term_overlap(question_terms(first), question_terms(second)) < 1.0


def test_the_terms_key_ignores_order_and_tells_sets_apart() -> None:
    assert terms_key(["b", "a"]) == terms_key(["a", "b"])
    assert terms_key(["a", "b"]) != terms_key(["a", "b", "c"])
    assert term_overlap(frozenset(), frozenset()) == 0.0


def candidate(question: str, *, minutes: int = 0, **fields: Any) -> VerifiedAnswer:
    return VerifiedAnswer(
        tenant="tenant-a",
        question_id=f"q-{question}-{minutes}",
        certificate_id="cert-1",
        question=question,
        terms_key=terms_key(question_terms(question)),
        documents=[],
        created_at=EPOCH + timedelta(minutes=minutes),
        **fields,
    )


def test_lexically_near_identical_answers_come_newest_first() -> None:
    # GIVEN two answers to the question and one to another
    older = candidate("How long are backups kept?", minutes=0)
    newer = candidate("How long are the backups kept?", minutes=5)
    other = candidate("How long are invoices kept?", minutes=9)
    # WHEN matched without an embedder
    matches = near_identical(
        "how long are backups kept",
        [older, other, newer],
        min_term_overlap=1.0,
        min_similarity=0.9,
        embedder=None,
    )
    # THEN both same-terms answers match, newest first, without a similarity
    assert [m.answer for m in matches] == [newer, older]
    assert all(m.similarity is None for m in matches)


def test_a_lower_term_overlap_admits_near_questions() -> None:
    near = candidate("How long are customer backups kept?")
    assert not near_identical(
        "How long are backups kept?",
        [near],
        min_term_overlap=1.0,
        min_similarity=0.9,
        embedder=None,
    )
    assert near_identical(
        "How long are backups kept?",
        [near],
        min_term_overlap=0.75,
        min_similarity=0.9,
        embedder=None,
    )


def test_with_an_embedder_the_cosine_must_pass_too() -> None:
    # GIVEN an embedder that pins one wording far from the question
    question = "How long are backups kept?"
    far = "How long are the backups kept?"
    embedder = HashingEmbedder(dimension=8, pinned={far: [1, 0, 0, 0, 0, 0, 0, 0]})
    same = candidate(question, embedder=embedder.name, embedding=embedder.embed([question])[0])
    # AND a candidate whose stored vector is of another model: its text is embedded afresh
    other_model = candidate(question, minutes=1, embedder="old-model", embedding=[1.0, 0.0])
    # WHEN matched
    matches = near_identical(
        question,
        [same, candidate(far, minutes=2), other_model],
        min_term_overlap=1.0,
        min_similarity=0.9,
        embedder=embedder,
    )
    # THEN the pinned-away wording fails the cosine; the others pass with their cosine recorded
    assert [m.answer for m in matches] == [other_model, same]
    assert [m.similarity for m in matches] == [pytest.approx(1.0), pytest.approx(1.0)]
    # AND only the query and the texts without a vector of this model were embedded
    assert embedder.calls[-1] == [question, far, question]


# --- which answers qualify ----------------------------------------------------------------------


def test_only_answers_whose_every_claim_is_verified_qualify() -> None:
    certificate = make_certificate()
    assert fully_verified(certificate)
    claim = certificate.claims[0]
    assert claim.decision is not None
    for state in (RenderState.UNVERIFIED, RenderState.BLOCKED):
        decision = claim.decision.model_copy(update={"state": state})
        marked = claim.model_copy(update={"id": "S2", "decision": decision})
        assert not fully_verified(certificate.model_copy(update={"claims": [claim, marked]}))
    assert not fully_verified(certificate.model_copy(update={"claims": []}))
    undecided = claim.model_copy(update={"decision": None})
    assert not fully_verified(certificate.model_copy(update={"claims": [undecided]}))


def test_a_cited_document_must_be_indexed_at_the_certified_version(tmp_path: Path) -> None:
    # GIVEN the documents table and what a certificate cited of doc-1
    documents = SqliteDocumentStore(SqliteDatabase(tmp_path))
    cited = [
        CertifiedDocument(doc_id="doc-1", file_name="doc-1.pdf", sha256="a" * 64, version="v1")
    ]
    # THEN a missing, deleted, re-processing or changed document is stale, and says how
    assert stale_document("tenant-a", cited, documents) == "doc-1.pdf was deleted"
    documents.put(make_document(status=DocumentStatus.DELETED))
    assert stale_document("tenant-a", cited, documents) == "doc-1.pdf was deleted"
    documents.put(make_document(status=DocumentStatus.PROCESSING))
    assert stale_document("tenant-a", cited, documents) == "doc-1.pdf is PROCESSING"
    documents.put(make_document().model_copy(update={"version": "v2", "sha256": "b" * 64}))
    assert stale_document("tenant-a", cited, documents) == "doc-1.pdf changed (version v1 -> v2)"
    documents.put(make_document())
    assert stale_document("tenant-a", cited, documents) is None
    # AND another tenant's copy is not this tenant's document
    assert stale_document("tenant-b", cited, documents) == "doc-1.pdf was deleted"


class Chunks:
    """A SearchIndex that only serves get_chunks, from the chunks given."""

    def __init__(self, *chunks: Any) -> None:
        self.chunks = {chunk.chunk_id: chunk for chunk in chunks}

    def get_chunks(self, tenant: str, chunk_ids: Any) -> dict[str, Any]:
        return {cid: self.chunks[cid] for cid in chunk_ids if cid in self.chunks}


def test_reused_citations_become_evidence_only_while_each_quote_holds() -> None:
    # GIVEN a certificate citing the first sentence of doc-1:0, and that chunk
    text = "Refunds are accepted within 30 days. Shipping is free"
    chunk = make_chunk(text, tenant="tenant-a")
    versions = [
        CertifiedDocument(doc_id="doc-1", file_name="doc-1.pdf", sha256="0" * 64, version="1")
    ]
    certificate = make_certificate().model_copy(update={"documents": versions})
    # WHEN its evidence is rebuilt
    spans, reason = cited_evidence(certificate, Chunks(chunk))  # type: ignore[arg-type]
    # THEN each citation is a span of the current chunk, with the chunk's source
    assert reason is None
    (span,) = spans
    assert (span.span_id, span.text, span.version, span.chunk_ordinal) == (
        "doc-1:0:0",
        "Refunds are accepted within 30 days",
        "1",
        0,
    )
    # AND a gone chunk, another version or a moved quote refuses, naming the citation
    assert cited_evidence(certificate, Chunks())[1] == "citation C1: chunk doc-1:0 is gone"  # type: ignore[arg-type]
    newer = chunk.model_copy(update={"source": chunk.source.model_copy(update={"version": "2"})})
    assert "another version" in (cited_evidence(certificate, Chunks(newer))[1] or "")  # type: ignore[arg-type]
    moved = make_chunk("Note. " + text, tenant="tenant-a")
    assert "no longer verbatim" in (cited_evidence(certificate, Chunks(moved))[1] or "")  # type: ignore[arg-type]


# --- certificates that name what they reused ----------------------------------------------------


def test_reused_from_is_sealed_when_set_and_older_certificates_still_check(
    tmp_path: Path,
) -> None:
    signer = KeyFileSigner(tmp_path / "signing-key.pem")
    plain = seal_and_sign(make_certificate(), signer)
    # A certificate without reuse has no digest for the field, as those issued before it existed
    assert "reused_from" not in plain.field_digests and check(plain, signer).valid
    link = ReusedFrom(question_id="q-0", certificate_id="cert-0", question="refunds?")
    reused = seal_and_sign(make_certificate().model_copy(update={"reused_from": link}), signer)
    assert "reused_from" in reused.field_digests and check(reused, signer).valid
    # Adding, changing or removing the link is named as the difference
    added = plain.model_copy(update={"reused_from": link})
    assert check(added, signer).first_difference == "reused_from"
    changed = reused.model_copy(update={"reused_from": link.model_copy(update={"question": "x"})})
    assert check(changed, signer).first_difference == "reused_from"
    removed = reused.model_copy(update={"reused_from": None})
    assert check(removed, signer).first_difference == "reused_from"


# --- the state machine's path on a hit ----------------------------------------------------------


def fake_steps(found: bool) -> tuple[dict[str, Callable[[Any], Any]], list[str]]:
    text = ASL.read_text(encoding="utf-8")
    resources = {
        state["Resource"] for state in json.loads(text)["States"].values() if "Resource" in state
    }
    calls: list[str] = []

    def step(resource: str) -> Callable[[Any], Any]:
        def run(event: Any) -> Any:
            calls.append(resource)
            out = {**event, "validation": {"ok": True}}
            if resource == "${FindVerifiedAnswerFunctionArn}":
                out["reused_from"] = {"question_id": "q-0"} if found else None
            return out

        return run

    return {resource: step(resource) for resource in resources}, calls


@pytest.mark.parametrize("found", [True, False])
def test_a_found_answer_skips_draft_and_verify_and_is_sealed(found: bool) -> None:
    # GIVEN the real ASL with fakes; Find verified answer reports a hit or a miss
    resources, calls = fake_steps(found)
    machine = StateMachine(ASL.read_text(encoding="utf-8"), resources)
    # WHEN a question runs
    run = machine.execute({"question_id": "q-1", "question": "How long are backups kept?"})
    # THEN a hit goes from the lookup to Guard answer and Persist certificate; a miss drafts and
    # verifies first
    assert run.status == "SUCCEEDED"
    after_lookup = calls[calls.index("${FindVerifiedAnswerFunctionArn}") + 1 :]
    if found:
        assert after_lookup == ["${GuardAnswerFunctionArn}", "${PersistFunctionArn}"]
    else:
        assert after_lookup == [
            "${AnswerFunctionArn}",
            "${VerifyFunctionArn}",
            "${GuardAnswerFunctionArn}",
            "${PersistFunctionArn}",
        ]


class CountingDocuments:
    """A DocumentStore that holds nothing and counts the reads."""

    def __init__(self) -> None:
        self.reads = 0

    def get(self, tenant: str, doc_id: str) -> None:
        self.reads += 1
        return None


def test_only_the_best_few_matches_are_re_checked(tmp_path: Path) -> None:
    # GIVEN seven earlier answers to the question, each citing a document since deleted
    deps = build_deps(Settings(home=tmp_path, embedding=EmbeddingSettings(provider="none")))
    documents = CountingDocuments()
    deps = dataclasses.replace(deps, documents=documents)  # type: ignore[arg-type]
    assert deps.answers is not None
    question = "How long are backups kept?"
    cited = [CertifiedDocument(doc_id="gone", file_name="gone.pdf", sha256="a" * 64, version="1")]
    for minute in range(7):
        deps.answers.put(
            candidate(question, minutes=minute).model_copy(
                update={"tenant": "default", "documents": cited}
            )
        )
    state = make_state(question=question).model_copy(update={"tenant": "default"})
    # WHEN the lookup runs
    result = find_verified_answer(state, deps)
    # THEN nothing is reused, five were checked (one read each) and the note says the rest were not
    assert result.reused_from is None and documents.reads == MAX_CHECKED == 5
    assert result.reuse is not None and result.reuse.candidates == 7
    assert result.reuse.note.count("gone.pdf was deleted") == 5
    assert result.reuse.note.endswith("2 older not checked")
