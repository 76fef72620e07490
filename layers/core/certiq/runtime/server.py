"""`certiq serve`: the API's routes over HTTP on the loopback address, served by waitress.

Each HTTP request becomes the API Gateway REST proxy event Lambda would receive and goes through
the same router as functions/api, so local and cloud answer the same way. Bodies travel
base64-encoded, as API Gateway passes them with BinaryMediaTypes "*/*" (PDF uploads need it); a
body larger than settings.api.max_body_bytes is refused with a JSON 413. Every method on every
route gets a JSON answer: HEAD wherever GET exists, OPTIONS with the methods allowed, 405 with
Allow for the others. Uploaded files are ingested in a background thread of this process.
A body over the limit is refused before it is read, by waitress, with the same JSON 413 (the
error answers waitress writes itself are ApiError bodies too). GET /v1/questions/{id}/events
streams a question's states as server-sent events (certiq.runtime.question_events): only this
server offers it. Every request is logged as one access line (method, path, status, duration)
on the "certiq.access" logger; waitress's "Task queue depth" warnings are not.

waitress (a maintained pure-Python WSGI server) holds a listen backlog sized for a browser's
parallel requests and a pool of worker threads, and stops gracefully: requests in flight finish.
"""

from __future__ import annotations

import base64
import contextlib
import logging
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
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer, create_server
from waitress.task import ErrorTask
from waitress.utilities import RequestEntityTooLarge
from waitress.wasyncore import loop

from certiq.api.intake import DocumentIntake
from certiq.api.responses import JSON
from certiq.api.routes import create_app
from certiq.deps import Deps
from certiq.ingestion.leases import end_interrupted
from certiq.models import ApiError
from certiq.ports import Orchestrator
from certiq.runtime.question_events import EVENT_STREAM, EVENTS_PATH, QuestionEvents

ACCESS_LOG: Final = logging.getLogger("certiq.access")

# Browsers open six connections per host and the page polls, uploads and fetches page images at
# once: the standard library's backlog of 5 reset connections under that.
BACKLOG: Final = 256
THREADS: Final = 8
# Requests in flight at shutdown get this long to finish.
GRACE_SECONDS: Final = 10
# A body over the limit is read and thrown away before the 413 goes out, up to this much: a
# client still sending when the server closes gets the connection reset, and loses the answer.
# Past it the 413 goes out at once.
DISCARD_BYTES: Final = 1 << 30
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


def api_wsgi(
    app: APIGatewayRestResolver, max_body_bytes: int, events: QuestionEvents | None = None
) -> WsgiApp:
    """The resolver as a WSGI application (with ``events``, the questions' event streams)."""
    routes = route_methods(app)

    def allowed(path: str) -> set[str]:
        # fullmatch: a rule ending in "$" would also take a path with a newline after it
        # ("/v1/documents/%0A"), allowing methods no route of that path has.
        methods = {method for rule, method in routes if rule.fullmatch(path)}
        if "GET" in methods:
            methods.add("HEAD")
        return methods | {"OPTIONS"} if methods else methods

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterator[bytes]:
        started = time.monotonic()
        method = str(environ["REQUEST_METHOD"]).upper()
        path = environ.get("PATH_INFO") or "/"

        def logged(status: int) -> None:
            elapsed = (time.monotonic() - started) * 1000
            ACCESS_LOG.info("%s %s %d %.0f ms", method, path, status, elapsed)

        stream = EVENTS_PATH.fullmatch(path) if events is not None else None
        if events is not None and stream is not None:
            status, headers, data, body = _events(events, method, path, stream.group(1))
            start_response(f"{status} {HTTPStatus(status).phrase}", list(headers.items()))
            try:
                yield data
                yield from body
            finally:  # the stream's line, once it has ended (or the client has gone)
                logged(status)
            return
        try:
            status, headers, data = answer(allowed(path), environ, method, path)
        except Exception:
            logged(500)
            raise
        headers["Content-Length"] = str(len(data))
        start_response(f"{status} {HTTPStatus(status).phrase}", list(headers.items()))
        # Logged before the body goes out: the line is there when the client has its answer.
        logged(status)
        # HEAD: GET's status and headers, no body.
        yield b"" if method == "HEAD" else data

    def answer(
        methods: set[str],
        environ: dict[str, Any],
        method: str,
        path: str,
    ) -> tuple[int, dict[str, str], bytes]:
        if methods and method not in methods:
            status, headers, data = _json(405, f"{method} is not allowed on {path}")
            headers["Allow"] = ", ".join(sorted(methods))
            return status, headers, data
        if methods and method == "OPTIONS":
            return 204, {"Allow": ", ".join(sorted(methods))}, b""
        return _dispatch(app, environ, method, path, max_body_bytes)

    return application


