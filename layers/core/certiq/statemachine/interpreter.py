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

Error names: a callable's exception is named by its class name (``TransientError``), or by
``StatesError.error`` when it raises :class:`StatesError`. Data-path failures (a missing Choice
Variable, a ResultPath that cannot be written) are terminal ``States.Runtime``-family errors:
like AWS's ``States.Runtime`` they are neither retried nor caught.
"""

from __future__ import annotations

import json
import random
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from certiq.runtime.asl_definition import AslError, Fields, JsonPath, PathFailure, compile_path

__all__ = [
    "AslError",
    "Execution",
    "HistoryEvent",
    "StateMachine",
    "StatesError",
    "error_name",
    "task_resources",
]

TaskCallable = Callable[[Any], Any]
Status = Literal["SUCCEEDED", "FAILED"]

STATES_ALL = "States.ALL"
STATES_TASK_FAILED = "States.TaskFailed"
STATES_TIMEOUT = "States.Timeout"
STATES_RUNTIME = "States.Runtime"
STATES_NO_CHOICE = "States.NoChoiceMatched"
STATES_RESULT_PATH = "States.ResultPathMatchFailure"


class StatesError(Exception):
    """An error with an explicit ASL name, for names that are not Python identifiers.

    A Task callable may raise it (e.g. ``StatesError("Lambda.ServiceException", "...")``); the
    interpreter raises it for ``States.Timeout``.
    """

    def __init__(self, error: str, cause: str = "") -> None:
        super().__init__(f"{error}: {cause}" if cause else error)
        self.error = error
        self.cause = cause


class _Terminal(Exception):
    """Ends the execution FAILED without consulting Retry or Catch (Fail state, data errors)."""

    def __init__(self, error: str, cause: str) -> None:
        super().__init__(f"{error}: {cause}")
        self.error = error
        self.cause = cause


def error_name(exc: BaseException) -> str:
    """The name Retry/Catch ErrorEquals is matched against."""
    return exc.error if isinstance(exc, StatesError) else type(exc).__name__


def _error_cause(exc: BaseException) -> str:
    """The Cause a Catch hands on. For an exception from a task, the JSON envelope Lambda's Python
    runtime returns for a failed invocation, stack trace included, as Step Functions passes it:
    whatever reads a Cause locally reads what it will read in AWS."""
    if isinstance(exc, StatesError):
        return exc.cause
    return json.dumps(
        {
            "errorMessage": str(exc),
            "errorType": error_name(exc),
            "requestId": "",
            "stackTrace": traceback.format_tb(exc.__traceback__),
        }
    )


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


_COMMON = frozenset({"Type", "Comment"})
_FLOW = frozenset({"Next", "End"})
_TASK_FIELDS = _COMMON | _FLOW | {"Resource", "Retry", "Catch", "TimeoutSeconds"}
_CHOICE_FIELDS = _COMMON | {"Choices", "Default"}
_SUCCEED_FIELDS = _COMMON
_FAIL_FIELDS = _COMMON | {"Error", "Cause"}
_RETRY_FIELDS = frozenset(
    {"ErrorEquals", "IntervalSeconds", "MaxAttempts", "BackoffRate", "JitterStrategy", "Comment"}
)
_CATCH_FIELDS = frozenset({"ErrorEquals", "ResultPath", "Next", "Comment"})
_TOP_FIELDS = frozenset({"Comment", "StartAt", "States", "Version", "QueryLanguage"})


# --------------------------------------------------------------------------- run context


class _Run:
    """Per-execution counters shared with the states."""

    __slots__ = ("clock", "rng", "sleep", "sleep_seconds", "task_seconds")

    def __init__(
        self, clock: Callable[[], float], sleep: Callable[[float], None], rng: random.Random
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.rng = rng
        self.task_seconds = 0.0
        self.sleep_seconds = 0.0


# --------------------------------------------------------------------------- error handlers


def _compile_error_equals(f: Fields) -> tuple[str, ...]:
    names = f.raw.get("ErrorEquals")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
        raise AslError(f"{f.where}: ErrorEquals must be a non-empty list of strings")
    if STATES_ALL in names and len(names) != 1:
        raise AslError(f"{f.where}: States.ALL must appear alone in ErrorEquals")
    return tuple(names)


def _matches(names: tuple[str, ...], error: str) -> bool:
    if error in names or STATES_ALL in names:
        return True
    # States.TaskFailed is a wildcard for every task error except a timeout.
    return STATES_TASK_FAILED in names and error != STATES_TIMEOUT


@dataclass(frozen=True, slots=True)
class _Retrier:
    error_equals: tuple[str, ...]
    interval: float
    max_attempts: int
    backoff: float
    full_jitter: bool

    def delay(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based)."""
        wait = self.interval * self.backoff ** (attempt - 1)
        return rng.uniform(0.0, wait) if self.full_jitter else wait


