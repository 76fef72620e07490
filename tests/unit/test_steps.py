"""Each step of certiq.steps, called directly over (state, deps) with the real local adapters."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.models import (
    AnswerOutcome,
    QuestionState,
    QuestionStatus,
    RenderState,
    StepError,
    TableCell,
)
from certiq.questions import receive
from certiq.steps import STEPS
from certiq.steps.persist import NO_ANSWER, NO_SENTENCE_BUT_TABLE, PART_NOT_STATED
from certiq.steps.response import build_response
from certiq.trust.certificate import check
from tests.fakes import EPOCH, FixedClock, make_chunk

TENANT = "default"  # Settings().tenant: the tenant receive() gives a question
BACKUPS = "Backups of customer data are kept for 35 days"
INVOICES = "Backups of invoices are kept for seven years"
POLICY_TEXT = f"{BACKUPS}. The office is closed on public holidays. {INVOICES}."
QUESTION = "How long are backups kept?"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def deps(tmp_path: Path, clock: FixedClock) -> Deps:
    return dataclasses.replace(build_deps(Settings(home=tmp_path)), clock=clock)


@pytest.fixture
def indexed(deps: Deps) -> Deps:
    """deps whose index holds one policy chunk of the question's tenant."""
    deps.index.index([make_chunk(POLICY_TEXT, doc_id="policy", tenant=TENANT)])
    return deps


def ask(deps: Deps, question: str = QUESTION) -> QuestionState:
    """A question recorded as RECEIVED, as the API and the CLI record it."""
    return receive(question, deps)


def run(state: QuestionState, deps: Deps, *names: str) -> QuestionState:
    for name in names:
        state = STEPS[name](state, deps)
    return state


def stored_status(deps: Deps, state: QuestionState) -> QuestionStatus:
    record = deps.questions.get(state.question_id)
    assert record is not None
    return record.status


# --- validate --------------------------------------------------------------------------------


def test_validate_accepts_a_question_and_records_moderating(deps: Deps) -> None:
    # GIVEN a received question of several words
    state = ask(deps)

    # WHEN it is validated
    result = STEPS["validate"](state, deps)

    # THEN it passes, the store shows MODERATING_QUESTION and no final response is stored yet
    assert result.validation is not None and result.validation.ok
    assert result.status is QuestionStatus.MODERATING_QUESTION
    record = deps.questions.get(state.question_id)
    assert record is not None
    assert record.status is QuestionStatus.MODERATING_QUESTION
    assert record.response is None


def test_validate_asks_to_clarify_a_too_short_question_and_stores_the_response(
    deps: Deps,
) -> None:
    # GIVEN a one-word question
    state = ask(deps, "Backups?")

    # WHEN it is validated
    result = STEPS["validate"](state, deps)

    # THEN the state ends NEEDS_CLARIFICATION and the store holds that response with the hint
    assert result.validation is not None and not result.validation.ok
    assert result.status is QuestionStatus.NEEDS_CLARIFICATION
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.NEEDS_CLARIFICATION
    assert record.response.status is QuestionStatus.NEEDS_CLARIFICATION
    assert record.response.message == result.validation.message
    assert record.response.message and "say a little more" in record.response.message
    assert record.response.answer == "" and record.response.claims == []


def test_validate_rejects_an_empty_question(deps: Deps) -> None:
    # GIVEN a question of blanks
    state = ask(deps, "   ")

    # WHEN it is validated
    result = STEPS["validate"](state, deps)

    # THEN it is REJECTED in the state and in the store, with the reason as the message
    assert result.status is QuestionStatus.REJECTED
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.REJECTED
    assert record.response.message == "The question is empty."


# --- redact ----------------------------------------------------------------------------------


def test_redact_replaces_email_and_phone_and_counts_them(deps: Deps) -> None:
    # GIVEN a question holding an email address (twice) and a phone number
    state = ask(
        deps,
        "Is jane.doe@example.com on the backup list? Call +1 415-555-0100 "
        "or write to jane.doe@example.com.",
    )

    # WHEN it is redacted
    result = STEPS["redact"](state, deps)

    # THEN neither value is left in the question, and the redaction counts distinct values by type
    assert "jane.doe@example.com" not in result.question
    assert "415-555-0100" not in result.question
    assert result.question.count("[EMAIL_1]") == 2
    assert "[PHONE_1]" in result.question
    assert result.redaction is not None
    assert result.redaction.count == 2
    assert result.redaction.types == ["EMAIL", "PHONE"]


