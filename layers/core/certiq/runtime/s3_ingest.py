"""The ingest function: S3 notifications in, each record ingested exactly once.

S3 delivers notifications at least once, and Lambda retries a failed invocation, so the same
record can arrive several times. Each record (not the whole event: one event may hold several)
runs under Powertools idempotency keyed on its event name, bucket, key and version id (the
sequencer when the bucket keeps no versions): a repeat within the window returns the stored
outcome without touching S3, the documents table or the index. Behind that, a record whose
sequencer is not later than the last one applied to the document is skipped (a repeat, or an
older event arriving late; certiq.ingestion.s3_events), ingest() skips content that is already
INDEXED with the same sha256, and chunk ids are deterministic, so even a repeat after the window
changes nothing.

A record that fails with an unexpected error does not stop the others; the invocation then
fails so Lambda retries it, and the records that succeeded come back from the idempotency store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import S3Model, S3RecordModel
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.deps import Deps
from certiq.ingestion.s3_events import handle_s3_record

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer

__all__ = ["IDEMPOTENCY_KEY", "S3IngestHandler"]

# JMESPath over one record: what makes two deliveries the same notification.
IDEMPOTENCY_KEY = (
    "[eventName, s3.bucket.name, s3.object.key, s3.object.versionId || s3.object.sequencer]"
)
# Lambda keeps retrying an asynchronous event for up to 6 hours: remember outcomes that long.
IDEMPOTENCY_TTL_SECONDS = 6 * 60 * 60


class S3IngestHandler:
    """`handler(event, context)` for S3 notification events.

    deps and idempotency_store are factories called on the first invocation (once per warm
    container); idempotency_store may return None to run without the exactly-once guard.
    """

    def __init__(
        self,
        deps: Callable[[], Deps],
        idempotency_store: Callable[[], BasePersistenceLayer | None],
    ) -> None:
        self._deps = deps
        self._store = idempotency_store
        self._config = IdempotencyConfig(
            event_key_jmespath=IDEMPOTENCY_KEY,
            raise_on_no_idempotency_key=True,
            expires_after_seconds=IDEMPOTENCY_TTL_SECONDS,
        )
        self._once: Callable[..., dict[str, Any] | None] | None = None

    def __call__(self, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        parse(event=event, model=S3Model)  # refuse a malformed event before doing anything
        once = self._guarded()
        self._config.register_lambda_context(context)  # in-progress records expire with it
        documents: list[dict[str, Any]] = []
        failure: Exception | None = None
        for record in event["Records"]:
            try:
                outcome = once(record=record)
            except Exception as error:  # the next record still runs; Lambda retries this one
                failure = failure or error
                continue
            if outcome is not None:
                documents.append(outcome)
        if failure is not None:
            raise failure
        return {"documents": documents}

    def _guarded(self) -> Callable[..., dict[str, Any] | None]:
        if self._once is None:
            deps = self._deps()

            def ingest_record(record: dict[str, Any]) -> dict[str, Any] | None:
                outcome = handle_s3_record(S3RecordModel.model_validate(record), deps)
                return outcome.summary() if outcome is not None else None

            store = self._store()
            self._once = (
                ingest_record
                if store is None
                else idempotent_function(
                    ingest_record,
                    data_keyword_argument="record",
                    persistence_store=store,
                    config=self._config,
                    key_prefix="certiq-ingest-s3-record",
                )
            )
        return self._once
