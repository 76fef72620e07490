"""Lambda entry point for S3 notifications on the documents bucket.

The logic is certiq.runtime.s3_ingest (exactly once per record) over certiq.ingestion.s3_events;
a file that cannot be read ends FAILED in the documents table with its reason, and its original
stays in the bucket.
"""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.runtime.lambda_handlers import (
    container_deps,
    container_idempotency_store,
    logger,
    prime_container,
)
from certiq.runtime.s3_ingest import S3IngestHandler
from certiq.runtime.snapstart import register_hooks

ingest_s3 = S3IngestHandler(deps=container_deps, idempotency_store=container_idempotency_store)


def before_snapshot() -> None:
    """With SnapStart, the clients and the idempotency store are in the snapshot."""
    prime_container()
    container_idempotency_store()


register_hooks(before_snapshot)


@logger.inject_lambda_context(log_event=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return ingest_s3(event, context)