def _events(
    events: QuestionEvents, method: str, path: str, question_id: str
) -> tuple[int, dict[str, str], bytes, Iterator[bytes]]:
    """GET /v1/questions/{id}/events: the status, headers, first bytes and the stream."""
    allow = "GET, OPTIONS"
    if method == "OPTIONS":
        return 204, {"Allow": allow, "Content-Length": "0"}, b"", iter(())
    if method != "GET":
        status, headers, data = _json(405, f"{method} is not allowed on {path}")
        headers.update({"Allow": allow, "Content-Length": str(len(data))})
        return status, headers, data, iter(())
    record = events.find(question_id)
    if record is None:
        status, headers, data = _json(404, f"no question {question_id}")
        headers["Content-Length"] = str(len(data))
        return status, headers, data, iter(())
    # No Content-Length: waitress sends it chunked, each event as soon as it is yielded.
    headers = {"Content-Type": EVENT_STREAM, "Cache-Control": "no-cache"}
    return 200, headers, b"", events.stream(record)


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


class _JsonErrorTask(ErrorTask):
    """What waitress refuses itself (a body over its limit, a malformed request) answered as
    the API's ApiError JSON, not waitress's plain text."""

    def execute(self) -> None:
        # The stubs type the task's request as an Error; it is the request's parser.
        request: Any = self.request
        error = request.error
        if isinstance(error, RequestEntityTooLarge):
            limit = self.channel.server.adj.max_request_body_size - 1
            size = request.content_length or request.body_bytes_received
            message = f"the body is {size} bytes; the limit is {limit}"
        else:
            message = f"{error.reason}: {error.body}"
        _, _, body = _json(error.code, message)
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [*self.response_headers, ("Content-Type", JSON)]
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _RequestParser(HTTPRequestParser):
    """waitress's parser, which reads and throws away the body of a request it refuses as too
    large (up to DISCARD_BYTES), so that the client, done sending, reads the 413."""

    _discard = 0

    def received(self, data: bytes) -> int:
        if self._discard:
            taken = min(len(data), self._discard)
            self._discard -= taken
            self.completed = not self._discard
            return taken
        consumed = super().received(data)
        too_large = isinstance(self.error, RequestEntityTooLarge) and not self.chunked
        # A client that waits for "100 Continue" sends nothing more: it has its answer at once.
        if too_large and not self.expect_continue and self.content_length <= DISCARD_BYTES:
            self._discard = self.content_length
            self.completed = False
        return consumed


class _Channel(HTTPChannel):
    parser_class = _RequestParser
    error_task_class = _JsonErrorTask


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
        self.events = QuestionEvents(deps, self._stopping)
        # waitress warns "Task queue depth is N" whenever requests wait for a worker thread: a
        # page loading its modules and images does, every time. Its errors still show.
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        server = create_server(
            api_wsgi(app, max_body, self.events),
            map=self._map,
            host=host,
            port=port,
            backlog=BACKLOG,
            threads=THREADS,
            ident="certiq",
            # A body over the limit is refused by waitress as soon as its Content-Length is
            # read, before a byte of it is buffered: the JSON 413 of _JsonErrorTask. (waitress
            # refuses a Content-Length of max_request_body_size or more.)
            max_request_body_size=max_body + 1,
            expose_tracebacks=False,
        )
        # One host and port: one TCP socket, not waitress's multi-socket server.
        assert isinstance(server, TcpWSGIServer)
        server.channel_class = _Channel
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
    _log_access_to_stderr()
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


def _log_access_to_stderr() -> None:
    """The access lines, one per request, on stderr (the banner goes to stdout)."""
    if not ACCESS_LOG.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        ACCESS_LOG.addHandler(handler)
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False


__all__ = ["ApiServer", "make_server", "serve", "to_event"]
