"""OpenAIEmbedder driving the real openai SDK against an HTTP fake of POST /v1/embeddings.

The fake is a real HTTP server on 127.0.0.1 (port chosen by the OS), so the SDK's own request
building, base64 decoding, retries and timeouts all run as they do against the service. It answers
in the shape of the real API: {"object": "list", "data": [{"object": "embedding", "index": i,
"embedding": [...] or base64 float32}], "model": ..., "usage": {...}}, with the items in reverse
order so that only the `index` fields can put them back in place.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

openai = pytest.importorskip("openai", reason="the openai SDK (extra: llm) is not installed")

from certiq.adapters.llm.openai_embedder import (  # noqa: E402
    BLANK_PLACEHOLDER,
    EmbeddingServiceError,
    OpenAIEmbedder,
)
from certiq.config import EmbeddingSettings, LlmSettings  # noqa: E402
from certiq.errors import ConfigurationError, TransientError  # noqa: E402

MODEL = "text-embedding-3-small"


def fake_vector(text: str, width: int) -> list[float]:
    """A deterministic, deliberately unnormalised vector for a text (norm about 3)."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return [float(v) for v in np.random.default_rng(seed).normal(0, 0.15, width)]


@dataclass
class Scripted:
    """One canned answer: status, raw body and headers."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class FakeEmbeddingsApi:
    """What the fake server saw and what it will say next (scripted answers first, then real)."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    script: list[Scripted] = field(default_factory=list)
    delay: threading.Event | None = None  # when set, requests hang until the event is set
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, path: str, body: dict[str, Any]) -> Scripted:
        with self.lock:
            self.requests.append(body)
            if self.script:
                return self.script.pop(0)
        if path != "/v1/embeddings":
            return Scripted(404, b'{"error": {"message": "no such route"}}')
        texts = body["input"]
        if any(not text.strip() for text in texts):
            # What the service says to a blank string in a batch.
            error = {"message": "'$.input' is invalid.", "type": "invalid_request_error"}
            return Scripted(400, json.dumps({"error": error}).encode())
        width = int(body.get("dimensions", 1536))
        data = []
        for index, text in enumerate(texts):
            vector = fake_vector(text, width)
            encoded: object = vector
            if body.get("encoding_format") == "base64":
                encoded = base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode()
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        data.reverse()
        tokens = sum(len(text.split()) for text in texts)
        payload = {
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        return Scripted(200, json.dumps(payload).encode())


def _handler(api: FakeEmbeddingsApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if api.delay is not None:
                api.delay.wait(5)
            reply = api.answer(self.path, body)
            try:
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(reply.body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and left

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def api() -> Iterator[FakeEmbeddingsApi]:
    yield FakeEmbeddingsApi()


@pytest.fixture
def base_url(api: FakeEmbeddingsApi) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        if api.delay is not None:
            api.delay.set()
        server.shutdown()
        server.server_close()


def client(base_url: str, *, max_retries: int = 0, timeout: float = 5.0) -> Any:
    return openai.OpenAI(
        api_key="sk-test", base_url=base_url, max_retries=max_retries, timeout=timeout
    )


def expected_rows(texts: list[str], width: int = 1536) -> np.ndarray:
    rows = np.asarray([fake_vector(text, width) for text in texts], dtype=np.float32)
    return np.asarray(rows / np.linalg.norm(rows, axis=1, keepdims=True), dtype=np.float32)


# --- success -----------------------------------------------------------------------------------


def test_rows_come_back_normalised_in_input_order(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN an embedder over the fake API, which returns items in reverse order
    embedder = OpenAIEmbedder(client(base_url), MODEL)
    texts = ["alpha", "bravo charlie", "delta", "echo foxtrot golf"]

    # WHEN the texts are embedded
    rows = embedder.embed(texts)

    # THEN each row is the text's own vector, unit length, float32, in input order
    assert rows.dtype == np.float32 and rows.shape == (4, 1536)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(rows, expected_rows(texts), atol=1e-6)
    # ... in one request, for the configured model
    assert len(api.requests) == 1 and api.requests[0]["model"] == MODEL
    assert api.requests[0]["input"] == texts


def test_texts_are_sent_in_batches_of_batch_size(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN a batch size of 2 and five texts
    embedder = OpenAIEmbedder(client(base_url), MODEL, batch_size=2)
    texts = [f"text number {i}" for i in range(5)]

    # WHEN they are embedded
    rows = embedder.embed(texts)

    # THEN three requests of 2, 2 and 1 texts were made and the rows still follow the input
    assert [request["input"] for request in api.requests] == [texts[0:2], texts[2:4], texts[4:]]
    np.testing.assert_allclose(rows, expected_rows(texts), atol=1e-6)


def test_dimensions_are_requested_and_named(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN an embedder asking for 256-wide vectors
    embedder = OpenAIEmbedder(client(base_url), MODEL, dimensions=256)

    # WHEN a text is embedded
    rows = embedder.embed(["short vectors"])

    # THEN the request asked for 256 dimensions, the rows have them, and the name says so
    assert api.requests[0]["dimensions"] == 256
    assert rows.shape == (1, 256) and embedder.dimension == 256
    assert embedder.name == f"{MODEL}@256"
    assert OpenAIEmbedder(client(base_url), MODEL).name == MODEL


def test_blank_texts_are_sent_as_a_placeholder(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN texts including an empty and a blank one (the real API refuses both in a batch)
    embedder = OpenAIEmbedder(client(base_url), MODEL)

    # WHEN they are embedded
    rows = embedder.embed(["words", "", "   "])

    # THEN the service saw the placeholder instead, and every row is a unit vector
    assert api.requests[0]["input"] == ["words", BLANK_PLACEHOLDER, BLANK_PLACEHOLDER]
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-6)


def test_no_texts_make_no_request(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN an embedder
    embedder = OpenAIEmbedder(client(base_url), MODEL)

    # WHEN nothing is embedded
    rows = embedder.embed([])

    # THEN the answer is empty and the service was not called
    assert rows.shape == (0, 1536)
    assert api.requests == []


# --- failures ----------------------------------------------------------------------------------


def _error(status: int, message: str) -> Scripted:
    body = json.dumps({"error": {"message": message, "type": "server_error"}}).encode()
    return Scripted(status, body, {"retry-after-ms": "1"})


@pytest.mark.parametrize("status", [429, 500, 503])
def test_throttling_and_server_errors_are_transient_after_the_sdk_retries(
    base_url: str, api: FakeEmbeddingsApi, status: int
) -> None:
    # GIVEN a client that retries twice and a service that keeps failing with `status`
    api.script = [_error(status, "busy")] * 3
    embedder = OpenAIEmbedder(client(base_url, max_retries=2), MODEL)

    # WHEN a text is embedded
    with pytest.raises(TransientError, match=str(status)):
        embedder.embed(["anything"])

    # THEN the SDK tried three times before certiq gave up
    assert len(api.requests) == 3


def test_a_throttle_that_clears_within_the_retries_succeeds(
    base_url: str, api: FakeEmbeddingsApi
) -> None:
    # GIVEN a service that throttles once, then answers
    api.script = [_error(429, "slow down")]
    embedder = OpenAIEmbedder(client(base_url, max_retries=2), MODEL)

    # WHEN a text is embedded
    rows = embedder.embed(["patience"])

    # THEN the SDK's retry got the vector
    np.testing.assert_allclose(rows, expected_rows(["patience"]), atol=1e-6)
    assert len(api.requests) == 2


def test_a_timeout_is_transient(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN a service that does not answer within the client's timeout
    api.delay = threading.Event()
    embedder = OpenAIEmbedder(client(base_url, timeout=0.3), MODEL)

    # WHEN a text is embedded, THEN the timeout is raised as transient
    with pytest.raises(TransientError, match="unreachable"):
        embedder.embed(["too slow"])


def test_a_refusal_is_not_transient(base_url: str, api: FakeEmbeddingsApi) -> None:
    # GIVEN a service that refuses the key
    api.script = [_error(401, "Incorrect API key provided")]
    embedder = OpenAIEmbedder(client(base_url, max_retries=2), MODEL)

    # WHEN a text is embedded, THEN a non-transient error names the status, with no retry
    with pytest.raises(EmbeddingServiceError, match="401") as caught:
        embedder.embed(["anything"])
    assert not isinstance(caught.value, TransientError)
    assert len(api.requests) == 1


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"<html>bad gateway</html>", id="not-json"),
        pytest.param(b'{"object": "list", "data": []}', id="no-vectors"),
        pytest.param(
            b'{"object": "list", "model": "m", "usage": {"prompt_tokens": 1, "total_tokens": 1},'
            b' "data": [{"object": "embedding", "index": 0, "embedding": [0.1, 0.2]}]}',
            id="wrong-width",
        ),
        pytest.param(
            b'{"object": "list", "model": "m", "usage": {"prompt_tokens": 1, "total_tokens": 1},'
            b' "data": [{"object": "embedding", "index": 7, "embedding": "AAAAAA=="}]}',
            id="bad-index",
        ),
    ],
)
def test_a_malformed_body_raises_a_clear_error(
    base_url: str, api: FakeEmbeddingsApi, body: bytes
) -> None:
    # GIVEN a service answering 200 with a body that does not fit the request
    api.script = [Scripted(200, body)]
    embedder = OpenAIEmbedder(client(base_url), MODEL)

    # WHEN a text is embedded, THEN certiq raises its own error, not an SDK or numpy one
    with pytest.raises(EmbeddingServiceError, match="OpenAI embeddings"):
        embedder.embed(["anything"])


# --- construction ------------------------------------------------------------------------------


def test_an_unknown_model_needs_its_dimensions(base_url: str) -> None:
    # GIVEN a model whose default width certiq does not know
    # WHEN an embedder is built without dimensions, THEN it is refused
    with pytest.raises(ValueError, match="dimensions"):
        OpenAIEmbedder(client(base_url), "some-new-embedding-model")
    # ... and accepted with them
    assert OpenAIEmbedder(client(base_url), "some-new-embedding-model", 64).dimension == 64


def test_from_settings_without_a_key_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN no OPENAI_API_KEY in the environment and no keys' secret
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    # WHEN the embedder is built from settings, THEN the error names the missing key
    with pytest.raises(ConfigurationError, match="needs OPENAI_API_KEY"):
        OpenAIEmbedder.from_settings(EmbeddingSettings(provider="openai"), LlmSettings())
