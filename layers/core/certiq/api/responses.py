"""What every route shares: the media types, the error bodies and their OpenAPI descriptions,
and the handlers that turn an exception into an ApiError answer, registered in one place."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any, Final

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.api_gateway import BaseRouter, Router
from aws_lambda_powertools.event_handler.exceptions import ServiceError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.config import Settings
from certiq.errors import ConfigurationError, DuplicateContent, InvalidRequest, TransientError
from certiq.models import ApiError

# Powertools serialises a Response body only when its Content-Type is JSON; without it a model
# body would reach API Gateway (and `certiq serve`) unserialised.
JSON: Final = "application/json"
PNG: Final = "image/png"
PDF: Final = "application/pdf"


def new_router() -> Router:
    """A Router for one resource's routes (Powertools leaves its constructor untyped)."""
    return Router()  # type: ignore[no-untyped-call]


def described(description: str) -> OpenAPIResponse:
    return {"description": description, "content": {JSON: {"model": ApiError}}}


def answers(model: Any, description: str) -> OpenAPIResponse:
    return {"description": description, "content": {JSON: {"model": model}}}


ERRORS: dict[int, OpenAPIResponse] = {
    400: described("malformed request: not JSON, not UTF-8, or a body not base64 as marked"),
    404: described("no such resource"),
    422: described("the body or a parameter breaks its contract; detail names the field"),
}
# Routes that read a body also refuse a large one, and any type but theirs.
BODY_ERRORS: dict[int, OpenAPIResponse] = {
    **ERRORS,
    413: described("the body is larger than settings.api.max_body_bytes"),
    415: described("the Content-Type is not one the route reads"),
}


def ok(description: str) -> dict[int, OpenAPIResponse]:
    """200 with the route's return type, and the errors every route may answer."""
    return {200: {"description": description}, **ERRORS}


class Gone(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(410, message)


class PayloadTooLarge(ServiceError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(413, f"the body is {size} bytes; the limit is {limit}")


class Conflict(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(409, message)


def request_body(router: BaseRouter, settings: Settings) -> bytes:
    """The request body's bytes, or 413 when they are more than settings allow."""
    event = router.current_event
    raw = event.body or ""
    data = base64.b64decode(raw, validate=True) if event.is_base64_encoded else raw.encode()
    if len(data) > settings.api.max_body_bytes:
        raise PayloadTooLarge(len(data), settings.api.max_body_bytes)
    return data


def error(status: int, message: str, detail: list[dict[str, Any]] | None = None) -> Response[Any]:
    body = ApiError(statusCode=status, message=message, detail=detail)
    return Response(
        status_code=status, content_type=JSON, body=body.model_dump(mode="json", exclude_none=True)
    )


CORRELATION_HEADER: Final = "X-Correlation-Id"


class Resolver(APIGatewayRestResolver):
    """Powertools' REST resolver, whose every answer (errors included: Powertools turns those
    into responses after any middleware has run) names its request in X-Correlation-Id: API
    Gateway's request id, the correlation_id of the function's log lines. A user who reports a
    problem can quote it; an operator finds the request by it."""

    def resolve(self, event: Mapping[str, Any], context: LambdaContext) -> dict[str, Any]:
        result = super().resolve(event, context)
        request_id = (event.get("requestContext") or {}).get("requestId")
        if request_id:
            result.setdefault("multiValueHeaders", {})[CORRELATION_HEADER] = [str(request_id)]
        return result


def register_error_handlers(app: APIGatewayRestResolver) -> None:
    """Every exception a route lets through, answered as an ApiError with its status."""

    def invalid_request(exc: RequestValidationError) -> Response[Any]:
        detail = [_error_detail(item) for item in exc.errors()]
        if any(item["type"] == "json_invalid" for item in detail):
            return error(400, "the body is not valid JSON", detail)
        fields = ", ".join(".".join(str(part) for part in item["loc"]) for item in detail)
        return error(422, f"invalid request: {fields}", detail)

    def unsupported_type(exc: RequestUnsupportedContentType) -> Response[Any]:
        return error(415, f"unsupported Content-Type: send {JSON}")

    def bad_value(exc: InvalidRequest) -> Response[Any]:
        return error(422, str(exc), [{"loc": [exc.field], "msg": exc.message}])

    def duplicate(exc: DuplicateContent) -> Response[Any]:
        return error(409, str(exc))

    def unavailable(exc: TransientError) -> Response[Any]:
        # An upstream (the search index, a store) out of reach after its retries: its message
        # names it in words, never with a trace.
        return error(503, f"temporarily unavailable: {exc}; try again shortly")

    def misconfigured(exc: ConfigurationError) -> Response[Any]:
        # Settings that cannot work (the search index missing or of another dimension): the
        # operator's to fix, said in words.
        return error(503, f"unavailable: {exc}")

    def not_utf8(exc: UnicodeDecodeError) -> Response[Any]:
        return error(400, "the body is not UTF-8 text")

    def bad_base64(exc: binascii.Error) -> Response[Any]:
        return error(400, f"the body is marked base64 but is not: {exc}")

    # Registered by call, not as decorators: Powertools' decorator is untyped.
    for exception, handler in (
        (RequestValidationError, invalid_request),
        (RequestUnsupportedContentType, unsupported_type),
        (InvalidRequest, bad_value),
        (DuplicateContent, duplicate),
        (TransientError, unavailable),
        (ConfigurationError, misconfigured),
        (UnicodeDecodeError, not_utf8),
        (binascii.Error, bad_base64),
    ):
        app.exception_handler(exception)(handler)


def _error_detail(item: Any) -> dict[str, Any]:
    """A validation error as the client needs it: where, what kind, and in words."""
    loc = [part for part in item.get("loc", ()) if isinstance(part, str | int)]
    detail: dict[str, Any] = {"loc": loc, "type": str(item.get("type", "invalid"))}
    message = item.get("msg")
    context = item.get("ctx") or {}
    if context.get("error"):
        message = f"{message}: {context['error']}" if message else str(context["error"])
    if message:
        detail["msg"] = str(message)
    return detail
