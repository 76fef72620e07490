"""The recheck queue on SQS: one message per certificate, sent ten to a SendMessageBatch call.

The recheck function (functions/recheck) consumes the queue, a batch of messages per invocation
with partial batch failures, so a document cited by thousands of certificates is re-checked
across many invocations, and a certificate whose re-check keeps failing ends in the queue's
dead-letter queue, not in the way of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from certiq.adapters.aws._errors import transient_errors
from certiq.errors import TransientError
from certiq.models import RecheckRequest

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient
    from mypy_boto3_sqs.type_defs import SendMessageBatchRequestEntryTypeDef

# SendMessageBatch takes at most ten entries.
BATCH: Final = 10


class SqsRecheckQueue:
    """Implements certiq.ports.RecheckQueue over the queue at ``queue_url``."""

    def __init__(self, client: SQSClient, queue_url: str) -> None:
        self._sqs = client
        self.queue_url = queue_url

    def submit(self, requests: Sequence[RecheckRequest]) -> None:
        for start in range(0, len(requests), BATCH):
            entries: list[SendMessageBatchRequestEntryTypeDef] = [
                {"Id": str(offset), "MessageBody": request.model_dump_json()}
                for offset, request in enumerate(requests[start : start + BATCH])
            ]
            with transient_errors("SQS SendMessageBatch"):
                response = self._sqs.send_message_batch(QueueUrl=self.queue_url, Entries=entries)
            failed = response.get("Failed", [])
            if failed:
                # Sent ones stay sent: a re-check run twice only adds a record to the chain, and
                # the consumer skips one already done since the request (requested_at).
                reasons = sorted({f"{each['Code']}: {each.get('Message', '')}" for each in failed})
                raise TransientError(
                    f"SQS SendMessageBatch: {len(failed)} of {len(entries)} re-check messages"
                    f" were not queued ({'; '.join(reasons)})"
                )
