"""Contract of certiq.ports.QuestionStore, run on SQLite and DynamoDB."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from certiq.adapters.aws.dynamodb_stores import QUESTION_TTL_ATTRIBUTE, DynamoQuestionStore
from certiq.config import AwsSettings
from certiq.errors import AlreadyExists, NotFound
from certiq.models import QuestionStatus
from certiq.ports import QuestionStore
from tests.contract.conftest import RETENTION_DAYS, Aws
from tests.fakes import EPOCH, FixedClock, make_question, make_response


def test_create_then_get_returns_an_equal_record(question_store: QuestionStore) -> None:
    # GIVEN a created question
    record = make_question("q-1")
    question_store.create(record)

    # WHEN it is read back / THEN every field round-trips
    assert question_store.get("q-1") == record


def test_get_of_an_unknown_question_is_none(question_store: QuestionStore) -> None:
    assert question_store.get("q-unknown") is None


def test_create_twice_raises_already_exists_and_keeps_the_first(
    question_store: QuestionStore,
) -> None:
    # GIVEN a question from tenant A
    question_store.create(make_question("q-1", tenant="tenant-a"))

    # WHEN another record claims the same id
    with pytest.raises(AlreadyExists):
        question_store.create(make_question("q-1", tenant="tenant-b"))

    # THEN the first record is untouched
    got = question_store.get("q-1")
    assert got is not None and got.tenant == "tenant-a"


def test_set_status_records_status_reason_and_time(
    question_store: QuestionStore, clock: FixedClock
) -> None:
    # GIVEN a received question
    question_store.create(make_question("q-1"))
    later = clock.advance(30)

    # WHEN a step moves it on, then fails it with a reason
    question_store.set_status("q-1", QuestionStatus.RETRIEVING)
    question_store.set_status("q-1", QuestionStatus.FAILED, reason="index unavailable")

    # THEN the record carries the last status, its reason and the clock's time
    got = question_store.get("q-1")
    assert got is not None
    assert got.status == QuestionStatus.FAILED
    assert got.reason == "index unavailable"
    assert got.updated_at == later
    assert got.created_at == EPOCH


def test_a_new_status_without_reason_clears_the_old_reason(question_store: QuestionStore) -> None:
    # GIVEN a question whose last status came with a reason
    question_store.create(make_question("q-1"))
    question_store.set_status("q-1", QuestionStatus.NEEDS_CLARIFICATION, reason="too short")

    # WHEN a later status comes without one
    question_store.set_status("q-1", QuestionStatus.RETRIEVING)

    # THEN no stale reason remains
    got = question_store.get("q-1")
    assert got is not None and (got.status, got.reason) == (QuestionStatus.RETRIEVING, None)


def test_set_status_of_an_unknown_question_raises_not_found(
    question_store: QuestionStore,
) -> None:
    # GIVEN an empty store / WHEN a status is set / THEN NotFound, and nothing is created
    with pytest.raises(NotFound):
        question_store.set_status("q-ghost", QuestionStatus.RETRIEVING)
    assert question_store.get("q-ghost") is None


def test_complete_stores_the_response_and_its_status(
    question_store: QuestionStore, clock: FixedClock
) -> None:
    # GIVEN a question being verified
    question_store.create(make_question("q-1"))
    question_store.set_status("q-1", QuestionStatus.VERIFYING)
    done_at = clock.advance(2)

    # WHEN it completes with a response
    response = make_response("q-1", status=QuestionStatus.COMPLETE)
    question_store.complete("q-1", response)

    # THEN the record holds the response, its status and the completion time
    got = question_store.get("q-1")
    assert got is not None
    assert got.response == response
    assert got.status == QuestionStatus.COMPLETE
    assert got.updated_at == done_at


def test_complete_takes_the_status_of_the_response(question_store: QuestionStore) -> None:
    # GIVEN a question / WHEN it completes as rejected / THEN its status is REJECTED
    question_store.create(make_question("q-1"))
    question_store.complete("q-1", make_response("q-1", status=QuestionStatus.REJECTED))
    got = question_store.get("q-1")
    assert got is not None and got.status == QuestionStatus.REJECTED


def test_complete_of_an_unknown_question_raises_not_found(question_store: QuestionStore) -> None:
    with pytest.raises(NotFound):
        question_store.complete("q-ghost", make_response("q-ghost"))
    assert question_store.get("q-ghost") is None


def test_conversation_lists_its_questions_oldest_first_within_the_tenant(
    question_store: QuestionStore,
) -> None:
    # GIVEN two questions of conversation c-1 created out of order, one of c-2, one without a
    # conversation, and one of another tenant's c-1
    later = EPOCH + timedelta(minutes=5)
    question_store.create(make_question("q-late", conversation_id="c-1", at=later))
    question_store.create(make_question("q-early", conversation_id="c-1", at=EPOCH))
    question_store.create(make_question("q-other", conversation_id="c-2", at=EPOCH))
    question_store.create(make_question("q-alone", conversation_id=None, at=EPOCH))
    question_store.create(
        make_question("q-foreign", tenant="tenant-b", conversation_id="c-1", at=EPOCH)
    )
    question_store.complete("q-early", make_response("q-early"))

    # WHEN conversation c-1 of tenant-a is listed
    records = question_store.conversation("tenant-a", "c-1")

    # THEN only its two questions come back, oldest first, with their current state
    assert [record.question_id for record in records] == ["q-early", "q-late"]
    assert records[0].response is not None and records[0].status == QuestionStatus.COMPLETE
    assert question_store.conversation("tenant-a", "c-unknown") == []


# --- DynamoDB only: the questions table's TTL ---------------------------------------------------


def stored_item(aws: Aws, question_id: str) -> dict[str, Any]:
    item = aws.dynamodb.get_item(
        TableName=aws.tables["questions"], Key={"question_id": {"S": question_id}}
    )["Item"]
    return dict(item)


def test_dynamodb_question_expires_retention_days_after_it_was_asked(
    aws: Aws, clock: FixedClock
) -> None:
    # GIVEN the DynamoDB store keeping questions RETENTION_DAYS days
    store = DynamoQuestionStore(
        aws.dynamodb, aws.tables["questions"], clock=clock, retention_days=RETENTION_DAYS
    )

    # WHEN a question asked at EPOCH is created, then moved on and completed later
    store.create(make_question("q-1", at=EPOCH))
    clock.advance(3600)
    store.set_status("q-1", QuestionStatus.RETRIEVING)
    store.complete("q-1", make_response("q-1"))

    # THEN the item's TTL attribute is a Number: epoch seconds RETENTION_DAYS after it was asked
    expected = int((EPOCH + timedelta(days=RETENTION_DAYS)).timestamp())
    assert stored_item(aws, "q-1")[QUESTION_TTL_ATTRIBUTE] == {"N": str(expected)}
    # AND the record read back is the question, not the bookkeeping
    got = store.get("q-1")
    assert got is not None and got.created_at == EPOCH


def test_dynamodb_question_without_retention_never_expires(aws: Aws, clock: FixedClock) -> None:
    # GIVEN retention 0 (keep forever) WHEN a question is created THEN it carries no TTL
    store = DynamoQuestionStore(aws.dynamodb, aws.tables["questions"], clock=clock)
    store.create(make_question("q-1"))
    assert QUESTION_TTL_ATTRIBUTE not in stored_item(aws, "q-1")
    # AND a negative retention is refused
    with pytest.raises(ValueError, match="retention_days"):
        DynamoQuestionStore(aws.dynamodb, aws.tables["questions"], retention_days=-1)


def test_the_settings_default_keeps_questions_ninety_days() -> None:
    # GIVEN no setting WHEN read THEN questions expire after 90 days; 0 is allowed (keep)
    assert AwsSettings().question_retention_days == 90
    assert AwsSettings(question_retention_days=0).question_retention_days == 0
