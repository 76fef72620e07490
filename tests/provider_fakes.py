"""HTTP-level fakes of the model providers: a real HTTP server on 127.0.0.1 that answers in the
providers' documented shapes, so the real SDK clients (request building, parsing, retries,
timeouts) run exactly as they do against the services.

Use the ``provider_server`` fixture (tests/conftest.py): point an SDK at ``server.anthropic_url``
or ``server.openai_url``, queue replies with ``server.script`` (consumed first, in order) or set
``server.responder`` to compute them, and read what was sent in ``server.requests``.

Shapes follow the public API references: Anthropic Messages (POST /v1/messages: message with
content blocks text / tool_use, text blocks may carry ``citations``; usage with cache fields;
errors {"type": "error", "error": {"type", "message"}}) and OpenAI Chat Completions (POST
/v1/chat/completions: choices[].message.content / refusal; usage with prompt_tokens_details;
errors {"error": {"message", "type", "param", "code"}}).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from certiq.adapters.llm.anthropic_chat import AnthropicChat
from certiq.adapters.llm.clients import Provider, anthropic_client, openai_client
from certiq.adapters.llm.openai_chat import OpenAIChat
from certiq.adapters.llm.structured_output import AnthropicStructured, OpenAIStructured
from certiq.config import LlmSettings


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | bytes = b"{}"
    headers: dict[str, str] = field(default_factory=dict)
    delay_seconds: float = 0.0  # longer than the client's timeout: the SDK sees a timeout


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


Responder = Callable[[Recorded], Reply]


@dataclass
class ProviderServer:
    base: str = ""
    requests: list[Recorded] = field(default_factory=list)
    script: list[Reply] = field(default_factory=list)
    responder: Responder | None = None
    closing: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def anthropic_url(self) -> str:
        return self.base  # the SDK appends /v1/messages

    @property
    def openai_url(self) -> str:
        return f"{self.base}/v1"  # the SDK appends /chat/completions

    def paths(self) -> list[str]:
        return [request.path for request in self.requests]

    def _answer(self, request: Recorded) -> Reply:
        with self.lock:
            self.requests.append(request)
            if self.script:
                return self.script.pop(0)
        if self.responder is not None:
            return self.responder(request)
        return Reply(404, {"error": {"message": f"no route {request.path}", "type": "not_found"}})


def _handler(server: ProviderServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length) or b"{}"
            request = Recorded(
                path=self.path,
                headers={name.lower(): value for name, value in self.headers.items()},
                body=json.loads(raw),
            )
            reply = server._answer(request)
            if reply.delay_seconds:
                server.closing.wait(reply.delay_seconds)
            body = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and left

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def serve() -> Iterator[ProviderServer]:
    """Runs a ProviderServer until the generator is closed (see the conftest fixture)."""
    fake = ProviderServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    fake.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield fake
    finally:
        fake.closing.set()
        httpd.shutdown()
        httpd.server_close()


def llm_settings(server: ProviderServer, **overrides: object) -> LlmSettings:
    """LlmSettings pointing both SDKs at the fake: short timeout, no SDK retries unless asked."""
    fields: dict[str, object] = {
        "anthropic_base_url": server.anthropic_url,
        "openai_base_url": server.openai_url,
        "timeout_seconds": 2.0,
        "max_retries": 0,
    }
    fields.update(overrides)
    return LlmSettings.model_validate(fields)


def anthropic_chat(
    server: ProviderServer, *, max_output_tokens: int = 256, **settings: object
) -> AnthropicChat:
    """Claude's ChatModel on the fake (ANTHROPIC_API_KEY set: the provider_keys fixture)."""
    llm = llm_settings(server, **settings)
    return AnthropicChat(
        anthropic_client(llm),
        llm.anthropic_model,
        max_output_tokens=max_output_tokens,
        max_sentences=3,
    )


def openai_chat(
    server: ProviderServer, *, max_output_tokens: int = 256, **settings: object
) -> OpenAIChat:
    """OpenAI's ChatModel on the fake (OPENAI_API_KEY set: the provider_keys fixture)."""
    llm = llm_settings(server, **settings)
    return OpenAIChat(
        openai_client(llm), llm.openai_model, max_output_tokens=max_output_tokens, max_sentences=3
    )


def structured_model(
    provider: Provider, server: ProviderServer, **settings: object
) -> AnthropicStructured | OpenAIStructured:
    """The provider's structured-output model (the judge's, the claim splitter's) on the fake."""
    llm = llm_settings(server, **settings)
    if provider == "anthropic":
        return AnthropicStructured(
            anthropic_client(llm), llm.anthropic_model, llm.max_output_tokens
        )
    return OpenAIStructured(openai_client(llm), llm.openai_model, llm.max_output_tokens)


# --- Anthropic Messages API shapes -----------------------------------------------------------


def anthropic_usage(
    input_tokens: int = 100, output_tokens: int = 20, cache_read: int = 0, cache_creation: int = 0
) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": cache_creation,
        "cache_read_input_tokens": cache_read,
    }


def anthropic_message(
    content: list[dict[str, Any]],
    *,
    model: str = "claude-sonnet-5",
    stop_reason: str = "end_turn",
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "id": "msg_01FakeProviderServer",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage or anthropic_usage(),
    }