@dataclass(frozen=True, slots=True)
class _Catcher:
    error_equals: tuple[str, ...]
    result_path: JsonPath | None
    next: str


def _check_states_all_last(items: Sequence[tuple[str, ...]], where: str) -> None:
    for i, names in enumerate(items[:-1]):
        if STATES_ALL in names:
            raise AslError(f"{where}[{i}]: a States.ALL rule must be the last one")


def _compile_retry(raw: Any, where: str) -> tuple[_Retrier, ...]:
    if not isinstance(raw, list):
        raise AslError(f"{where}: Retry must be a list")
    out: list[_Retrier] = []
    for i, item in enumerate(raw):
        f = Fields(item, f"{where}[{i}]", _RETRY_FIELDS)
        jitter = f.raw.get("JitterStrategy", "NONE")
        if jitter not in ("FULL", "NONE"):
            raise AslError(f"{f.where}: JitterStrategy must be FULL or NONE, got {jitter!r}")
        out.append(
            _Retrier(
                error_equals=_compile_error_equals(f),
                interval=f.number("IntervalSeconds", 1, minimum=1, integer=True),
                max_attempts=f.number("MaxAttempts", 3, minimum=0, integer=True),
                backoff=f.number("BackoffRate", 2.0, minimum=1.0, integer=False),
                full_jitter=jitter == "FULL",
            )
        )
    _check_states_all_last([r.error_equals for r in out], where)
    return tuple(out)


def _compile_catch(raw: Any, where: str) -> tuple[_Catcher, ...]:
    if not isinstance(raw, list):
        raise AslError(f"{where}: Catch must be a list")
    out: list[_Catcher] = []
    for i, item in enumerate(raw):
        f = Fields(item, f"{where}[{i}]", _CATCH_FIELDS)
        nxt = f.str_("Next", required=True)
        assert nxt is not None
        out.append(_Catcher(_compile_error_equals(f), f.path("ResultPath", writable=True), nxt))
    _check_states_all_last([c.error_equals for c in out], where)
    return tuple(out)


# --------------------------------------------------------------------------- states


def _apply_result_path(path: JsonPath | None, data: Any, result: Any) -> Any:
    if path is None:  # "ResultPath": null keeps the state input and discards the result
        return data
    try:
        return path.write(data, result)
    except PathFailure as exc:
        raise _Terminal(STATES_RESULT_PATH, str(exc)) from None


class _State:
    name: str

    def targets(self) -> Iterator[str]:
        return iter(())

    def run(self, data: Any, ctx: _Run) -> tuple[str | None, Any]:
        """Return (next state or None when the execution ends, state output)."""
        raise NotImplementedError


def _flow(f: Fields) -> str | None:
    """Next, or None for End: exactly one of the two must be given."""
    if f.has("End"):
        if f.raw["End"] is not True:
            raise AslError(f"{f.where}: End must be true")
        if f.has("Next"):
            raise AslError(f"{f.where}: Next and End are mutually exclusive")
        return None
    nxt = f.str_("Next")
    if nxt is None:
        raise AslError(f"{f.where}: needs Next or End")
    return nxt


