"""`certiq serve`: the API's routes over plain HTTP on the loopback address.

Each HTTP request becomes the API Gateway REST proxy event Lambda would receive and goes through
the same router as functions/api, so local and cloud answer the same way. Bodies travel
base64-encoded, as API Gateway passes them with BinaryMediaTypes "*/*" (PDF uploads need it); a
body larger than settings.api.max_body_bytes is refused with 413 before it is read. Uploaded files
are ingested in a background thread of this process.
"""

from __future__ import annotations

import base64
import json
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.api.intake import DocumentIntake
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
        "body": base64.b64encode(body).decode("ascii") if body else None,
        "isBase64Encoded": bool(body),
    }


def make_handler(app: APIGatewayRestResolver, max_body_bytes: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "certiq"

        def _dispatch(self) -> None:
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if length < 0 or length > max_body_bytes:
                # Refused unread, as API Gateway refuses a body over its own limit.
                message = (
                    f"the body is {length} bytes; the limit is {max_body_bytes}"
                    if length > 0
                    else "Content-Length is not a byte count"
                )
                status = 413 if length > 0 else 400
                self._send(status, {"Content-Type": "application/json"}, _error(status, message))
                self.close_connection = True
                return
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
            response_headers: dict[str, str] = {}
            for name, value in (result.get("headers") or {}).items():
                response_headers[name] = str(value)
            for name, values in (result.get("multiValueHeaders") or {}).items():
                for value in values:
                    response_headers[name] = str(value)
            self._send(int(result["statusCode"]), response_headers, data)

        def _send(self, status: int, headers: dict[str, str], data: bytes) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _dispatch

        def log_message(self, format: str, *args: Any) -> None:
            # Request lines only: the body (the raw question) is never logged.
            super().log_message(format, *args)

    return Handler


def _error(status: int, message: str) -> bytes:
    return json.dumps({"statusCode": status, "message": message}).encode()


class ApiServer(ThreadingHTTPServer):
    """The HTTP server and the intake ingesting its uploads (wait_idle() lets them finish)."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[BaseHTTPRequestHandler],
        intake: DocumentIntake,
    ) -> None:
        super().__init__(address, handler)
        self.intake = intake


def make_server(deps: Deps, orchestrator: Orchestrator, host: str, port: int) -> ApiServer:
    intake = DocumentIntake(deps, signer=None)
    app = create_app(deps, orchestrator, intake=intake)
    return ApiServer((host, port), make_handler(app, deps.settings.api.max_body_bytes), intake)


def serve(deps: Deps, orchestrator: Orchestrator, *, host: str, port: int) -> None:
    server = make_server(deps, orchestrator, host, port)
    base = f"http://{host}:{server.server_port}"
    print(f"certiq on {base}/  (API under /v1, OpenAPI: /openapi.json)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


__all__ = ["make_server", "serve", "to_event"]
