"""Verified answers a later question may reuse, in DynamoDB (logical table "answers").

Items: ``scope`` "<tenant>#<collection>" (HASH), ``answer_key`` "<received_at>#<question_id>"
(RANGE, so a Query in descending order gives the newest first), ``terms_scope``
"<scope>#<terms_key>" for the ``by-terms`` index, the record's JSON in ``body`` and its embedding
as float32 little-endian bytes in ``vector``.

DynamoDB has no similarity search. ``candidates`` is two bounded Queries, the scope's ``limit``
newest answers and up to ``limit`` with the same identifying terms (whatever their age), and the
caller compares them in memory: an answer to a reworded question older than the newest
``limit`` of its scope is not found.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import numpy as np

from certiq.adapters.aws._errors import transient_errors
from certiq.adapters.aws.tables import ANSWERS_BY_TERMS_INDEX
from certiq.models import VerifiedAnswer

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef, QueryInputTypeDef

    Item = dict[str, AttributeValueTypeDef]

VECTOR_DTYPE = np.dtype("<f4")


def _scope(tenant: str, collection: str | None) -> str:
    return f"{tenant}#{collection or ''}"


def _age_key(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


class DynamoVerifiedAnswerStore:
    """Implements certiq.ports.VerifiedAnswerStore; table shape: tables.TABLE_KEYS["answers"]."""

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._ddb = client
        self.table_name = table_name

    def put(self, answer: VerifiedAnswer) -> None:
        scope = _scope(answer.tenant, answer.collection)
        item: Item = {
            "scope": {"S": scope},
            "answer_key": {"S": f"{_age_key(answer.created_at)}#{answer.question_id}"},
            "terms_scope": {"S": f"{scope}#{answer.terms_key}"},
            "question_id": {"S": answer.question_id},
            "body": {"S": answer.model_dump_json(exclude={"embedding"})},
        }
        if answer.embedding is not None:
            vector = np.asarray(answer.embedding, dtype=VECTOR_DTYPE).tobytes()
            item["vector"] = {"B": vector}
        # The key derives from the question: a retried Persist certificate rewrites the same item.
        with transient_errors("DynamoDB PutItem"):
            self._ddb.put_item(TableName=self.table_name, Item=item)

    def candidates(
        self, tenant: str, collection: str | None, terms_key: str, limit: int
    ) -> list[VerifiedAnswer]:
        scope = _scope(tenant, collection)
        same_terms = self._newest(
            {
                "TableName": self.table_name,
                "IndexName": ANSWERS_BY_TERMS_INDEX,
                "KeyConditionExpression": "terms_scope = :key",
                "ExpressionAttributeValues": {":key": {"S": f"{scope}#{terms_key}"}},
                "ScanIndexForward": False,
            },
            limit,
        )
        newest = self._newest(
            {
                "TableName": self.table_name,
                "KeyConditionExpression": "#scope = :key",
                "ExpressionAttributeNames": {"#scope": "scope"},
                "ExpressionAttributeValues": {":key": {"S": scope}},
                "ScanIndexForward": False,
                # An answer sealed a moment ago is seen (the index above may lag behind it).
                "ConsistentRead": True,
            },
            limit,
        )
        items = {key: item for key, item in [*same_terms, *newest]}
        return [_answer(items[key]) for key in sorted(items, reverse=True)]

    def _newest(self, query: QueryInputTypeDef, limit: int) -> list[tuple[str, Item]]:
        """Up to ``limit`` items of the query, following pages (1 MB each) until there are."""
        found: list[tuple[str, Item]] = []
        while len(found) < limit:
            query["Limit"] = limit - len(found)
            with transient_errors("DynamoDB Query"):
                page = self._ddb.query(**query)
            for item in page.get("Items", []):
                found.append((item["answer_key"]["S"], dict(item)))
            last = page.get("LastEvaluatedKey")
            if not last:
                break
            query["ExclusiveStartKey"] = last
        return found[:limit]


def _answer(item: Item) -> VerifiedAnswer:
    answer = VerifiedAnswer.model_validate_json(item["body"]["S"])
    vector = item.get("vector")
    if vector is not None and "B" in vector:
        answer.embedding = np.frombuffer(vector["B"], dtype=VECTOR_DTYPE).astype(float).tolist()
    return answer
