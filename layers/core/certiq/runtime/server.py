"""`certiq serve`: the API's routes over plain HTTP on the loopback address.

Each HTTP request becomes the API Gateway REST proxy event Lambda would receive and goes through
the same router as functions/api, so local and cloud answer the same way.
"""

from __future__ import annotations

import base64
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.api.routes import create_app
from certiq.ports import Orchestrator
from certiq.steps.deps import Deps


class _LocalContext:
    """The few Lambda context attributes Powertools reads."""

    function_name = "certiq-local-api"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:certiq-local-api"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())


def to_event(method: str, raw_path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    url = urlsplit(raw_path)
    query = dict(parse_qsl(url.query, keep_blank_values=True))
    text = body.decode("utf-8") if body else None
    return {
        "resource": url.path,
        "path": url.path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": query or None,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} or None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "requestId": str(uuid.uuid4()),
            "stage": "local",
            "httpMethod": method,
            "path": url.path,
            "requestTimeEpoch": int(time.time() * 1000),
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": text,
        "isBase64Encoded": False,
    }


def make_handler(app: APIGatewayRestResolver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "certiq"

        def _dispatch(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {name: value for name, value in self.headers.items()}
            event = to_event(self.command, self.path, headers, body)
            result = app.resolve(event, cast(LambdaContext, _LocalContext()))
            payload = result.get("body") or ""
            data = (
                base64.b64decode(payload)
                if result.get("isBase64Encoded")
                else payload.encode("utf-8")
            )
            self.send_response(int(result["statusCode"]))
            for name, value in (result.get("headers") or {}).items():
                self.send_header(name, str(value))
            for name, values in (result.get("multiValueHeaders") or {}).items():
                for value in values:
                    self.send_header(name, str(value))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _dispatch

        def log_message(self, format: str, *args: Any) -> None:
            # Request lines only: the body (the raw question) is never logged.
            super().log_message(format, *args)

    return Handler


def make_server(
    deps: Deps, orchestrator: Orchestrator, host: str, port: int
) -> ThreadingHTTPServer:
    return ThreadingHTTPServer((host, port), make_handler(create_app(deps, orchestrator)))


def serve(deps: Deps, orchestrator: Orchestrator, *, host: str, port: int) -> None:
    server = make_server(deps, orchestrator, host, port)
    print(f"certiq API on http://{host}:{server.server_port}  (OpenAPI: /openapi.json)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


__all__ = ["make_server", "serve", "to_event"]
