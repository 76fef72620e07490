"""Documents, questions and certificates in DynamoDB, through the low-level client.

Marshalling is explicit and small: each item holds its key attributes, the attributes queries or
updates need, and the record's JSON in the string attribute ``body``. A question's mutable fields
(status, reason, updated_at, response) are attributes of their own, so a status change is one
conditional UpdateItem and never a read-modify-write of the JSON. Key schemas: tables.TABLE_KEYS.
"""

from __future__ import annotations

import calendar
import json
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.adapters.aws.certificate_citations import CITED_BY, citing, put_with_citations
from certiq.adapters.aws.tables import CONVERSATION_INDEX
from certiq.errors import AlreadyExists, NotFound, StaleEvent
from certiq.ingestion.sequencer import sequencer_key
from certiq.models import (
    Certificate,
    DocumentRecord,
    QAResponse,
    QuestionRecord,
    QuestionStatus,
    Recheck,
)
from certiq.ports import Clock

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import (
        AttributeValueTypeDef,
        QueryInputTypeDef,
    )

    Item = dict[str, AttributeValueTypeDef]

CONDITION_FAILED = "ConditionalCheckFailedException"
# A document's S3 sequencer, zero-padded to a fixed width so that it compares as a string.
SEQUENCER_KEY = "sequencer_key"
# The questions table's TTL attribute (template.yaml QuestionsTable.TimeToLiveSpecification).
QUESTION_TTL_ATTRIBUTE = "expires_at"

# The fields of a QuestionRecord kept in attributes of their own rather than in its body.
QUESTION_MUTABLE_FIELDS = frozenset({"status", "reason", "updated_at", "response"})


def _s(value: str) -> AttributeValueTypeDef:
    return {"S": value}


def _string(item: Mapping[str, AttributeValueTypeDef], name: str) -> str | None:
    value = item.get(name)
    return None if value is None else value.get("S")


def _required(item: Mapping[str, AttributeValueTypeDef], name: str) -> str:
    value = _string(item, name)
    if value is None:
        raise ValueError(f"DynamoDB item has no string attribute {name!r}")
    return value


