"""Retry and Catch of answer.asl.json, as the local runtime runs them, with a failing index."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.errors import ConfigurationError, TransientError
from certiq.ingestion.service import Upload, ingest
from certiq.models import QuestionStatus, SearchHit
from certiq.ports import SearchIndex
from certiq.questions import receive
from tests.conftest import MakePdf
from tests.fakes import DelegatingIndex

FACT = "Backups of customer data are kept for 35 days."
QUESTION = "How long are backups of customer data kept?"


class FailingSearchIndex(DelegatingIndex):
    """The real index, except that search raises ``error`` on its first ``times`` calls
    (every call when ``times`` is None)."""

    def __init__(self, inner: SearchIndex, error: Exception, times: int | None = None) -> None:
        super().__init__(inner)
        self._error = error
        self._times = times
        self.searches = 0

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        self.searches += 1
        if self._times is None or self.searches <= self._times:
            raise self._error
        return self.inner.search(tenant, query, k, collection=collection)


@pytest.fixture
def deps(tmp_path: Path, make_pdf: MakePdf) -> Deps:
    """Local deps with one indexed document that answers QUESTION."""
    deps = build_deps(Settings(home=tmp_path))
    record = ingest(
        Upload(
            data=make_pdf([[FACT]]),
            file_name="backups.pdf",
            uri="file:///in/b.pdf",
            tenant="default",
        ),
        deps,
    )
    assert record.status.value == "INDEXED"
    return deps


def test_an_error_in_a_step_is_caught_and_recorded_as_failed(deps: Deps) -> None:
    # GIVEN an index whose search always fails with an error that is not retried
    index = FailingSearchIndex(deps.index, RuntimeError("search engine unreachable"))
    failing = dataclasses.replace(deps, index=index)
    sleeps: list[float] = []
    state = receive(QUESTION, failing)

    # WHEN the question runs through the state machine
    run = LocalRuntime(failing, sleep=sleeps.append).run(state)

    # THEN Catch sent it to Record failure without retrying, and the question is FAILED
    assert index.searches == 1 and sleeps == []
    assert run.execution.status == "FAILED"
    assert run.execution.visited[-2:] == ["Record failure", "Question failed"]
    record = deps.questions.get(state.question_id)
    assert record is not None
    assert record.status is QuestionStatus.FAILED
    # AND its reason names the error and nothing internal: the message of an error that is not
    # certiq's own may hold anything, so it stays in the execution's history
    assert record.reason == "RuntimeError: an internal error ended the question"
    assert record.response is not None
    assert record.response.status is QuestionStatus.FAILED
    assert record.response.message and "RuntimeError" in record.response.message
    assert deps.certificates.get(f"cert-{state.question_id}") is None


def test_a_failed_question_shows_no_stack_trace_and_no_server_path(
    deps: Deps, tmp_path: Path
) -> None:
    # GIVEN a step failing with certiq's own error, whose message names a server file, raised
    # from deep in the code (so the Cause carries a stack trace, as Lambda's does)
    path = tmp_path / "index" / "chunks.db"
    index = FailingSearchIndex(deps.index, ConfigurationError(f"cannot open {path}"))
    failing = dataclasses.replace(deps, index=index)
    state = receive(QUESTION, failing)

    # WHEN it runs, and the Catch hands Record failure the Cause (Lambda's envelope)
    run = LocalRuntime(failing, sleep=lambda _: None).run(state)
    assert run.execution.visited[-2:] == ["Record failure", "Question failed"]

    # THEN the question's reason, as the API returns it, keeps the message, masks the path and
    # carries no trace
    record = deps.questions.get(state.question_id)
    assert record is not None
    assert record.reason == "ConfigurationError: cannot open [path]"
    view = json.dumps(record.model_dump(mode="json"))
    assert str(tmp_path) not in view and "stackTrace" not in view and ".py" not in view


def test_a_transient_error_is_retried_and_the_question_completes(deps: Deps) -> None:
    # GIVEN an index whose search fails transiently twice, then works
    index = FailingSearchIndex(deps.index, TransientError("throttled"), times=2)
    flaky = dataclasses.replace(deps, index=index)
    sleeps: list[float] = []
    state = receive(QUESTION, flaky)

    # WHEN the question runs through the state machine
    run = LocalRuntime(flaky, sleep=sleeps.append).run(state)

    # THEN Retry ran search a third time after two back-offs, and the answer is complete
    assert index.searches == 3
    assert len(sleeps) == 2
    assert run.execution.status == "SUCCEEDED"
    assert "Record failure" not in run.execution.visited
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    assert record.status is QuestionStatus.COMPLETE
    assert record.reason is None
    assert FACT in record.response.answer
