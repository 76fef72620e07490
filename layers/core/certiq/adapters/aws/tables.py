"""The DynamoDB tables' key schemas and secondary indexes, as data.

The adapters, the tests (which create the tables under moto) and the SAM template (checked by
tests/infra) all read the same shape from here. Every key attribute is a string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import (
        AttributeDefinitionTypeDef,
        CreateTableInputTypeDef,
        GlobalSecondaryIndexTypeDef,
        KeySchemaElementTypeDef,
    )

KeyType = Literal["HASH", "RANGE"]
Keys = list[tuple[str, KeyType]]

TABLE_KEYS: Final[dict[str, Keys]] = {
    "documents": [("tenant", "HASH"), ("doc_id", "RANGE")],
    "questions": [("question_id", "HASH")],
    "certificates": [("certificate_id", "HASH")],
    # Powertools idempotency records of the ingest function (certiq.adapters.aws.idempotency).
    "idempotency": [("id", "HASH")],
    # Verified answers a later question may reuse (certiq.adapters.aws.verified_answers):
    # scope "<tenant>#<collection>", answer_key "<received_at>#<question_id>" (newest last).
    "answers": [("scope", "HASH"), ("answer_key", "RANGE")],
}

# A conversation's questions, oldest first. Sparse: only questions with a conversation_id carry
# conversation_key ("<tenant>#<conversation_id>"), so other questions cost the index nothing.
CONVERSATION_INDEX: Final = "by-conversation"

# A scope's verified answers with the same identifying terms ("<scope>#<terms_key>"), newest last.
ANSWERS_BY_TERMS_INDEX: Final = "by-terms"

# The certificates citing a document, oldest first. Sparse: only the citation items of the
# certificates table (one per certificate and cited document: adapters.aws.certificate_citations)
# carry citation_key ("<tenant>#<doc_id>"); certificates and re-checks cost the index nothing.
CITATION_INDEX: Final = "by-document"

TABLE_INDEXES: Final[dict[str, dict[str, Keys]]] = {
    "certificates": {CITATION_INDEX: [("citation_key", "HASH"), ("created_at", "RANGE")]},
    "questions": {CONVERSATION_INDEX: [("conversation_key", "HASH"), ("created_at", "RANGE")]},
    "answers": {ANSWERS_BY_TERMS_INDEX: [("terms_scope", "HASH"), ("answer_key", "RANGE")]},
}


def key_schema(table: str) -> list[KeySchemaElementTypeDef]:
    """KeySchema for CreateTable / AWS::DynamoDB::Table."""
    return _schema(TABLE_KEYS[table])


def attribute_definitions(table: str) -> list[AttributeDefinitionTypeDef]:
    """AttributeDefinitions for CreateTable / AWS::DynamoDB::Table: every key and index key."""
    names = [name for name, _ in TABLE_KEYS[table]]
    for keys in TABLE_INDEXES.get(table, {}).values():
        names.extend(name for name, _ in keys if name not in names)
    return [{"AttributeName": name, "AttributeType": "S"} for name in names]


def global_secondary_indexes(table: str) -> list[GlobalSecondaryIndexTypeDef]:
    """GlobalSecondaryIndexes for CreateTable / AWS::DynamoDB::Table (all attributes projected)."""
    return [
        {"IndexName": name, "KeySchema": _schema(keys), "Projection": {"ProjectionType": "ALL"}}
        for name, keys in TABLE_INDEXES.get(table, {}).items()
    ]


def create_table_args(table: str, table_name: str) -> CreateTableInputTypeDef:
    """The whole CreateTable request of a logical table, on-demand, as the template has it."""
    args: CreateTableInputTypeDef = {
        "TableName": table_name,
        "KeySchema": key_schema(table),
        "AttributeDefinitions": attribute_definitions(table),
        "BillingMode": "PAY_PER_REQUEST",
    }
    indexes = global_secondary_indexes(table)
    if indexes:
        args["GlobalSecondaryIndexes"] = indexes
    return args


def _schema(keys: Keys) -> list[KeySchemaElementTypeDef]:
    return [{"AttributeName": name, "KeyType": kind} for name, kind in keys]
