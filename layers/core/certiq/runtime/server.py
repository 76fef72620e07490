"""`certiq serve`: the API's routes over HTTP on the loopback address, served by waitress.

Each HTTP request becomes the API Gateway REST proxy event Lambda would receive and goes through
the same router as functions/api, so local and cloud answer the same way. Bodies travel
base64-encoded, as API Gateway passes them with BinaryMediaTypes "*/*" (PDF uploads need it); a
body larger than settings.api.max_body_bytes is refused with a JSON 413. Every method on every
route gets a JSON answer: HEAD wherever GET exists, OPTIONS with the methods allowed, 405 with
Allow for the others. Uploaded files are ingested in a background thread of this process.

waitress (a maintained pure-Python WSGI server) holds a listen backlog sized for a browser's
parallel requests and a pool of worker threads, and stops gracefully: requests in flight finish.
"""

from __future__ import annotations

import base64
import contextlib
import re
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from http import HTTPStatus
from typing import Any, Final, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext
from waitress.server import TcpWSGIServer, create_server
from waitress.wasyncore import loop

from certiq.api.intake import DocumentIntake
from certiq.api.responses import JSON
from certiq.api.routes import create_app
from certiq.deps import Deps
from certiq.ingestion.leases import end_interrupted
from certiq.models import ApiError
from certiq.ports import Orchestrator

# Browsers open six connections per host and the page polls, uploads and fetches page images at
# once: the standard library's backlog of 5 reset connections under that.
BACKLOG: Final = 256
THREADS: Final = 8
# Requests in flight at shutdown get this long to finish.
GRACE_SECONDS: Final = 10
# Powertools keeps the request being resolved in class attributes (BaseRouter.current_event,
# lambda_context), shared by every resolver in the process: it serves one request at a time, as
# a Lambda does. Resolved concurrently, a page image fetched while the page asked for its
# document's record was answered with the record, or failed (a 500, and no image); a question
# could be read from another request's body. Requests are read and answered in parallel; the
# router runs one at a time. Questions run in the background unless ?wait=true, and page images
# are rendered once and then served from the cache.
_ONE_AT_A_TIME: Final = threading.Lock()

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class _LocalContext:
    """The few Lambda context attributes Powertools reads."""

    function_name = "certiq-local-api"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:certiq-local-api"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())


