"""The recheck function: SQS messages of the recheck queue in, one certificate re-checked each.

Each message is a certiq.models.RecheckRequest (certiq.adapters.aws.sqs_rechecks sends them when
a document is indexed anew or deleted). Powertools' batch processor runs every record of the
batch on its own and answers with the ones that failed (``batchItemFailures``; the event source
mapping reports batch item failures), so only those come back, and one that keeps failing ends
in the queue's dead-letter queue. SQS delivers at least once: a request whose certificate was
re-checked at or after it was made is skipped (certiq.trust.rechecks.recheck_requested).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.deps import Deps
from certiq.models import RecheckRequest
from certiq.trust.rechecks import recheck_requested

__all__ = ["RecheckHandler"]

logger = Logger(service="certiq", child=True)


class RecheckHandler:
    """`handler(event, context)` for the recheck queue's SQS events; ``deps`` is a factory
    called on each invocation (once built per warm container by the caller)."""

    def __init__(self, deps: Callable[[], Deps]) -> None:
        self._deps = deps
        # An all-failed batch is answered like any other: every record in batchItemFailures.
        self._processor = BatchProcessor(
            event_type=EventType.SQS, raise_on_entire_batch_failure=False
        )

    def __call__(self, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        deps = self._deps()

        def run(record: SQSRecord) -> str:
            request = RecheckRequest.model_validate_json(record.body)
            done = recheck_requested(deps, request)
            if done is None:
                logger.info(
                    "nothing to re-check",
                    extra={"certificate_id": request.certificate_id, "doc_id": request.doc_id},
                )
                return "skipped"
            logger.info(
                "re-checked",
                extra={
                    "certificate_id": done.certificate_id,
                    "doc_id": request.doc_id,
                    "sequence": done.sequence,
                    "standing": done.standing.value,
                },
            )
            return done.standing.value

        try:
            return dict(
                process_partial_response(
                    event=event, record_handler=run, processor=self._processor, context=context
                )
            )
        finally:
            deps.metrics.flush()
