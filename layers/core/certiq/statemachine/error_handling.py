"""Errors in an execution of the state machine (see certiq.statemachine.interpreter): their ASL
names, the Cause a Catch hands on, and a Task's Retry and Catch rules, compiled and matched."""

from __future__ import annotations

import json
import random
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from certiq.statemachine.definition import AslError, Fields, JsonPath

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


_RETRY_FIELDS = frozenset(
    {"ErrorEquals", "IntervalSeconds", "MaxAttempts", "BackoffRate", "JitterStrategy", "Comment"}
)
_CATCH_FIELDS = frozenset({"ErrorEquals", "ResultPath", "Next", "Comment"})


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
