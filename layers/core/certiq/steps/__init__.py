"""One function per state of answer.asl.json, each pure over (state, deps): no boto3 here.

STEPS maps a step's name to its callable. The name also fixes the Lambda function directory
(functions/<name>/) and the ASL placeholder (${<CamelName>FunctionArn}).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from certiq.deps import Deps
from certiq.models import QuestionState
from certiq.steps.answer import answer
from certiq.steps.find_verified_answer import find_verified_answer
from certiq.steps.guard_answer import guard_answer
from certiq.steps.persist import persist
from certiq.steps.record_failure import record_failure
from certiq.steps.redact import redact
from certiq.steps.retrieve import retrieve
from certiq.steps.translate import translate
from certiq.steps.validate import validate
from certiq.steps.verify import verify

Step = Callable[[QuestionState, Deps], QuestionState]


def _timed(name: str, step: Step) -> Step:
    """Records the step's own duration in the state, so answers show where time went."""

    def run(state: QuestionState, deps: Deps) -> QuestionState:
        started = time.perf_counter()
        result = step(state, deps)
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        result.timings_ms = {**result.timings_ms, name: elapsed}
        return result

    run.__name__ = name
    return run


STEPS: dict[str, Step] = {
    step.__name__: _timed(step.__name__, step)
    for step in (
        validate,
        redact,
        translate,
        retrieve,
        find_verified_answer,
        answer,
        verify,
        guard_answer,
        persist,
        record_failure,
    )
}


def placeholder(step_name: str) -> str:
    """The ASL Resource that names a step: record_failure -> ${RecordFailureFunctionArn}."""
    camel = "".join(part.capitalize() for part in step_name.split("_"))
    return "${" + camel + "FunctionArn}"
