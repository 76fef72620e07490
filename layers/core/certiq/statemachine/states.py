"""The states of the state machine (see certiq.statemachine.interpreter), compiled from the
definition and run one at a time: Task (with its Retry and Catch), Choice (its rules compiled to
predicates), Succeed and Fail; and the per-execution counters they share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from certiq.statemachine.definition import AslError, Fields, JsonPath, PathFailure, compile_path
from certiq.statemachine.error_handling import (
    STATES_NO_CHOICE,
    STATES_RESULT_PATH,
    STATES_RUNTIME,
    STATES_TIMEOUT,
    StatesError,
    _compile_catch,
    _compile_retry,
    _error_cause,
    _matches,
    _Terminal,
    error_name,
)

TaskCallable = Callable[[Any], Any]

_COMMON = frozenset({"Type", "Comment"})
_FLOW = frozenset({"Next", "End"})
_TASK_FIELDS = _COMMON | _FLOW | {"Resource", "Retry", "Catch", "TimeoutSeconds"}
_CHOICE_FIELDS = _COMMON | {"Choices", "Default"}
_SUCCEED_FIELDS = _COMMON
_FAIL_FIELDS = _COMMON | {"Error", "Cause"}


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
