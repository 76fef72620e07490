"""Lambda entry point of the HTTPS API (API Gateway REST proxy).

The routes are certiq.api.routes, the same ones `certiq serve` runs locally.
"""

from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.api.routes import create_app
from certiq.bootstrap import build_orchestrator, build_upload_signer
from certiq.runtime.lambda_handlers import container_deps, logger


@cache
def api() -> APIGatewayRestResolver:
    deps = container_deps()
    return create_app(deps, build_orchestrator(deps), build_upload_signer(deps.settings))


@logger.inject_lambda_context(log_event=False)  # bodies hold questions: never log them
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return api().resolve(event, context)
