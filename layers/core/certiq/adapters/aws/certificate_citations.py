"""The certificates citing a document, in the certificates table (DynamoCertificateStore).

Each document a certificate cites has a small citation item beside it, keyed
"<certificate_id>#cites#<doc_id>", marked with CITED_BY (the certificate's id) and carrying
CITATION_KEY "<tenant>#<doc_id>", the key of the sparse tables.CITATION_INDEX that `citing`
queries: a document's change finds its certificates without scanning the table.

Certificates stored before that index existed have no citation items, so `citing` does not list
them (a change of a document they cite queues no re-check of them): backfill if that matters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.adapters.aws.tables import CITATION_INDEX
from certiq.errors import AlreadyExists, TransientError
from certiq.models import Certificate

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import (
        AttributeValueTypeDef,
        QueryInputTypeDef,
        TransactWriteItemTypeDef,
    )

    Item = dict[str, AttributeValueTypeDef]

CITED_BY: Final = "cited_by"
CITATION_KEY: Final = "citation_key"
# A transaction holds at most 100 writes: the certificate and the first 99 of its citations.
TRANSACTION_LIMIT: Final = 100
# Reasons a transaction is cancelled that a retry may get past.
TRANSIENT_CANCELLATIONS: Final = frozenset(
    {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"}
)


def citation_key(tenant: str, doc_id: str) -> str:
    return f"{tenant}#{doc_id}"


def citation_item(tenant: str, certificate_id: str, doc_id: str, created_at: str) -> Item:
    """The item recording that the certificate (sealed at created_at, an age key) cites doc_id."""
    return {
        "certificate_id": {"S": f"{certificate_id}#cites#{doc_id}"},
        CITED_BY: {"S": certificate_id},
        CITATION_KEY: {"S": citation_key(tenant, doc_id)},
        "tenant": {"S": tenant},
        "doc_id": {"S": doc_id},
        "created_at": {"S": created_at},
    }


def put_with_citations(
    client: DynamoDBClient,
    table_name: str,
    item: Item,
    tenant: str,
    certificate: Certificate,
) -> None:
    """Stores the certificate's item, if its id is free, with one citation item per document.

    The certificate and its first 99 citations are one transaction; raises AlreadyExists (and
    writes nothing) when the id is taken.
    """
    created_at = item["created_at"]["S"]
    cited = list(dict.fromkeys(document.doc_id for document in certificate.documents))
    citations = [citation_item(tenant, certificate.certificate_id, d, created_at) for d in cited]
    writes: list[TransactWriteItemTypeDef] = [
        {
            "Put": {
                "TableName": table_name,
                "Item": item,
                "ConditionExpression": "attribute_not_exists(certificate_id)",
            }
        }
    ]
    writes.extend(
        {"Put": {"TableName": table_name, "Item": c}} for c in citations[: TRANSACTION_LIMIT - 1]
    )
    with transient_errors("DynamoDB TransactWriteItems"):
        try:
            client.transact_write_items(TransactItems=writes)
        except ClientError as error:
            if error_code(error) != "TransactionCanceledException":
                raise
            codes = _cancellation_codes(error)
            if codes and codes[0] == "ConditionalCheckFailed":
                raise AlreadyExists(
                    f"certificate {certificate.certificate_id} already exists"
                ) from error
            if TRANSIENT_CANCELLATIONS.intersection(codes):
                raise TransientError(f"DynamoDB TransactWriteItems: {error}") from error
            raise
    # Beyond one transaction (a certificate citing 100 documents or more): the rest after it.
    for citation in citations[TRANSACTION_LIMIT - 1 :]:
        with transient_errors("DynamoDB PutItem"):
            client.put_item(TableName=table_name, Item=citation)


def citing(client: DynamoDBClient, table_name: str, tenant: str, doc_id: str) -> list[str]:
    """The ids of the tenant's certificates citing the document, oldest first (ties by id).

    A query of the sparse citation index. A GSI is eventually consistent: a certificate sealed a
    moment ago may not be listed yet.
    """
    query: QueryInputTypeDef = {
        "TableName": table_name,
        "IndexName": CITATION_INDEX,
        "KeyConditionExpression": f"{CITATION_KEY} = :key",
        "ExpressionAttributeValues": {":key": {"S": citation_key(tenant, doc_id)}},
    }
    found: set[tuple[str, str]] = set()
    while True:
        with transient_errors("DynamoDB Query"):
            page = client.query(**query)
        for item in page.get("Items", []):
            # The key joins tenant and document with "#": both are checked, not the key alone.
            if _string(item, "tenant") == tenant and _string(item, "doc_id") == doc_id:
                found.add((_string(item, "created_at") or "", _string(item, CITED_BY) or ""))
        last = page.get("LastEvaluatedKey")
        if not last:
            break
        query["ExclusiveStartKey"] = last
    return [certificate_id for _, certificate_id in sorted(found) if certificate_id]


def _string(item: Mapping[str, AttributeValueTypeDef], name: str) -> str | None:
    value = item.get(name)
    return None if value is None else value.get("S")


def _cancellation_codes(error: ClientError) -> list[str]:
    reasons: list[Mapping[str, Any]] = error.response.get("CancellationReasons", [])  # type: ignore[assignment]
    return [str(reason.get("Code", "")) for reason in reasons]
