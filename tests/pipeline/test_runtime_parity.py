"""One scenario table, two runtimes: the local interpreter and moto's Step Functions executor
(the deployed shape of tests/pipeline/test_aws_stack.py) run the same answer.asl.json over the
same steps, and must agree on the states visited, how often each step was called, and the error
Record failure was handed.

Faults are injected into certiq.steps.STEPS, which both runtimes call: the local runtime directly,
moto through each function's own functions/<name>/app.py (loaded afresh on every invocation).
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.errors import TransientError
from certiq.ingestion.service import Upload, ingest
from certiq.models import QuestionState
from certiq.questions import receive
from certiq.steps import STEPS, placeholder
from tests.conftest import build_pdf
from tests.pipeline.test_aws_stack import (
    POLICY,
    QUESTION,
    Stack,
    ask,
    function_name,
    indexed,
    stack,
)

__all__ = ["indexed", "stack"]  # the moto stack's fixtures, shared


@dataclass
class Faults:
    """Errors each step raises on its next calls, then the real step; every call is counted,
    and the error Record failure receives is kept."""

    pending: dict[str, list[Exception]]
    calls: Counter[str] = field(default_factory=Counter)
    recorded: list[dict[str, str]] = field(default_factory=list)

    def wrap(self, name: str, step: Callable[[QuestionState, Deps], QuestionState]) -> Any:
        def faulty(state: QuestionState, deps: Deps) -> QuestionState:
            self.calls[name] += 1
            if name == "record_failure" and state.error is not None:
                self.recorded.append(state.error.model_dump())
            queue = self.pending.get(name)
            if queue:
                raise queue.pop(0)
            return step(state, deps)

        return faulty


@contextlib.contextmanager
def installed(faults: Faults) -> Iterator[None]:
    """STEPS with every step wrapped by ``faults``, restored after."""
    originals = dict(STEPS)
    STEPS.update({name: faults.wrap(name, step) for name, step in originals.items()})
    try:
        yield
    finally:
        STEPS.update(originals)


def error_shape(recorded: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    """(Error, the envelope's errorType, its errorMessage): what both runtimes must agree on."""
    shapes = []
    for error in recorded:
        envelope = json.loads(error["Cause"]) if error["Cause"].startswith("{") else {}
        shapes.append(
            (error["Error"], envelope.get("errorType", ""), envelope.get("errorMessage", ""))
        )
    return shapes


SCENARIOS: dict[str, tuple[str, Callable[[], dict[str, list[Exception]]]]] = {
    "happy path": (QUESTION, dict),
    "rejected at Validate": ("backups?", dict),
    "transient error twice, then the step works": (
        QUESTION,
        lambda: {"retrieve": [TransientError("index slow"), TransientError("index slow")]},
    ),
    "non-retryable error": (QUESTION, lambda: {"answer": [ValueError("no draft")]}),
    "Record failure itself failing": (
        QUESTION,
        lambda: {"answer": [ValueError("no draft")], "record_failure": [ValueError("down")]},
    ),
}


def run_local(tmp_path: Path, question: str, faults: Faults) -> tuple[list[str], str]:
    deps = build_deps(Settings(home=tmp_path / "local"))
    record = ingest(
        Upload(
            data=build_pdf(POLICY),
            file_name="data retention.pdf",
            uri="file:///policies/data%20retention.pdf",
            tenant="default",
        ),
        deps,
    )
    assert record.status.value == "INDEXED"
    faults.calls.clear()
    run = LocalRuntime(deps, sleep=lambda _: None).run(receive(question, deps))
    return run.execution.visited, run.execution.status


def run_moto(stack: Stack, question: str, faults: Faults) -> tuple[list[str], str]:
    stack.runner.invoked.clear()
    faults.calls.clear()
    question_id = ask(stack, question)
    status = stack.finish(question_id)
    return stack.entered_states(question_id), status


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_both_runtimes_walk_call_and_report_alike(
    scenario: str, indexed: Stack, tmp_path: Path
) -> None:
    question, plan = SCENARIOS[scenario]
    # GIVEN the same faults planned for each runtime
    local_faults, moto_faults = Faults(plan()), Faults(plan())

    # WHEN the scenario runs locally, then on the moto stack
    with installed(local_faults):
        local_walk, local_status = run_local(tmp_path, question, local_faults)
    with installed(moto_faults):
        moto_walk, moto_status = run_moto(indexed, question, moto_faults)

    # THEN they visit the same states, end the same way, call each step as often, and hand
    # Record failure the same error
    assert local_walk == moto_walk
    assert local_status == moto_status
    assert local_faults.calls == moto_faults.calls
    invoked = Counter(indexed.runner.invoked)
    for name, calls in moto_faults.calls.items():
        function = function_name(placeholder(name)[2:-4])  # ${XFunctionArn} -> XFunction
        assert invoked[function] == calls, name
    assert error_shape(local_faults.recorded) == error_shape(moto_faults.recorded)


def test_both_runtimes_reuse_a_verified_answer_alike(indexed: Stack, tmp_path: Path) -> None:
    # GIVEN each runtime has answered the question once, fully verified
    local_faults, moto_faults = Faults({}), Faults({})
    deps = build_deps(Settings(home=tmp_path / "local"))
    ingest(
        Upload(
            data=build_pdf(POLICY),
            file_name="data retention.pdf",
            uri="file:///policies/data%20retention.pdf",
            tenant="default",
        ),
        deps,
    )
    with installed(local_faults):
        runtime = LocalRuntime(deps, sleep=lambda _: None)
        runtime.run(receive(QUESTION, deps))
        # WHEN it is asked again
        local_faults.calls.clear()
        again = runtime.run(receive(QUESTION, deps)).execution
    with installed(moto_faults):
        indexed.finish(ask(indexed))
        moto_faults.calls.clear()
        moto_walk, moto_status = run_moto(indexed, QUESTION, moto_faults)

    # THEN both take the reuse path: the same states, the same steps called, drafting skipped
    assert again.visited == moto_walk and again.status == moto_status == "SUCCEEDED"
    assert local_faults.calls == moto_faults.calls
    assert "answer" not in local_faults.calls and local_faults.calls["find_verified_answer"] == 1


def test_both_runtimes_end_early_at_redact_alike(indexed: Stack, tmp_path: Path) -> None:
    # GIVEN the block policy for personal data, in each runtime, and a question holding an email
    question = "How long are backups of ann@example.com kept?"
    local_faults, moto_faults = Faults({}), Faults({})
    deps = build_deps(Settings(home=tmp_path / "local", redaction={"policy": "block"}))  # type: ignore[arg-type]
    indexed.runner.harness["CERTIQ_REDACTION__POLICY"] = "block"
    # WHEN it is asked in each
    with installed(local_faults):
        local = LocalRuntime(deps, sleep=lambda _: None).run(receive(question, deps)).execution
    with installed(moto_faults):
        moto_walk, moto_status = run_moto(indexed, question, moto_faults)
    # THEN both end early after Redact, the same way, having called the same steps
    assert local.visited == moto_walk and local.status == moto_status == "SUCCEEDED"
    assert "Redact personal data" in moto_walk and "Retrieve evidence" not in moto_walk
    assert local_faults.calls == moto_faults.calls