def to_event(method: str, raw_path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    """The API Gateway REST proxy event of one request (``raw_path`` with its query string)."""
    url = urlsplit(raw_path)
    path = url.path
    parameters = dict(parse_qsl(url.query, keep_blank_values=True))
    return {
        "resource": path,
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": parameters or None,
        "multiValueQueryStringParameters": {k: [v] for k, v in parameters.items()} or None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "requestId": str(uuid.uuid4()),
            "stage": "local",
            "httpMethod": method,
            "path": path,
            "requestTimeEpoch": int(time.time() * 1000),
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": base64.b64encode(body).decode("ascii") if body else None,
        "isBase64Encoded": bool(body),
    }


def route_methods(app: APIGatewayRestResolver) -> list[tuple[re.Pattern[str], str]]:
    """(path pattern, method) of every route the resolver holds.

    Powertools keeps its routes in two lists it does not publish; the 405 tests fail loudly if a
    new version renames them.
    """
    routes = [*app._static_routes, *app._dynamic_routes]
    return [(route.rule, route.method) for route in routes]


def api_wsgi(app: APIGatewayRestResolver, max_body_bytes: int) -> WsgiApp:
    """The resolver as a WSGI application."""
    routes = route_methods(app)

    def allowed(path: str) -> set[str]:
        # fullmatch: a rule ending in "$" would also take a path with a newline after it
        # ("/v1/documents/%0A"), allowing methods no route of that path has.
        methods = {method for rule, method in routes if rule.fullmatch(path)}
        if "GET" in methods:
            methods.add("HEAD")
        return methods | {"OPTIONS"} if methods else methods

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterator[bytes]:
        method = str(environ["REQUEST_METHOD"]).upper()
        path = environ.get("PATH_INFO") or "/"
        methods = allowed(path)
        if methods and method not in methods:
            status, headers, data = _json(405, f"{method} is not allowed on {path}")
            headers["Allow"] = ", ".join(sorted(methods))
        elif methods and method == "OPTIONS":
            status, headers, data = 204, {"Allow": ", ".join(sorted(methods))}, b""
        else:
            status, headers, data = _dispatch(app, environ, method, path, max_body_bytes)
        headers["Content-Length"] = str(len(data))
        start_response(f"{status} {HTTPStatus(status).phrase}", list(headers.items()))
        # HEAD: GET's status and headers, no body.
        yield b"" if method == "HEAD" else data

    return application


def _dispatch(
    app: APIGatewayRestResolver,
    environ: dict[str, Any],
    method: str,
    path: str,
    max_body_bytes: int,
) -> tuple[int, dict[str, str], bytes]:
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return _json(400, "Content-Length is not a byte count")
    if length < 0:
        return _json(400, "Content-Length is not a byte count")
    if length > max_body_bytes:
        return _json(413, f"the body is {length} bytes; the limit is {max_body_bytes}")
    body = environ["wsgi.input"].read(length) if length else b""
    headers = _headers(environ)
    # The request target as sent: PATH_INFO is percent-decoded, and a decoded "%23" would read
    # as a fragment. API Gateway hands the router the path as the client wrote it.
    raw_path = environ.get("REQUEST_URI") or path
    event = to_event("GET" if method == "HEAD" else method, raw_path, headers, body)
    with _ONE_AT_A_TIME:
        result = app.resolve(event, cast(LambdaContext, _LocalContext()))
    payload = result.get("body") or ""
    data = base64.b64decode(payload) if result.get("isBase64Encoded") else payload.encode("utf-8")
    response_headers = {name: str(value) for name, value in (result.get("headers") or {}).items()}
    for name, values in (result.get("multiValueHeaders") or {}).items():
        for value in values:
            response_headers[name] = str(value)
    return int(result["statusCode"]), response_headers, data


def _headers(environ: dict[str, Any]) -> dict[str, str]:
    headers = {
        key[5:].replace("_", "-").title(): str(value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    }
    for key, name in (("CONTENT_TYPE", "Content-Type"), ("CONTENT_LENGTH", "Content-Length")):
        if environ.get(key):
            headers[name] = str(environ[key])
    return headers


def _json(status: int, message: str) -> tuple[int, dict[str, str], bytes]:
    """The API's own error body (certiq.models.ApiError), for what fails before the router."""
    body = ApiError(statusCode=status, message=message).model_dump_json(exclude_none=True)
    return status, {"Content-Type": JSON}, body.encode()


class ApiServer:
    """The HTTP server and the intake ingesting its uploads (wait_idle() lets them finish)."""

    def __init__(self, deps: Deps, orchestrator: Orchestrator, host: str, port: int) -> None:
        self.intake = DocumentIntake(deps, signer=None)
        app = create_app(deps, orchestrator, intake=self.intake)
        max_body = deps.settings.api.max_body_bytes
        self._map: dict[int, Any] = {}
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        server = create_server(
            api_wsgi(app, max_body),
            map=self._map,
            host=host,
            port=port,
            backlog=BACKLOG,
            threads=THREADS,
            ident="certiq",
            # Past this waitress answers 413 itself before the application sees the request.
            max_request_body_size=2 * max_body + 1_048_576,
            expose_tracebacks=False,
        )
        # One host and port: one TCP socket, not waitress's multi-socket server.
        assert isinstance(server, TcpWSGIServer)
        self._server = server

    @property
    def server_port(self) -> int:
        listening = self._server.socket
        assert listening is not None
        return int(listening.getsockname()[1])

    def serve_forever(self) -> None:
        """Serves until shutdown(); then stops accepting, lets requests in flight finish and
        their responses go out (GRACE_SECONDS at most), and closes every connection."""
        adj = self._server.adj
        try:
            while not self._stopping.is_set():
                loop(adj.asyncore_loop_timeout, adj.asyncore_use_poll, self._map, count=1)
            self._server.accepting = False
            deadline = time.monotonic() + GRACE_SECONDS
            while self._busy() and time.monotonic() < deadline:
                loop(0.05, adj.asyncore_use_poll, self._map, count=1)
        finally:
            for channel in list(self._map.values()):
                channel.close()
            self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=1)
            self._stopped.set()

    def shutdown(self) -> None:
        """Asks serve_forever to stop, from any thread, and waits until it has."""
        self._stopping.set()
        # Wakes the loop at once; the loop may already have seen the flag and closed the
        # trigger on its way out, which is just as good.
        with contextlib.suppress(OSError):
            self._server.pull_trigger()
        self._stopped.wait(GRACE_SECONDS + 5)

    def _busy(self) -> bool:
        tasks = self._server.task_dispatcher
        if tasks.active_count or tasks.queue:
            return True
        return any(getattr(channel, "total_outbufs_len", 0) for channel in self._map.values())


def make_server(deps: Deps, orchestrator: Orchestrator, host: str, port: int) -> ApiServer:
    return ApiServer(deps, orchestrator, host, port)


def serve(deps: Deps, orchestrator: Orchestrator, *, host: str, port: int) -> None:
    server = make_server(deps, orchestrator, host, port)
    # Documents a previous run left half-ingested end FAILED now, with the way to retry them.
    end_interrupted(deps.settings.tenant, deps)
    base = f"http://{host}:{server.server_port}"
    print(f"certiq on {base}/  (API under /v1, OpenAPI: /openapi.json)", flush=True)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    # A service manager's SIGTERM stops it as Ctrl-C does: gracefully.
    signal.signal(signal.SIGTERM, stop)
    serving = threading.Thread(target=server.serve_forever, name="certiq-http")
    serving.start()
    try:
        while serving.is_alive():
            serving.join(timeout=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.intake.wait_idle()


__all__ = ["ApiServer", "make_server", "serve", "to_event"]