def test_redact_leaves_a_question_without_personal_data_alone(deps: Deps) -> None:
    # GIVEN a question with a number that is not a phone number
    state = ask(deps, "Are backups kept for 35 days in 2024?")

    # WHEN it is redacted
    result = STEPS["redact"](state, deps)

    # THEN the text is unchanged and nothing is counted
    assert result.question == state.question
    assert result.redaction is not None
    assert result.redaction.count == 0 and result.redaction.types == []


# --- translate -------------------------------------------------------------------------------


def test_translate_detects_french_and_says_no_translation_was_made(deps: Deps) -> None:
    # GIVEN a question in French, with English as the index language
    state = ask(
        deps, "Comment les sauvegardes des données sont-elles conservées pour les clients ?"
    )

    # WHEN its language is detected
    result = STEPS["translate"](state, deps)

    # THEN the state says French, untranslated, with a note that names both languages
    assert result.language == "fr"
    assert result.translation is not None
    assert result.translation.detected == "fr"
    assert result.translation.target == "en"
    assert result.translation.translated is False
    assert result.translation.note is not None
    assert "'fr'" in result.translation.note and "'en'" in result.translation.note


def test_translate_leaves_an_english_question_without_a_note(deps: Deps) -> None:
    # GIVEN a question in the index language
    state = ask(deps, "How long are backups of customer data kept?")

    # WHEN its language is detected
    result = STEPS["translate"](state, deps)

    # THEN it is English and there is nothing to say about it
    assert result.language == "en"
    assert result.translation is not None
    assert result.translation.detected == "en"
    assert result.translation.note is None


# --- retrieve --------------------------------------------------------------------------------


def test_retrieve_records_retrieving_and_quotes_spans_exactly(indexed: Deps) -> None:
    # GIVEN an index holding the policy chunk
    chunk = make_chunk(POLICY_TEXT, doc_id="policy", tenant=TENANT)
    state = ask(indexed)

    # WHEN evidence is retrieved
    result = STEPS["retrieve"](state, indexed)

    # THEN the store shows RETRIEVING, and every span is the chunk's text at its offsets
    assert stored_status(indexed, state) is QuestionStatus.RETRIEVING
    assert result.status is QuestionStatus.RETRIEVING
    assert result.chunks_searched == 1
    assert result.evidence, "the backup sentences match the question"
    for span in result.evidence:
        assert span.chunk_id == chunk.chunk_id
        assert span.text == chunk.text[span.start : span.end]
        assert span.boxes and span.page == 1
    assert BACKUPS in {span.text for span in result.evidence}


def test_retrieve_never_returns_another_tenants_chunk(indexed: Deps) -> None:
    # GIVEN another tenant's chunk that matches the question better than ours
    indexed.index.index(
        [
            make_chunk(
                "How long are backups kept? Backups are kept for as long as you like.",
                doc_id="rival",
                tenant="other-tenant",
            )
        ]
    )
    state = ask(indexed)

    # WHEN the default tenant's question retrieves evidence
    result = STEPS["retrieve"](state, indexed)

    # THEN only the default tenant's document is searched and quoted
    assert result.chunks_searched == 1
    assert result.evidence
    assert {span.doc_id for span in result.evidence} == {"policy"}


# --- answer ----------------------------------------------------------------------------------


def test_answer_drafts_claims_citing_the_evidence_as_numbered_citations(indexed: Deps) -> None:
    # GIVEN retrieved evidence
    state = run(ask(indexed), indexed, "retrieve")

    # WHEN the answer is drafted
    result = STEPS["answer"](state, indexed)

    # THEN the store shows GENERATING_ANSWER and each claim cites C1.. in the answer text
    assert stored_status(indexed, state) is QuestionStatus.GENERATING_ANSWER
    assert result.answerer == "extractive"
    assert result.claims
    assert [c.id for c in result.citations] == [
        f"C{i}" for i in range(1, len(result.citations) + 1)
    ]
    spans = {(span.chunk_id, span.start, span.end): span.text for span in state.evidence}
    for citation in result.citations:
        assert spans[(citation.chunk_id, citation.start, citation.end)] == citation.quote
    citation_ids = {citation.id for citation in result.citations}
    for claim in result.claims:
        assert claim.citation_ids and set(claim.citation_ids) <= citation_ids
        for citation_id in claim.citation_ids:
            assert f"{claim.text} [{citation_id}]" in result.answer
    assert BACKUPS in result.answer


def test_answer_without_evidence_says_nothing(deps: Deps) -> None:
    # GIVEN an empty index, so retrieval found nothing
    state = run(ask(deps), deps, "retrieve")
    assert state.evidence == []

    # WHEN the answer is drafted
    result = STEPS["answer"](state, deps)

    # THEN there is no claim, no citation and no answer
    assert result.claims == [] and result.citations == [] and result.answer == ""