def _age_key(moment: datetime) -> str:
    """A string that sorts like the instant (naive datetimes taken as UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


def _document_item(record: DocumentRecord) -> Item:
    item: Item = {
        "tenant": _s(record.tenant),
        "doc_id": _s(record.doc_id),
        "status": _s(record.status.value),
        "created_at": _s(_age_key(record.created_at)),
        "body": _s(record.model_dump_json()),
    }
    if record.sequencer is not None:
        item[SEQUENCER_KEY] = _s(sequencer_key(record.sequencer))
    return item


class _SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class DynamoDocumentStore:
    """Implements certiq.ports.DocumentStore; table key: tenant (HASH), doc_id (RANGE).

    A record with a sequencer also carries it zero-padded, as the attribute SEQUENCER_KEY
    (certiq.ingestion.sequencer.sequencer_key): the conditional write compares that.
    """

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._ddb = client
        self.table_name = table_name

    def put(self, record: DocumentRecord) -> None:
        with transient_errors("DynamoDB PutItem"):
            self._ddb.put_item(TableName=self.table_name, Item=_document_item(record))

    def put_if_sequencer_before(self, record: DocumentRecord, sequencer: str) -> None:
        # DynamoDB compares strings by bytes: fixed-width keys order as the sequencers do.
        with transient_errors("DynamoDB PutItem"):
            try:
                self._ddb.put_item(
                    TableName=self.table_name,
                    Item=_document_item(record),
                    ConditionExpression=(
                        f"attribute_not_exists({SEQUENCER_KEY}) OR {SEQUENCER_KEY} < :sequencer"
                    ),
                    ExpressionAttributeValues={":sequencer": _s(sequencer_key(sequencer))},
                )
            except ClientError as error:
                if error_code(error) == CONDITION_FAILED:
                    raise StaleEvent(
                        f"document {record.tenant}/{record.doc_id}: sequencer {sequencer} is"
                        " not later than the one applied already"
                    ) from error
                raise

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None:
        with transient_errors("DynamoDB GetItem"):
            response = self._ddb.get_item(
                TableName=self.table_name,
                Key={"tenant": _s(tenant), "doc_id": _s(doc_id)},
                ConsistentRead=True,
            )
        item = response.get("Item")
        return None if item is None else DocumentRecord.model_validate_json(_required(item, "body"))

    def list(self, tenant: str) -> list[DocumentRecord]:
        query: QueryInputTypeDef = {
            "TableName": self.table_name,
            "KeyConditionExpression": "#tenant = :tenant",
            "ExpressionAttributeNames": {"#tenant": "tenant"},
            "ExpressionAttributeValues": {":tenant": _s(tenant)},
            "ConsistentRead": True,
        }
        keyed: list[tuple[str, str, DocumentRecord]] = []
        while True:
            with transient_errors("DynamoDB Query"):
                page = self._ddb.query(**query)
            for item in page.get("Items", []):
                record = DocumentRecord.model_validate_json(_required(item, "body"))
                keyed.append((_age_key(record.created_at), record.doc_id, record))
            last = page.get("LastEvaluatedKey")
            if not last:
                break
            query["ExclusiveStartKey"] = last
        keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [record for _, _, record in keyed]


class DynamoQuestionStore:
    """Implements certiq.ports.QuestionStore; table key: question_id (HASH).

    ``clock`` stamps updated_at on every change. With ``retention_days`` (> 0) each question
    carries ``expires_at`` (epoch seconds, a Number: the table's TTL attribute) that many days
    after it was asked, and DynamoDB deletes it after that; 0 keeps it.
    """

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        clock: Clock | None = None,
        retention_days: int = 0,
    ) -> None:
        if retention_days < 0:
            raise ValueError(f"retention_days must be 0 (keep) or more, not {retention_days}")
        self._ddb = client
        self.table_name = table_name
        self._clock: Clock = clock or _SystemClock()
        self._retention = timedelta(days=retention_days)

    def create(self, record: QuestionRecord) -> None:
        item: Item = {
            "question_id": _s(record.question_id),
            "tenant": _s(record.tenant),
            "status": _s(record.status.value),
            "updated_at": _s(record.updated_at.isoformat()),
            "body": _s(record.model_dump_json(exclude=set(QUESTION_MUTABLE_FIELDS))),
        }
        if record.conversation_id is not None:
            item["conversation_key"] = _s(_conversation_key(record.tenant, record.conversation_id))
            item["created_at"] = _s(_age_key(record.created_at))
        if record.reason is not None:
            item["reason"] = _s(record.reason)
        if record.response is not None:
            item["response"] = _s(record.response.model_dump_json())
        if self._retention:
            expires = record.created_at + self._retention
            # timegm: a naive time is taken as UTC, not as the host's local time.
            item[QUESTION_TTL_ATTRIBUTE] = {"N": str(calendar.timegm(expires.utctimetuple()))}
        with transient_errors("DynamoDB PutItem"):
            try:
                self._ddb.put_item(
                    TableName=self.table_name,
                    Item=item,
                    ConditionExpression="attribute_not_exists(question_id)",
                )
            except ClientError as error:
                if error_code(error) == CONDITION_FAILED:
                    raise AlreadyExists(f"question {record.question_id} already exists") from error
                raise

    def set_status(
        self, question_id: str, status: QuestionStatus, reason: str | None = None
    ) -> None:
        values: dict[str, AttributeValueTypeDef] = {
            ":status": _s(status.value),
            ":updated_at": _s(self._clock.now().isoformat()),
        }
        expression = "SET #status = :status, #updated_at = :updated_at"
        if reason is None:
            expression += " REMOVE #reason"
        else:
            expression += ", #reason = :reason"
            values[":reason"] = _s(reason)
        self._update(question_id, expression, values, {"#reason": "reason"})

    def complete(self, question_id: str, response: QAResponse) -> None:
        self._update(
            question_id,
            "SET #status = :status, #updated_at = :updated_at, #response = :response",
            {
                ":status": _s(response.status.value),
                ":updated_at": _s(self._clock.now().isoformat()),
                ":response": _s(response.model_dump_json()),
            },
            {"#response": "response"},
        )

    def get(self, question_id: str) -> QuestionRecord | None:
        with transient_errors("DynamoDB GetItem"):
            found = self._ddb.get_item(
                TableName=self.table_name,
                Key={"question_id": _s(question_id)},
                ConsistentRead=True,
            )
        item = found.get("Item")
        return None if item is None else _question(item)

    def conversation(self, tenant: str, conversation_id: str) -> list[QuestionRecord]:
        # A global secondary index is eventually consistent: a question created a moment ago
        # may be missing for a moment (never a changed one: status lives on the same item).
        query: QueryInputTypeDef = {
            "TableName": self.table_name,
            "IndexName": CONVERSATION_INDEX,
            "KeyConditionExpression": "conversation_key = :key",
            "ExpressionAttributeValues": {":key": _s(_conversation_key(tenant, conversation_id))},
        }
        records: list[QuestionRecord] = []
        while True:
            with transient_errors("DynamoDB Query"):
                page = self._ddb.query(**query)
            records.extend(_question(item) for item in page.get("Items", []))
            last = page.get("LastEvaluatedKey")
            if not last:
                break
            query["ExclusiveStartKey"] = last
        records.sort(key=lambda record: (_age_key(record.created_at), record.question_id))
        return records

    def _update(
        self,
        question_id: str,
        expression: str,
        values: dict[str, AttributeValueTypeDef],
        names: dict[str, str],
    ) -> None:
        with transient_errors("DynamoDB UpdateItem"):
            try:
                self._ddb.update_item(
                    TableName=self.table_name,
                    Key={"question_id": _s(question_id)},
                    UpdateExpression=expression,
                    ConditionExpression="attribute_exists(question_id)",
                    ExpressionAttributeNames={
                        "#status": "status",
                        "#updated_at": "updated_at",
                        **names,
                    },
                    ExpressionAttributeValues=values,
                )
            except ClientError as error:
                if error_code(error) == CONDITION_FAILED:
                    raise NotFound(f"question {question_id} not found") from error
                raise


def _conversation_key(tenant: str, conversation_id: str) -> str:
    return f"{tenant}#{conversation_id}"


def _question(item: Mapping[str, AttributeValueTypeDef]) -> QuestionRecord:
    fields: dict[str, Any] = json.loads(_required(item, "body"))
    response = _string(item, "response")
    fields.update(
        status=_required(item, "status"),
        reason=_string(item, "reason"),
        updated_at=_required(item, "updated_at"),
        response=None if response is None else json.loads(response),
    )
    return QuestionRecord.model_validate(fields)


# A certificate's re-checks live in the certificates table beside it, keyed
# "<certificate_id>#recheck#<sequence, 6 digits>" and marked with this attribute (its id).
RECHECK_OF = "recheck_of"


def _recheck_key(certificate_id: str, sequence: int) -> str:
    return f"{certificate_id}#recheck#{sequence:06d}"


class DynamoCertificateStore:
    """Implements certiq.ports.CertificateStore; table key: certificate_id (HASH).

    The put is conditional on the id being free, so a stored certificate is never overwritten.
    Re-checks are items of the same table (RECHECK_OF), written under the same condition, so
    two re-checks of one certificate can never take the same place in its chain. Citation items
    (certificate_citations.CITED_BY), one per cited document, are written in the same
    transaction as the certificate.
    """

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._ddb = client
        self.table_name = table_name

    def append(self, tenant: str, seal: Callable[[str | None], Certificate]) -> Certificate:
        # No chain here: the certificate archive (S3 Object Lock, compliance mode) is what keeps
        # a stored certificate from being rewritten in AWS.
        certificate = seal(None)
        item: Item = {
            "certificate_id": _s(certificate.certificate_id),
            "tenant": _s(tenant),
            "question_id": _s(certificate.question_id),
            "created_at": _s(_age_key(certificate.created_at)),
            "body": _s(certificate.model_dump_json()),
        }
        put_with_citations(self._ddb, self.table_name, item, tenant, certificate)
        return certificate

    def get(self, certificate_id: str) -> Certificate | None:
        with transient_errors("DynamoDB GetItem"):
            response = self._ddb.get_item(
                TableName=self.table_name,
                Key={"certificate_id": _s(certificate_id)},
                ConsistentRead=True,
            )
        item = response.get("Item")
        if item is None or RECHECK_OF in item or CITED_BY in item:
            return None
        return Certificate.model_validate_json(_required(item, "body"))

    def history(self, tenant: str) -> Iterator[Certificate]:
        # An audit walk, rare and read-only: a filtered scan, ordered by when each was sealed.
        for _, _, body in self._scan(tenant):
            yield Certificate.model_validate_json(body)

    def citing(self, tenant: str, doc_id: str) -> list[str]:
        # A query of the sparse citation index, never a scan (certificate_citations).
        return citing(self._ddb, self.table_name, tenant, doc_id)

    def append_recheck(
        self, tenant: str, certificate_id: str, seal: Callable[[Recheck | None], Recheck]
    ) -> Recheck:
        earlier = self.rechecks(certificate_id)
        recheck = seal(earlier[-1] if earlier else None)
        item: Item = {
            "certificate_id": _s(_recheck_key(certificate_id, recheck.sequence)),
            RECHECK_OF: _s(certificate_id),
            "tenant": _s(tenant),
            "created_at": _s(_age_key(recheck.checked_at)),
            "body": _s(recheck.model_dump_json()),
        }
        with transient_errors("DynamoDB PutItem"):
            try:
                self._ddb.put_item(
                    TableName=self.table_name,
                    Item=item,
                    ConditionExpression="attribute_not_exists(certificate_id)",
                )
            except ClientError as error:
                if error_code(error) == CONDITION_FAILED:
                    raise AlreadyExists(
                        f"re-check {recheck.sequence} of certificate {certificate_id} already"
                        " exists"
                    ) from error
                raise
        return recheck

    def rechecks(self, certificate_id: str) -> list[Recheck]:
        # One GetItem per re-check, in sequence until the first missing one: a certificate is
        # re-checked when a document it cites changes, or on demand, so its chain stays short.
        found: list[Recheck] = []
        while True:
            with transient_errors("DynamoDB GetItem"):
                response = self._ddb.get_item(
                    TableName=self.table_name,
                    Key={"certificate_id": _s(_recheck_key(certificate_id, len(found) + 1))},
                    ConsistentRead=True,
                )
            item = response.get("Item")
            if item is None or RECHECK_OF not in item:
                return found
            found.append(Recheck.model_validate_json(_required(item, "body")))

    def _scan(self, tenant: str) -> list[tuple[str, str, str]]:
        """(created_at, certificate_id, body) of the tenant's certificates, oldest first."""
        found: list[tuple[str, str, str]] = []
        with transient_errors("DynamoDB Scan"):
            pages = self._ddb.get_paginator("scan").paginate(
                TableName=self.table_name,
                FilterExpression=(
                    f"tenant = :tenant AND attribute_not_exists({RECHECK_OF})"
                    f" AND attribute_not_exists({CITED_BY})"
                ),
                ExpressionAttributeValues={":tenant": _s(tenant)},
                ConsistentRead=True,
            )
            for page in pages:
                for item in page.get("Items", []):
                    found.append(
                        (
                            _required(item, "created_at"),
                            _required(item, "certificate_id"),
                            _required(item, "body"),
                        )
                    )
        return sorted(found)
