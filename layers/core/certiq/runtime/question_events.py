"""GET /v1/questions/{id}/events on `certiq serve`: a question's status as server-sent events.

Each state the question passes through is sent as it starts and as it ends (``event: status``,
data ``{"question_id", "status", "phase": "started" | "ended"}``), then the final QuestionView
(``event: result``, the body GET /v1/questions/{id} answers), and the stream ends. The states are
read from the QuestionStore as the steps record them (QuestionStore.set_status, .complete), every
POLL_SECONDS: the same record polling reads, seen sooner. A state that starts and ends within one
poll is not seen.

Only the local server offers this route: API Gateway (REST, Lambda proxy) answers a response in
one piece, so behind it the page polls GET /v1/questions/{id} instead.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Final

from certiq.api.views import question_view
from certiq.deps import Deps
from certiq.models import TERMINAL_STATUSES, QuestionRecord, QuestionStatus

EVENTS_PATH: Final = re.compile(r"/v1/questions/([A-Za-z0-9._~-]{1,200})/events")
EVENT_STREAM: Final = "text/event-stream; charset=utf-8"
POLL_SECONDS: Final = 0.01
# A comment line now and then, so proxies and the browser keep an idle stream open.
KEEPALIVE_SECONDS: Final = 15.0
# A stream ends after this long even when the question has not (the page then polls).
STREAM_SECONDS: Final = 600.0


def sse(event: str, data: object) -> bytes:
    """One server-sent event (its data one line of JSON)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class QuestionEvents:
    """The event streams of one server's questions; ``stopping`` ends them all (shutdown)."""

    def __init__(
        self,
        deps: Deps,
        stopping: threading.Event,
        *,
        poll_seconds: float = POLL_SECONDS,
        stream_seconds: float = STREAM_SECONDS,
    ) -> None:
        self._deps = deps
        self._stopping = stopping
        self._poll = poll_seconds
        self._limit = stream_seconds

    def find(self, question_id: str) -> QuestionRecord | None:
        """The tenant's question, or None: the route answers 404 before any event."""
        record = self._deps.questions.get(question_id)
        if record is None or record.tenant != self._deps.settings.tenant:
            return None
        return record

    def stream(self, record: QuestionRecord) -> Iterator[bytes]:
        """The events of the question, from its state now to its result."""
        question_id = record.question_id
        deadline = time.monotonic() + self._limit
        keepalive = time.monotonic() + KEEPALIVE_SECONDS
        # The browser reconnects after this long if the stream breaks; the page closes it first.
        yield b"retry: 2000\n\n"
        current: QuestionStatus | None = None
        while True:
            if record.status is not current:
                if current is not None:
                    yield self._status(question_id, current, "ended")
                if record.status in TERMINAL_STATUSES:
                    view = question_view(record, self._deps.documents)
                    yield sse("result", view.model_dump(mode="json", exclude_none=True))
                    return
                current = record.status
                yield self._status(question_id, current, "started")
            now = time.monotonic()
            if now >= deadline or self._stopping.is_set():
                return
            if now >= keepalive:
                keepalive = now + KEEPALIVE_SECONDS
                yield b": waiting\n\n"
            time.sleep(self._poll)
            found = self._deps.questions.get(question_id)
            if found is None:
                return
            record = found

    @staticmethod
    def _status(question_id: str, status: QuestionStatus, phase: str) -> bytes:
        return sse("status", {"question_id": question_id, "status": status.value, "phase": phase})


__all__ = ["EVENTS_PATH", "EVENT_STREAM", "QuestionEvents", "sse"]