def anthropic_text(text: str, citations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if citations is not None:
        block["citations"] = citations
    return block


def anthropic_search_citation(
    cited_text: str,
    *,
    source: str,
    search_result_index: int,
    title: str | None = None,
    start_block_index: int = 0,
    end_block_index: int = 1,
) -> dict[str, Any]:
    """A citation of search_result content blocks: cited_text is content[start:end] joined."""
    return {
        "type": "search_result_location",
        "cited_text": cited_text,
        "source": source,
        "title": title,
        "search_result_index": search_result_index,
        "start_block_index": start_block_index,
        "end_block_index": end_block_index,
    }


def anthropic_char_citation(
    cited_text: str, *, document_index: int, start: int, end: int, title: str | None = None
) -> dict[str, Any]:
    """A citation of a plain-text document block."""
    return {
        "type": "char_location",
        "cited_text": cited_text,
        "document_index": document_index,
        "document_title": title,
        "start_char_index": start,
        "end_char_index": end,
    }


def anthropic_search_results(request: Recorded) -> list[dict[str, Any]]:
    """The search_result blocks a Messages request sent, in order (their search_result_index)."""
    return [
        block
        for message in request.body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "search_result"
    ]


def anthropic_tool_use(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": "toolu_01FakeProviderServer",
        "name": name,
        "input": tool_input,
    }


def anthropic_error(status: int, kind: str, message: str, **headers: str) -> Reply:
    """kind: invalid_request_error, authentication_error, rate_limit_error, api_error,
    overloaded_error (529), ..."""
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return Reply(status, body, {name.replace("_", "-"): value for name, value in headers.items()})


# --- OpenAI Chat Completions shapes ------------------------------------------------------------


def openai_usage(
    prompt_tokens: int = 100, completion_tokens: int = 20, cached_tokens: int = 0
) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        "prompt_tokens_details": {"cached_tokens": cached_tokens, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
    }


def openai_completion(
    content: str | None,
    *,
    model: str = "gpt-4.1-mini",
    refusal: str | None = None,
    finish_reason: str = "stop",
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-FakeProviderServer",
        "object": "chat.completion",
        "created": 1_763_769_600,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": content,
                    "refusal": refusal,
                    "annotations": [],
                },
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": usage or openai_usage(),
        "system_fingerprint": "fp_fake",
    }


def openai_error(status: int, kind: str, message: str, **headers: str) -> Reply:
    """kind: invalid_request_error, rate_limit_exceeded / requests, server_error, ..."""
    body = {"error": {"message": message, "type": kind, "param": None, "code": None}}
    return Reply(status, body, {name.replace("_", "-"): value for name, value in headers.items()})


def text_reply(provider: Provider, text: str) -> Reply:
    """A plain text answer in the provider's shape (one text block, or the first choice)."""
    if provider == "anthropic":
        return Reply(200, anthropic_message([anthropic_text(text)]))
    return Reply(200, openai_completion(text))


# --- responders that answer from the request, as the services would --------------------------

_LABELLED_LINE = re.compile(r"^\[(S\d+)\] \([^)]*\) (.*)$", re.MULTILINE)


def anthropic_citing(words: str, **usage: int) -> Responder:
    """Claude answering with the text of each search result that holds ``words``, citing it."""

    def reply(request: Recorded) -> Reply:
        blocks = []
        for index, result in enumerate(anthropic_search_results(request)):
            text = result["content"][0]["text"]
            if words in text:
                citation = anthropic_search_citation(
                    text, source=result["source"], search_result_index=index
                )
                blocks.append(anthropic_text(text.rstrip("."), [citation]))
        blocks.append(anthropic_text("."))
        return Reply(200, anthropic_message(blocks, usage=anthropic_usage(**usage)))

    return reply


def openai_citing(words: str, sentence: str, **usage: int) -> Responder:
    """OpenAI's structured reply: ``sentence`` citing each labelled passage holding ``words``.

    Passages are read from the last user message, one a line: "[S1] (file, page 1) text".
    """

    def reply(request: Recorded) -> Reply:
        evidence = request.body["messages"][-1]["content"]
        labels = [label for label, text in _LABELLED_LINE.findall(evidence) if words in text]
        content = json.dumps({"sentences": [{"text": sentence, "citation_ids": labels}]})
        return Reply(200, openai_completion(content, usage=openai_usage(**usage)))

    return reply


def openai_stating(statements: Sequence[tuple[str, str]]) -> Responder:
    """OpenAI's structured reply of several sentences, each (sentence, words) citing every
    labelled passage that holds ``words``: an answer in the model's own words."""

    def reply(request: Recorded) -> Reply:
        evidence = request.body["messages"][-1]["content"]
        passages = _LABELLED_LINE.findall(evidence)
        sentences = [
            {"text": sentence, "citation_ids": [label for label, text in passages if words in text]}
            for sentence, words in statements
        ]
        return Reply(200, openai_completion(json.dumps({"sentences": sentences})))

    return reply


def by_provider(anthropic: Responder, openai: Responder) -> Responder:
    """One responder for both APIs, chosen by the request's path."""
    return lambda request: (
        anthropic(request) if request.path.endswith("/messages") else openai(request)
    )
