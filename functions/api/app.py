"""Lambda entry point of the HTTPS API (API Gateway REST proxy).

The routes are certiq.api.routes, the same ones `certiq serve` runs locally.
"""

from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.api.routes import create_app
from certiq.bootstrap import build_orchestrator, build_upload_signer
from certiq.runtime.lambda_handlers import container_deps, logger, prime_container
from certiq.runtime.snapstart import register_hooks


@cache
def api() -> APIGatewayRestResolver:
    deps = container_deps()
    return create_app(deps, build_orchestrator(deps), build_upload_signer(deps.settings))


def before_snapshot() -> None:
    """With SnapStart, the routes and clients are in the snapshot: a cold start builds none."""
    api()
    prime_container()


register_hooks(before_snapshot)


# Bodies hold questions: never logged. Each log line carries the request id as correlation_id,
# the id every response returns in X-Correlation-Id.
@logger.inject_lambda_context(
    log_event=False, correlation_id_path=correlation_paths.API_GATEWAY_REST
)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return api().resolve(event, context)
