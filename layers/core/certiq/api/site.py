"""Routes of the web page and the API's own description (GET /, /static/*, /favicon.ico,
/openapi.json)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from certiq.api.responses import JSON, PDF, new_router
from certiq.api.static import StaticFile

API_TITLE: Final = "certiq"
# The request body of a direct upload: raw PDF bytes (Powertools has no parameter for that).
UPLOAD_BODY: Final = {
    "required": False,
    "description": (
        "The PDF's bytes (Content-Type application/pdf): the server stores and ingests them."
        " Without a body, a server that offers presigned uploads (AWS) answers where to POST"
        " the file instead."
    ),
    "content": {PDF: {"schema": {"type": "string", "format": "binary"}}},
}


def site_router(static: dict[str, StaticFile], openapi_json: Callable[[], str]) -> Router:
    """``openapi_json`` is the resolver's own description, read when asked for."""
    router = new_router()

    @router.get("/openapi.json", include_in_schema=False)
    def openapi() -> Response[str]:
        document = json.loads(openapi_json())
        document["paths"]["/v1/documents"]["post"]["requestBody"] = UPLOAD_BODY
        return Response(status_code=200, content_type=JSON, body=json.dumps(document))

    @router.get("/", include_in_schema=False)
    def index() -> Response[str]:
        return _static_file(static, "index.html")

    @router.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response[str]:
        # Browsers ask for /favicon.ico whatever the page links: the same SVG icon.
        return _static_file(static, "favicon.svg")

    @router.get("/static/<name>", include_in_schema=False)
    def static_file(name: str) -> Response[str]:
        return _static_file(static, name)

    return router


def _static_file(static: dict[str, StaticFile], name: str) -> Response[str]:
    found = static.get(name)
    if found is None:
        raise NotFoundError(f"no file {name}")
    return Response(
        status_code=200,
        content_type=found.content_type,
        body=found.text,
        headers={"Cache-Control": "no-cache"},
    )
