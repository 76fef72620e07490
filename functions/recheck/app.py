"""Lambda entry point of the recheck queue (SQS, partial batch failures).

The logic is certiq.runtime.recheck_queue over certiq.trust.rechecks: each message re-checks one
certificate citing a document that was indexed anew or deleted, and stores the signed record.
"""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.runtime.lambda_handlers import container_deps, logger, prime_container
from certiq.runtime.recheck_queue import RecheckHandler
from certiq.runtime.snapstart import register_hooks

recheck = RecheckHandler(deps=container_deps)


def before_snapshot() -> None:
    """With SnapStart, the clients are in the snapshot."""
    prime_container()


register_hooks(before_snapshot)


# Messages name certificates and documents, never a question's text; still not logged whole.
@logger.inject_lambda_context(log_event=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return recheck(event, context)