class _TaskState(_State):
    def __init__(self, name: str, f: Fields, resources: Mapping[str, TaskCallable]) -> None:
        self.name = name
        resource = f.str_("Resource", required=True)
        assert resource is not None
        fn = resources.get(resource)
        if fn is None or not callable(fn):
            raise AslError(f"{f.where}: no callable given for Resource {resource!r}")
        self.resource = resource
        self.fn = fn
        self.next = _flow(f)
        self.timeout: float | None = f.number("TimeoutSeconds", None, minimum=1, integer=True)
        self.retriers = _compile_retry(f.raw.get("Retry", []), f"{name}.Retry")
        self.catchers = _compile_catch(f.raw.get("Catch", []), f"{name}.Catch")

    def targets(self) -> Iterator[str]:
        if self.next is not None:
            yield self.next
        for c in self.catchers:
            yield c.next

    def _invoke(self, payload: Any, ctx: _Run) -> Any:
        started = ctx.clock()
        try:
            result = self.fn(payload)
        finally:
            elapsed = ctx.clock() - started
            ctx.task_seconds += elapsed
        # In-process code cannot be pre-empted safely, so TimeoutSeconds is only checked after
        # the call returns: the result is discarded and States.Timeout raised, as AWS would.
        if self.timeout is not None and elapsed > self.timeout:
            raise StatesError(
                STATES_TIMEOUT, f"{self.name} took {elapsed:.3f}s > TimeoutSeconds={self.timeout}"
            )
        return result

    def _next_delay(self, error: str, attempts: list[int], rng: random.Random) -> float | None:
        """Seconds to wait before retrying ``error``, or None when it is not retried."""
        # The first retrier whose ErrorEquals matches decides; later ones are never consulted,
        # even when that retrier has used up its MaxAttempts.
        for i, retrier in enumerate(self.retriers):
            if _matches(retrier.error_equals, error):
                if attempts[i] >= retrier.max_attempts:
                    return None
                attempts[i] += 1
                return retrier.delay(attempts[i], rng)
        return None

    def run(self, data: Any, ctx: _Run) -> tuple[str | None, Any]:
        attempts = [0] * len(self.retriers)  # AWS counts attempts per retrier
        while True:
            try:
                result = self._invoke(data, ctx)
                break
            except Exception as exc:
                name = error_name(exc)
                wait = self._next_delay(name, attempts, ctx.rng)
                if wait is not None:
                    slept_from = ctx.clock()
                    ctx.sleep(wait)
                    ctx.sleep_seconds += ctx.clock() - slept_from
                    continue
                for catcher in self.catchers:
                    if _matches(catcher.error_equals, name):
                        error_output = {"Error": name, "Cause": _error_cause(exc)}
                        return catcher.next, _apply_result_path(
                            catcher.result_path, data, error_output
                        )
                raise _Terminal(name, _error_cause(exc)) from exc
        return self.next, result


class _SucceedState(_State):
    def __init__(self, name: str, f: Fields) -> None:
        self.name = name

    def run(self, data: Any, ctx: _Run) -> tuple[str | None, Any]:
        return None, data


class _FailState(_State):
    def __init__(self, name: str, f: Fields) -> None:
        self.name = name
        self.error = f.str_("Error") or "States.Fail"
        self.cause = f.str_("Cause") or ""

    def run(self, data: Any, ctx: _Run) -> tuple[str | None, Any]:
        raise _Terminal(self.error, self.cause)


# Choice rules compile to predicates over the state's effective input.
_Predicate = Callable[[Any], bool]

_RULE_EXTRA = frozenset({"Comment"})


