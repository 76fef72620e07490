"""The Powertools idempotency store on DynamoDB: the ingest function's exactly-once record.

The table is the stack's IdempotencyTable: partition key ``id`` (string), TTL on ``expiration``,
Powertools' default attribute names, so nothing here needs configuring beyond the table name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

from certiq.adapters.aws.tables import TABLE_KEYS

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

KEY_ATTRIBUTE = TABLE_KEYS["idempotency"][0][0]  # "id", as in template.yaml
EXPIRY_ATTRIBUTE = "expiration"  # ... and its TimeToLiveSpecification


def dynamodb_idempotency_store(table_name: str, client: DynamoDBClient) -> DynamoDBPersistenceLayer:
    return DynamoDBPersistenceLayer(
        table_name=table_name,
        key_attr=KEY_ATTRIBUTE,
        expiry_attr=EXPIRY_ATTRIBUTE,
        boto3_client=client,
    )
