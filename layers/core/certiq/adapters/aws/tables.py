"""The DynamoDB tables' key schemas, as data.

The adapters, the contract tests (which create the tables under moto) and the SAM template
(checked by tests/infra) all read the same shape from here. Every key attribute is a string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import AttributeDefinitionTypeDef, KeySchemaElementTypeDef

KeyType = Literal["HASH", "RANGE"]

TABLE_KEYS: Final[dict[str, list[tuple[str, KeyType]]]] = {
    "documents": [("tenant", "HASH"), ("doc_id", "RANGE")],
    "questions": [("question_id", "HASH")],
    "certificates": [("certificate_id", "HASH")],
    # Powertools idempotency records of the ingest function (certiq.adapters.aws.idempotency).
    "idempotency": [("id", "HASH")],
}


def key_schema(table: str) -> list[KeySchemaElementTypeDef]:
    """KeySchema for CreateTable / AWS::DynamoDB::Table."""
    return [{"AttributeName": name, "KeyType": kind} for name, kind in TABLE_KEYS[table]]


def attribute_definitions(table: str) -> list[AttributeDefinitionTypeDef]:
    """AttributeDefinitions for CreateTable / AWS::DynamoDB::Table (key attributes only)."""
    return [{"AttributeName": name, "AttributeType": "S"} for name, _ in TABLE_KEYS[table]]
