"""VerifiedAnswerStore contract, run on SQLite and on DynamoDB (moto)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from certiq.adapters.aws.verified_answers import DynamoVerifiedAnswerStore
from certiq.bootstrap import build_deps
from certiq.config import AwsSettings, OpenSearchSettings, ReuseSettings, Settings
from certiq.lazy import built
from certiq.models import CertifiedDocument, VerifiedAnswer
from certiq.ports import VerifiedAnswerStore
from tests.contract.conftest import Aws
from tests.fakes import EPOCH

TENANT = "tenant-a"


def answer(
    question_id: str,
    *,
    minutes: int = 0,
    terms_key: str = "terms-1",
    tenant: str = TENANT,
    collection: str | None = None,
    embedding: list[float] | None = None,
) -> VerifiedAnswer:
    return VerifiedAnswer(
        tenant=tenant,
        question_id=question_id,
        certificate_id=f"cert-{question_id}",
        question=f"How long are backups kept? ({question_id})",
        terms_key=terms_key,
        collection=collection,
        embedder=None if embedding is None else "test-embedder",
        embedding=embedding,
        documents=[
            CertifiedDocument(doc_id="d1", file_name="policy.pdf", sha256="a" * 64, version="v1")
        ],
        created_at=EPOCH + timedelta(minutes=minutes),
    )


def ids(answers: list[VerifiedAnswer]) -> list[str]:
    return [a.question_id for a in answers]


def test_a_stored_answer_comes_back_whole(verified_answer_store: VerifiedAnswerStore) -> None:
    # GIVEN an answer with an embedding and one without
    with_vector = answer("q1", embedding=[0.6, 0.8, 0.0, 0.0])
    verified_answer_store.put(with_vector)
    verified_answer_store.put(answer("q2", minutes=1))
    # WHEN the candidates are read
    found = {
        a.question_id: a for a in verified_answer_store.candidates(TENANT, None, "terms-1", 10)
    }
    # THEN each comes back as stored (the vector as float32)
    assert set(found) == {"q1", "q2"}
    assert found["q1"].model_dump(exclude={"embedding"}) == with_vector.model_dump(
        exclude={"embedding"}
    )
    assert found["q1"].embedding == pytest.approx([0.6, 0.8, 0.0, 0.0], abs=1e-6)
    assert found["q2"].embedding is None and found["q2"].embedder is None


def test_candidates_are_newest_first_and_bounded(
    verified_answer_store: VerifiedAnswerStore,
) -> None:
    # GIVEN five answers with other terms, asked a minute apart
    for minute in range(5):
        verified_answer_store.put(answer(f"q{minute}", minutes=minute, terms_key=f"other-{minute}"))
    # WHEN at most three candidates are asked for
    found = verified_answer_store.candidates(TENANT, None, "terms-none", 3)
    # THEN the three newest come back, newest first
    assert ids(found) == ["q4", "q3", "q2"]


def test_same_terms_answers_are_found_whatever_their_age(
    verified_answer_store: VerifiedAnswerStore,
) -> None:
    # GIVEN an old answer with the asked terms, then many newer ones with other terms
    verified_answer_store.put(answer("old", minutes=0, terms_key="asked"))
    for minute in range(1, 6):
        verified_answer_store.put(answer(f"new{minute}", minutes=minute, terms_key="other"))
    # WHEN two candidates are asked for, with the old answer's terms key
    found = verified_answer_store.candidates(TENANT, None, "asked", 2)
    # THEN the two newest come back and, beyond that bound, the same-terms one
    assert ids(found) == ["new5", "new4", "old"]


def test_candidates_stay_within_tenant_and_collection(
    verified_answer_store: VerifiedAnswerStore,
) -> None:
    # GIVEN answers of another tenant and of a collection, with the same terms
    verified_answer_store.put(answer("mine", minutes=0))
    verified_answer_store.put(answer("theirs", minutes=1, tenant="tenant-b"))
    verified_answer_store.put(answer("hr", minutes=2, collection="hr"))
    # THEN each scope sees only its own
    assert ids(verified_answer_store.candidates(TENANT, None, "terms-1", 10)) == ["mine"]
    assert ids(verified_answer_store.candidates("tenant-b", None, "terms-1", 10)) == ["theirs"]
    assert ids(verified_answer_store.candidates(TENANT, "hr", "terms-1", 10)) == ["hr"]
    assert verified_answer_store.candidates("tenant-c", None, "terms-1", 10) == []


def test_putting_the_same_question_again_replaces_it(
    verified_answer_store: VerifiedAnswerStore,
) -> None:
    # GIVEN an answer stored twice (a retried Persist certificate), the second with a vector
    verified_answer_store.put(answer("q1"))
    verified_answer_store.put(answer("q1", embedding=[1.0, 0.0]))
    # THEN it is there once, as last written
    (found,) = verified_answer_store.candidates(TENANT, None, "terms-1", 10)
    assert found.embedding == pytest.approx([1.0, 0.0])


def test_runtime_aws_wires_the_answers_table_when_named(aws: Aws, tmp_path: Path) -> None:
    # GIVEN the stack's settings, with and without the answers table
    named = AwsSettings(
        bucket=aws.bucket,
        documents_table=aws.tables["documents"],
        questions_table=aws.tables["questions"],
        certificates_table=aws.tables["certificates"],
        kms_key_id=aws.signing_key(),
        answers_table=aws.tables["answers"],
    )
    search = OpenSearchSettings(endpoint="https://search.example.com")
    settings = Settings(home=tmp_path, runtime="aws", aws=named, opensearch=search)
    # THEN the DynamoDB store reads and writes that table
    answers = build_deps(settings).answers
    assert isinstance(built(answers), DynamoVerifiedAnswerStore)
    assert answers.table_name == aws.tables["answers"]
    # AND without it (or with reuse off) nothing is reused
    unnamed = settings.model_copy(update={"aws": named.model_copy(update={"answers_table": ""})})
    assert build_deps(unnamed).answers is None
    off = settings.model_copy(update={"reuse": ReuseSettings(enabled=False)})
    assert build_deps(off).answers is None


class PagedDynamoDB:
    """A DynamoDB client whose Query returns one item per page, as a 1 MB page of big items."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.items = items
        self.queries: list[dict[str, Any]] = []

    def query(self, **request: Any) -> dict[str, Any]:
        self.queries.append(dict(request))
        start = int(request.get("ExclusiveStartKey", {}).get("at", {"N": "0"})["N"])
        page: dict[str, Any] = {"Items": self.items[start : start + 1]}
        if start + 1 < len(self.items):
            page["LastEvaluatedKey"] = {"at": {"N": str(start + 1)}}
        return page


def test_dynamodb_follows_pages_until_the_bound_and_no_further() -> None:
    # GIVEN a table whose Query pages hold one item each
    items = []
    for minute in range(5):
        stored = answer(f"q{minute}", minutes=minute)
        items.append(
            {
                "answer_key": {"S": f"{minute:02d}#{stored.question_id}"},
                "body": {"S": stored.model_dump_json(exclude={"embedding"})},
            }
        )
    client = PagedDynamoDB(items[::-1])
    store = DynamoVerifiedAnswerStore(client, "answers")  # type: ignore[arg-type]
    # WHEN three candidates are asked for
    found = store.candidates(TENANT, None, "terms-1", 3)
    # THEN pages were followed to collect three, newest first, and no page past the bound read
    assert ids(found) == ["q4", "q3", "q2"]
    assert len(client.queries) == 6  # three pages for the index query, three for the table's
    assert [q["Limit"] for q in client.queries[:3]] == [3, 2, 1]