def _compile_rule(raw: Any, where: str, *, top: bool) -> _Predicate:
    if not isinstance(raw, dict):
        raise AslError(f"{where}: a choice rule must be an object")
    keys = set(raw) - _RULE_EXTRA - ({"Next"} if top else set())
    if top and "Next" not in raw:
        raise AslError(f"{where}: a top-level choice rule needs Next")
    if not top and "Next" in raw:
        raise AslError(f"{where}: Next is only allowed on top-level choice rules")

    for combinator in ("And", "Or"):
        if combinator in keys:
            if keys != {combinator}:
                raise AslError(f"{where}: {combinator} cannot be combined with other fields")
            subs = raw[combinator]
            if not isinstance(subs, list) or not subs:
                raise AslError(f"{where}.{combinator}: expected a non-empty list of rules")
            rules = [
                _compile_rule(s, f"{where}.{combinator}[{i}]", top=False)
                for i, s in enumerate(subs)
            ]
            # Short-circuits, so an IsPresent guard protects the comparisons after it.
            if combinator == "And":
                return lambda data: all(rule(data) for rule in rules)
            return lambda data: any(rule(data) for rule in rules)
    if "Not" in keys:
        if keys != {"Not"}:
            raise AslError(f"{where}: Not cannot be combined with other fields")
        inner = _compile_rule(raw["Not"], f"{where}.Not", top=False)
        return lambda data: not inner(data)

    if "Variable" not in keys:
        raise AslError(f"{where}: a choice rule needs Variable, And, Or or Not")
    ops = keys - {"Variable"}
    if len(ops) != 1:
        raise AslError(f"{where}: expected exactly one comparison operator, got {sorted(ops)}")
    op = ops.pop()
    path = compile_path(raw["Variable"], f"{where}.Variable")
    operand = raw[op]

    if op in ("IsPresent", "IsNull"):
        if not isinstance(operand, bool):
            raise AslError(f"{where}.{op}: must be true or false")
        if op == "IsPresent":

            def is_present(data: Any) -> bool:
                try:
                    path.read(data)
                except PathFailure:
                    return not operand
                return operand

            return is_present
        return lambda data: (_variable(path, data) is None) == operand

    if op != "BooleanEquals":
        raise AslError(f"{where}: unsupported choice operator {op!r}")
    if not isinstance(operand, bool):
        raise AslError(f"{where}.{op}: operand {operand!r} must be true or false")

    def boolean_equals(data: Any) -> bool:
        value = _variable(path, data)
        # A value that is not a boolean does not match (AWS semantics), it is not an error.
        return isinstance(value, bool) and value == operand

    return boolean_equals


def _variable(path: JsonPath, data: Any) -> Any:
    try:
        return path.read(data)
    except PathFailure as exc:
        raise _Terminal(STATES_RUNTIME, f"Invalid path in Choice Variable: {exc}") from None


class _ChoiceState(_State):
    def __init__(self, name: str, f: Fields) -> None:
        self.name = name
        choices = f.raw.get("Choices")
        if not isinstance(choices, list) or not choices:
            raise AslError(f"{f.where}: Choices must be a non-empty list")
        self.rules: list[tuple[_Predicate, str]] = []
        for i, raw in enumerate(choices):
            predicate = _compile_rule(raw, f"{name}.Choices[{i}]", top=True)
            nxt = raw["Next"]
            if not isinstance(nxt, str) or not nxt:
                raise AslError(f"{name}.Choices[{i}]: Next must be a non-empty string")
            self.rules.append((predicate, nxt))
        self.default = f.str_("Default")

    def targets(self) -> Iterator[str]:
        for _, nxt in self.rules:
            yield nxt
        if self.default is not None:
            yield self.default

    def run(self, data: Any, ctx: _Run) -> tuple[str | None, Any]:
        for predicate, nxt in self.rules:
            if predicate(data):
                return nxt, data
        if self.default is not None:
            return self.default, data
        raise _Terminal(STATES_NO_CHOICE, f"no choice rule matched in {self.name!r}")


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
