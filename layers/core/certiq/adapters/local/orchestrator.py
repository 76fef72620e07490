"""The local runtime: runs answer.asl.json in-process, each Task dispatched to its step.

Each Task receives and returns JSON, exactly as a Lambda function would, so what runs here is
what runs in Step Functions: the order, Choice, Retry and Catch all come from the ASL file.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from certiq.deps import Deps
from certiq.models import QuestionState
from certiq.statemachine.interpreter import Execution, StateMachine
from certiq.steps import STEPS, placeholder


@dataclass(frozen=True)
class LocalRun:
    state: QuestionState
    execution: Execution

    @property
    def overhead_ms(self) -> float:
        """The interpreter's own time: total minus time inside the Tasks and retry waits."""
        return self.execution.overhead_seconds * 1000


class LocalRuntime:
    """Implements the Orchestrator port locally; also runs a question to completion."""

    def __init__(self, deps: Deps, *, sleep: Callable[[float], None] | None = None) -> None:
        self._deps = deps
        definition = json.loads(deps.settings.asl_path.read_text(encoding="utf-8"))
        resources = {placeholder(name): self._task(name) for name in STEPS}
        options: dict[str, Any] = {} if sleep is None else {"sleep": sleep}
        self._machine = StateMachine(definition, resources, **options)
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _task(self, name: str) -> Callable[[Any], Any]:
        step = STEPS[name]

        def invoke(payload: Any) -> Any:
            return step(QuestionState.model_validate(payload), self._deps).model_dump(mode="json")

        return invoke

    def run(self, state: QuestionState) -> LocalRun:
        execution = self._machine.execute(state.model_dump(mode="json"))
        final = state
        if isinstance(execution.output, dict):
            final = QuestionState.model_validate(execution.output)
        return LocalRun(state=final, execution=execution)

    def start(self, state: QuestionState) -> str:
        """Runs the question in a background thread, as Step Functions would, and returns."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="certiq-run")
        self._pool.submit(self.run, state)
        return f"local:{state.question_id}"