# --- verify ----------------------------------------------------------------------------------


def test_verify_invalidates_a_tampered_quote_and_keeps_a_faithful_one_verified(
    indexed: Deps,
) -> None:
    # GIVEN a draft with two claims, the quote of the second one's citation changed after drafting
    state = run(ask(indexed), indexed, "retrieve", "answer")
    assert len(state.citations) == 2, "both backup sentences answer the question"
    good, bad = state.citations
    tampered = bad.model_copy(update={"quote": "Backups of invoices are kept for ninety years"})
    state = state.model_copy(update={"citations": [good, tampered]})

    # WHEN the claims are verified
    result = STEPS["verify"](state, indexed)

    # THEN the tampered citation is invalid and its claim not VERIFIED; the faithful one stands
    assert stored_status(indexed, state) is QuestionStatus.VERIFYING
    by_id = {citation.id: citation for citation in result.citations}
    assert by_id[good.id].valid is True
    assert by_id[bad.id].valid is False
    decisions = {claim.citation_ids[0]: claim.decision for claim in result.claims}
    good_decision, bad_decision = decisions[good.id], decisions[bad.id]
    assert good_decision is not None and bad_decision is not None
    assert good_decision.state is RenderState.VERIFIED
    assert bad_decision.state is not RenderState.VERIFIED
    assert bad.id not in bad_decision.evidence
    assert f"[{good.id}]" in result.answer


def test_verify_invalidates_a_citation_of_a_chunk_the_index_does_not_hold(indexed: Deps) -> None:
    # GIVEN a citation pointing at a chunk that is not in the index
    state = run(ask(indexed), indexed, "retrieve", "answer")
    first = state.citations[0]
    state = state.model_copy(
        update={"citations": [first.model_copy(update={"chunk_id": "policy:99"})]}
    )

    # WHEN the claims are verified
    result = STEPS["verify"](state, indexed)

    # THEN the citation is invalid, however faithful its quote
    assert result.citations[0].valid is False


# --- persist ---------------------------------------------------------------------------------


def test_persist_stores_a_valid_certificate_and_the_complete_response(indexed: Deps) -> None:
    # GIVEN a verified answer
    state = run(ask(indexed), indexed, "retrieve", "answer", "verify")

    # WHEN it is persisted
    result = STEPS["persist"](state, indexed)

    # THEN a certificate that checks valid is stored, and the response names it
    assert result.status is QuestionStatus.COMPLETE
    assert result.certificate_id == f"cert-{state.question_id}"
    certificate = indexed.certificates.get(result.certificate_id)
    assert certificate is not None
    assert check(certificate, indexed.signer).valid
    assert certificate.answer == state.answer
    assert certificate.created_at == EPOCH
    assert [document.doc_id for document in certificate.documents] == ["policy"]
    record = indexed.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.COMPLETE
    assert record.response.status is QuestionStatus.COMPLETE
    assert record.response.certificate_id == result.certificate_id
    assert record.response.answer == state.answer
    assert record.response.message is None
    assert [source.doc_id for source in record.response.sources] == ["policy"]


def test_a_retried_persist_succeeds_and_keeps_the_first_certificate(
    indexed: Deps, clock: FixedClock
) -> None:
    # GIVEN a state already persisted once
    state = run(ask(indexed), indexed, "retrieve", "answer", "verify")
    STEPS["persist"](state, indexed)
    certificate_id = f"cert-{state.question_id}"
    first = indexed.certificates.get(certificate_id)
    assert first is not None

    # WHEN Step Functions retries Persist later (its new certificate would have another seal)
    clock.advance(60)
    result = STEPS["persist"](state, indexed)

    # THEN it succeeds and the stored certificate is still the first one
    assert result.status is QuestionStatus.COMPLETE
    stored = indexed.certificates.get(certificate_id)
    assert stored is not None
    assert stored.seal == first.seal
    assert stored.created_at == EPOCH
    assert check(stored, indexed.signer).valid


def test_persist_without_evidence_completes_with_the_no_answer_message(deps: Deps) -> None:
    # GIVEN a question nothing in the (empty) index answers
    state = run(ask(deps), deps, "retrieve", "answer", "verify")

    # WHEN it is persisted
    result = STEPS["persist"](state, deps)

    # THEN it is COMPLETE, with no answer and the message that says so
    assert result.status is QuestionStatus.COMPLETE
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.COMPLETE
    assert record.response.answer == ""
    assert record.response.message == NO_ANSWER
    assert record.response.outcome is AnswerOutcome.NOT_STATED
    assert record.response.related == []  # nothing was found to offer as reading either
    assert record.response.certificate_id is not None
    assert deps.certificates.get(record.response.certificate_id) is not None


