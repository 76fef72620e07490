"""GET /v1/questions/{id}/events: a question's states as server-sent events, on `certiq serve`."""

from __future__ import annotations

import dataclasses
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.ingestion.service import Upload, ingest
from certiq.models import QuestionStatus
from certiq.ports import QuestionStore
from tests.conftest import MakePdf
from tests.pipeline.test_api import FACT, QUESTION, Api, running

# Each state lasts at least this long, so that the test sees every one however fast the steps.
HOLD_SECONDS = 0.3


class HeldStatuses:
    """A QuestionStore whose every new status is recorded after HOLD_SECONDS and held as long."""

    def __init__(self, store: QuestionStore) -> None:
        self._store = store

    def set_status(
        self, question_id: str, status: QuestionStatus, reason: str | None = None
    ) -> None:
        time.sleep(HOLD_SECONDS)
        self._store.set_status(question_id, status, reason)
        time.sleep(HOLD_SECONDS)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.fixture
def slow_api(tmp_path: Path, make_pdf: MakePdf) -> Iterator[Api]:
    base = build_deps(Settings(home=tmp_path))
    deps = dataclasses.replace(base, questions=HeldStatuses(base.questions))
    upload = Upload(
        data=make_pdf([[FACT]]), file_name="b.pdf", uri="file:///b.pdf", tenant="default"
    )
    yield from running(deps, [ingest(upload, deps)])


def read_events(api: Api, question_id: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """Reads the whole stream: its Content-Type and its (event, data) pairs, in order."""
    url = f"{api.base_url}/v1/questions/{question_id}/events"
    events: list[tuple[str, dict[str, Any]]] = []
    name = ""
    with urllib.request.urlopen(url, timeout=30) as response:
        content_type = response.headers["Content-Type"]
        for raw in response:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((name, json.loads(line.removeprefix("data: "))))
    return content_type, events


def test_the_stream_sends_every_state_as_it_starts_and_ends_then_the_result(slow_api: Api) -> None:
    # GIVEN a question just accepted
    status, accepted = slow_api.call("POST", "/v1/questions", {"question": QUESTION})
    assert status == 202, accepted

    # WHEN its events are read to the end
    content_type, events = read_events(slow_api, accepted["question_id"])

    # THEN every state is there, in order, each started then ended
    assert content_type.startswith("text/event-stream")
    states = [(data["status"], data["phase"]) for name, data in events if name == "status"]
    expected = ["RECEIVED", "MODERATING_QUESTION", "RETRIEVING", "GENERATING_ANSWER", "VERIFYING"]
    assert states == [(state, phase) for state in expected for phase in ("started", "ended")]
    # AND the last event is the result, the body GET /v1/questions/{id} answers, and then it ends
    name, result = events[-1]
    assert name == "result"
    assert result["status"] == "COMPLETE"
    assert FACT in result["response"]["answer"]
    polled = slow_api.call("GET", f"/v1/questions/{accepted['question_id']}")[1]
    assert result["question_id"] == polled["question_id"]
    assert result["response"]["answer"] == polled["response"]["answer"]


def test_the_stream_of_an_ended_question_is_its_result_alone(slow_api: Api) -> None:
    # GIVEN a question answered already
    question_id = slow_api.ask()["question_id"]
    # WHEN its events are read
    _, events = read_events(slow_api, question_id)
    # THEN the stream is the result alone
    assert [name for name, _ in events] == ["result"]
    assert events[0][1]["status"] == "COMPLETE"


def test_the_stream_of_an_unknown_question_is_a_json_404(slow_api: Api) -> None:
    status, body = slow_api.call("GET", "/v1/questions/q-none/events")
    assert (status, body) == (404, {"statusCode": 404, "message": "no question q-none"})
    assert slow_api.call("POST", "/v1/questions/q-none/events")[0] == 405
