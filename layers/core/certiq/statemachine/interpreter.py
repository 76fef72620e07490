"""A small interpreter of the Amazon States Language subset certiq uses.

Why our own: AWS documents Step Functions Local as unsupported, and the state machine file
(certiq/statemachine/answer.asl.json, package data) is the single source of truth for the order
of the steps, their branching, Retry and Catch. The local runtime therefore executes that same
file in-process, with each Task Resource (the literal string, e.g. "${ValidateFunctionArn}")
mapped to a Python callable. There is no second hand-written copy of the pipeline.

Supported (JSONPath query language only), and no more than answer.asl.json uses, so that what is
interpreted here is what the file exercises:

- States: Task, Choice, Succeed, Fail.
- Task: Resource, TimeoutSeconds, Retry (ErrorEquals, IntervalSeconds, MaxAttempts,
  BackoffRate, JitterStrategy), Catch (ErrorEquals, ResultPath, Next). A Task's result is the
  next state's input.
- Paths: ``$``, ``$.a.b``, ``$.a[0]`` in a Catch's ResultPath and a Choice's ``Variable``.
- Choice: BooleanEquals, IsPresent, IsNull, And, Or, Not; Default.

Anything else (Pass, Map, Parallel, Wait, InputPath, OutputPath, Parameters, ResultSelector,
string and numeric comparisons, intrinsic functions, the ``$$`` context object, ...) is rejected
with :class:`AslError` when the machine is built, so an edit to the file that needs more fails
loudly in tests rather than running on an interpreter that was never tried on it.

The machine (this module) compiles the definition and runs it state by state; the states are in
certiq.statemachine.states, errors with their Retry and Catch in certiq.statemachine.error_handling,
and the definition's paths and fields in certiq.statemachine.definition.

Error names: a callable's exception is named by its class name (``TransientError``), or by
``StatesError.error`` when it raises :class:`StatesError`. Data-path failures (a missing Choice
Variable, a ResultPath that cannot be written) are terminal ``States.Runtime``-family errors:
like AWS's ``States.Runtime`` they are neither retried nor caught.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from certiq.statemachine.definition import AslError, Fields
from certiq.statemachine.error_handling import STATES_RUNTIME, StatesError, _Terminal, error_name
from certiq.statemachine.states import (
    _CHOICE_FIELDS,
    _FAIL_FIELDS,
    _SUCCEED_FIELDS,
    _TASK_FIELDS,
    TaskCallable,
    _ChoiceState,
    _FailState,
    _Run,
    _State,
    _SucceedState,
    _TaskState,
)

__all__ = [
    "AslError",
    "Execution",
    "HistoryEvent",
    "StateMachine",
    "StatesError",
    "error_name",
    "task_resources",
]

Status = Literal["SUCCEEDED", "FAILED"]


class HistoryEvent(NamedTuple):
    """One history entry; ``duration`` is 0.0 on entry and the time spent in the state on exit."""

    state: str
    phase: Literal["entered", "exited"]
    duration: float


@dataclass(frozen=True, slots=True)
class Execution:
    """The outcome of one run. ``output`` is None when the execution FAILED."""

    status: Status
    output: Any
    error: str | None
    cause: str | None
    history: list[HistoryEvent]
    total_seconds: float
    task_seconds: float
    sleep_seconds: float = 0.0
    transitions: int = 0

    @property
    def overhead_seconds(self) -> float:
        """Time spent in the interpreter itself: total minus tasks minus retry back-off sleeps."""
        return self.total_seconds - self.task_seconds - self.sleep_seconds

    @property
    def visited(self) -> list[str]:
        """State names in the order they were entered."""
        return [e.state for e in self.history if e.phase == "entered"]


_TOP_FIELDS = frozenset({"Comment", "StartAt", "States", "Version", "QueryLanguage"})


# --------------------------------------------------------------------------- machine


def _load(definition: str | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(definition, str):
        try:
            loaded = json.loads(definition)
        except json.JSONDecodeError as exc:
            raise AslError(f"definition is not valid JSON: {exc}") from None
    else:
        loaded = dict(definition)
    if not isinstance(loaded, dict):
        raise AslError("definition must be a JSON object")
    return loaded


def task_resources(definition: str | Mapping[str, Any]) -> set[str]:
    """Every Task Resource string the definition names, so callers can map each to a callable."""
    states = _load(definition).get("States")
    if not isinstance(states, dict):
        raise AslError("States must be an object")
    return {
        s["Resource"]
        for s in states.values()
        if isinstance(s, dict) and s.get("Type") == "Task" and isinstance(s.get("Resource"), str)
    }


class StateMachine:
    """An ASL definition validated and compiled once, executed many times.

    ``resources`` maps each Task's Resource string exactly as written (placeholders included) to
    a callable taking the state's effective input and returning its result. ``sleep``, ``rng``
    and ``clock`` are injectable so tests exercise Retry without waiting.
    """

    def __init__(
        self,
        definition: str | Mapping[str, Any],
        resources: Mapping[str, TaskCallable],
        *,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.perf_counter,
        max_transitions: int = 1000,
    ) -> None:
        if max_transitions < 1:
            raise ValueError("max_transitions must be >= 1")
        raw = _load(definition)
        top = Fields(raw, "definition", _TOP_FIELDS)
        if raw.get("QueryLanguage", "JSONPath") != "JSONPath":
            raise AslError("only the JSONPath query language is supported")
        start = top.str_("StartAt", required=True)
        assert start is not None
        states = raw.get("States")
        if not isinstance(states, dict) or not states:
            raise AslError("States must be a non-empty object")

        self._states: dict[str, _State] = {
            name: self._compile_state(name, body, resources) for name, body in states.items()
        }
        if start not in self._states:
            raise AslError(f"StartAt {start!r} is not a state")
        for state in self._states.values():
            for target in state.targets():
                if target not in self._states:
                    raise AslError(f"{state.name}: transition to unknown state {target!r}")
        self._check_reachable(start)

        self.start_at = start
        self.comment: str | None = top.str_("Comment")
        self._sleep = sleep
        self._rng = rng if rng is not None else random.Random()
        self._clock = clock
        self._max_transitions = max_transitions

    @classmethod
    def from_file(
        cls, path: str | Path, resources: Mapping[str, TaskCallable], **kwargs: Any
    ) -> StateMachine:
        return cls(Path(path).read_text(encoding="utf-8"), resources, **kwargs)

    @property
    def state_names(self) -> list[str]:
        return list(self._states)

    @staticmethod
    def _compile_state(name: str, body: Any, resources: Mapping[str, TaskCallable]) -> _State:
        where = f"state {name!r}"
        kind = body.get("Type") if isinstance(body, dict) else None
        if kind == "Task":
            return _TaskState(name, Fields(body, where, _TASK_FIELDS), resources)
        if kind == "Choice":
            return _ChoiceState(name, Fields(body, where, _CHOICE_FIELDS))
        if kind == "Succeed":
            return _SucceedState(name, Fields(body, where, _SUCCEED_FIELDS))
        if kind == "Fail":
            return _FailState(name, Fields(body, where, _FAIL_FIELDS))
        raise AslError(f"{where}: unsupported state type {kind!r}")

    def _check_reachable(self, start: str) -> None:
        # AWS rejects definitions with unreachable states; so do we, to keep the file honest.
        seen = {start}
        todo = [start]
        while todo:
            for target in self._states[todo.pop()].targets():
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        unreachable = [n for n in self._states if n not in seen]
        if unreachable:
            raise AslError(f"unreachable state(s): {', '.join(unreachable)}")

    def execute(self, input: Any) -> Execution:
        """Run the machine on ``input`` (JSON-like; never mutated) to SUCCEEDED or FAILED.

        Task callables should treat their input as read-only: it may share structure with the
        execution's data, as no defensive deep copy is made (that would cost more than the steps).
        """
        clock = self._clock
        ctx = _Run(clock, self._sleep, self._rng)
        history: list[HistoryEvent] = []
        started = clock()
        name: str | None = self.start_at
        data = input
        transitions = 0
        status: Status = "SUCCEEDED"
        error: str | None = None
        cause: str | None = None
        while name is not None:
            if transitions >= self._max_transitions:
                status, data = "FAILED", None
                error = STATES_RUNTIME
                cause = f"exceeded max_transitions={self._max_transitions} (a loop?)"
                break
            transitions += 1
            state = self._states[name]
            history.append(HistoryEvent(name, "entered", 0.0))
            entered = clock()
            try:
                next_name, data = state.run(data, ctx)
            except _Terminal as exc:
                history.append(HistoryEvent(name, "exited", clock() - entered))
                status, data, error, cause = "FAILED", None, exc.error, exc.cause
                break
            history.append(HistoryEvent(name, "exited", clock() - entered))
            name = next_name
        return Execution(
            status=status,
            output=data,
            error=error,
            cause=cause,
            history=history,
            total_seconds=clock() - started,
            task_seconds=ctx.task_seconds,
            sleep_seconds=ctx.sleep_seconds,
            transitions=transitions,
        )