def test_a_sentence_addressing_an_assistant_is_never_offered_as_related_reading(
    indexed: Deps,
) -> None:
    # GIVEN a question whose evidence holds a sentence flagged at ingestion, and no answer
    state = run(ask(indexed), indexed, "retrieve")
    assert len(state.evidence) >= 2
    flagged = state.evidence[0].model_copy(update={"addresses_assistant": True})
    state = state.model_copy(update={"evidence": [flagged, *state.evidence[1:]]})
    # WHEN the response is built for a question the documents do not answer
    response = build_response(
        state, QuestionStatus.COMPLETE, indexed.documents, indexed.settings.policy
    )
    # THEN the closest passages are offered, the flagged one not among them
    assert response.outcome is AnswerOutcome.NOT_STATED
    assert response.related
    assert flagged.text not in [passage.text for passage in response.related]


def test_related_reading_shares_a_word_with_the_question_or_its_meaning_and_may_be_a_table(
    indexed: Deps,
) -> None:
    # GIVEN evidence for a question the documents do not answer: a sentence sharing none of its
    # words, and a table read as one line that holds them
    state = run(ask(indexed), indexed, "retrieve")
    first = state.evidence[0]
    unrelated = first.model_copy(update={"text": "Proin eu metus.", "similarity": 0.05})
    row = "Backups 35 days Operations Logs 13 months Security Tickets 3 years Support"
    table = first.model_copy(update={"text": row, "similarity": 0.05})
    # and a sentence sharing none of its words, close to it in meaning
    close = "Archived client records are destroyed after five weeks."
    near = first.model_copy(update={"text": close, "similarity": 0.5})
    state = state.model_copy(update={"evidence": [unrelated, table, near]})
    # WHEN the response is built
    response = build_response(
        state, QuestionStatus.COMPLETE, indexed.documents, indexed.settings.policy
    )
    # THEN the table and the close sentence are offered as reading, the unrelated sentence not
    assert response.outcome is AnswerOutcome.NOT_STATED
    assert [passage.text for passage in response.related] == [table.text, close]


def test_a_table_row_holding_what_is_asked_is_offered_first(indexed: Deps) -> None:
    # GIVEN evidence for a question no sentence answers: a sentence about reviews, scored high,
    # then two table rows, the second the one for the system asked about
    first = run(ask(indexed), indexed, "retrieve").evidence[0]
    state = run(ask(indexed, "Who reviews access to the CRM?"), indexed, "retrieve")
    sentence = first.model_copy(
        update={"text": "Access to production systems is reviewed every year.", "score": 0.9}
    )
    other = first.model_copy(
        update={
            "text": "Review Every year in March",
            "cells": [TableCell(column="", text="Review"), TableCell(column="", text="Every year")],
            "score": 0.6,
        }
    )
    asked = first.model_copy(
        update={
            "text": "CRM Sales Operations Manager",
            "cells": [
                TableCell(column="System", text="CRM"),
                TableCell(column="Reviewer", text="Sales Operations Manager"),
            ],
            "score": 0.3,
        }
    )
    state = state.model_copy(update={"evidence": [sentence, other, asked]})
    # WHEN the response is built
    response = build_response(
        state, QuestionStatus.COMPLETE, indexed.documents, indexed.settings.policy
    )
    # THEN the row holding most of the question's words with its labels comes first, its cells
    # and boxes with it
    assert [passage.text for passage in response.related] == [asked.text, other.text, sentence.text]
    assert response.related[0].cells == asked.cells
    assert response.related[0].boxes == asked.boxes


def test_a_table_offered_as_reading_is_not_called_silent_on_the_answer(indexed: Deps) -> None:
    # GIVEN a question no sentence answers, whose closest passage is a table read as one line
    state = run(ask(indexed), indexed, "retrieve")
    row = "Backups 35 days 2 copies Logs 13 months 1 copy Tickets 3 years 1 copy Invoices 7 years"
    table = state.evidence[0].model_copy(update={"text": row})
    state = run(state.model_copy(update={"evidence": [table]}), indexed, "answer", "verify")
    assert state.answer == ""
    # WHEN it is persisted
    STEPS["persist"](state, indexed)
    # THEN the note does not say the documents are silent: the table may hold the answer
    record = indexed.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.response.outcome is AnswerOutcome.NOT_STATED
    assert record.response.message == NO_SENTENCE_BUT_TABLE
    assert [passage.text for passage in record.response.related] == [row]


