"""Lambda entry point for S3 notifications on the documents bucket.

The logic is certiq.ingestion.s3_events; a file that cannot be read ends FAILED in the
documents table with its reason, and its original stays in the bucket.
"""

from typing import Any

from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import S3Model
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.ingestion.s3_events import handle_s3_event
from certiq.runtime.lambda_handlers import container_deps, logger


@logger.inject_lambda_context(log_event=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    outcomes = handle_s3_event(parse(event=event, model=S3Model), container_deps())
    return {
        "documents": [
            {
                "event": outcome.event_name,
                "uri": outcome.uri,
                "status": outcome.record.status.value if outcome.record else "UNKNOWN",
                "reason": outcome.record.reason if outcome.record else None,
            }
            for outcome in outcomes
        ]
    }