def test_a_heading_is_never_offered_as_related_reading(indexed: Deps) -> None:
    # GIVEN a question whose closest evidence is a section heading, and no answer
    state = run(ask(indexed), indexed, "retrieve")
    heading = state.evidence[0].model_copy(update={"text": "2. Accounts and passwords"})
    state = state.model_copy(update={"evidence": [heading, *state.evidence[1:]]})
    # WHEN the response is built for a question the documents do not answer
    response = build_response(
        state, QuestionStatus.COMPLETE, indexed.documents, indexed.settings.policy
    )
    # THEN the passages offered are statements, the heading not among them
    assert response.related
    assert heading.text not in [passage.text for passage in response.related]


# --- record_failure --------------------------------------------------------------------------


def test_record_failure_stores_failed_with_the_error_as_reason(deps: Deps) -> None:
    # GIVEN a state that a Catch handed over with the error that ended it
    state = ask(deps).model_copy(
        update={"error": StepError(Error="RuntimeError", Cause="the index is down")}
    )

    # WHEN the failure is recorded
    result = STEPS["record_failure"](state, deps)

    # THEN the question is FAILED with the error as its reason and a response explaining it
    assert result.status is QuestionStatus.FAILED
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.FAILED
    assert record.reason == "RuntimeError: an internal error ended the question"
    assert record.response.status is QuestionStatus.FAILED
    assert record.response.message is not None and "RuntimeError" in record.response.message


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (
            StepError(
                Error="TransientError",
                Cause=json.dumps(
                    {
                        "errorMessage": "index at /var/task/data/x.db unreachable",
                        "errorType": "TransientError",
                        "stackTrace": ['  File "/var/task/app.py", line 4, in lambda_handler\n'],
                    }
                ),
            ),
            "TransientError: index at [path] unreachable",
        ),
        (StepError(Error="ValueError", Cause='{"errorMessage": "/etc/x"}'), None),
        (StepError(Error="States.Timeout", Cause=""), "the step took longer than its time limit"),
        (StepError(Error="Lambda.Unknown", Cause="Returned payload: ..."), "out of time"),
        (StepError(Error="InvalidRequest", Cause="mail a.b@example.com"), "[EMAIL_1]"),
    ],
)
def test_a_failure_reason_keeps_certiq_messages_and_drops_traces_and_paths(
    deps: Deps, error: StepError, reason: str | None
) -> None:
    # GIVEN the error a Catch handed over, as Lambda and Step Functions shape it
    state = ask(deps).model_copy(update={"error": error})
    # WHEN the failure is recorded
    STEPS["record_failure"](state, deps)
    # THEN the reason names the error, keeps a certiq message (paths masked, personal data
    # masked), and never carries a trace, a path or another library's message
    record = deps.questions.get(state.question_id)
    assert record is not None and record.reason is not None
    assert record.reason.startswith(error.Error)
    assert "File " not in record.reason and "/var/" not in record.reason
    if reason is None:
        assert record.reason == f"{error.Error}: an internal error ended the question"
    else:
        assert reason in record.reason


# --- every step ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STEPS))
def test_every_step_adds_its_own_timing_and_keeps_earlier_ones(deps: Deps, name: str) -> None:
    # GIVEN a received question that an earlier step already timed
    state = ask(deps).model_copy(
        update={
            "timings_ms": {"earlier": 1.5},
            "error": StepError(Error="RuntimeError") if name == "record_failure" else None,
        }
    )

    # WHEN the step runs
    result = STEPS[name](state, deps)

    # THEN its own timing is added next to the earlier one
    assert result.timings_ms["earlier"] == 1.5
    assert name in result.timings_ms
    assert result.timings_ms[name] >= 0


def test_a_part_of_the_question_the_documents_do_not_state_is_named(indexed: Deps) -> None:
    # GIVEN a question in two parts, one the policy answers and one it does not
    question = "How long are backups of customer data kept and which insurance covers them?"
    state = run(ask(indexed, question), indexed, "retrieve", "answer", "verify")

    # WHEN it is answered and persisted
    STEPS["persist"](state, indexed)

    # THEN the answered part is shown, and the note names the part the documents do not state
    record = indexed.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.response.outcome is AnswerOutcome.ANSWERED
    assert BACKUPS in record.response.answer
    assert record.response.message == PART_NOT_STATED + '"which insurance covers them?"'
