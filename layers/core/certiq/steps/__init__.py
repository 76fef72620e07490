"""One function per state of answer.asl.json, each pure over (state, deps): no boto3 here.

STEPS maps a step's name to its callable: certiq.steps.<name>.<name>, imported when first
looked up, so a Lambda function imports its own step only (Validate does not load the PII
detectors Persist needs). The name also fixes the Lambda function directory (functions/<name>/)
and the ASL placeholder (${<CamelName>FunctionArn}).
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable, Iterator, MutableMapping

from certiq.deps import Deps
from certiq.models import QuestionState

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


STEP_NAMES: tuple[str, ...] = (
    "validate",
    "redact",
    "translate",
    "retrieve",
    "find_verified_answer",
    "answer",
    "verify",
    "guard_answer",
    "persist",
    "record_failure",
)


def step_dependencies(name: str) -> tuple[str, ...]:
    """The Deps fields a step declares it uses: the properties of the Protocol its ``deps``
    parameter is typed with (RetrieveDeps, ...), which mypy holds the step to. A SnapStart
    snapshot holds them built (certiq.runtime.snapstart.prime), so a cold start builds none."""
    if name not in STEP_NAMES:
        raise KeyError(name)
    module = importlib.import_module(f"certiq.steps.{name}")
    annotation = inspect.signature(getattr(module, name)).parameters["deps"].annotation
    needs = getattr(module, annotation) if isinstance(annotation, str) else annotation
    return tuple(
        sorted(
            {
                member
                for kind in needs.__mro__
                for member, value in vars(kind).items()
                if isinstance(value, property)
            }
        )
    )


class _Steps(MutableMapping[str, Step]):
    """The steps by name, each module imported on its first lookup. A step may be replaced
    (tests wrap them to inject faults); deleting one goes back to its module's."""

    def __init__(self) -> None:
        self._loaded: dict[str, Step] = {}

    def __getitem__(self, name: str) -> Step:
        step = self._loaded.get(name)
        if step is None:
            if name not in STEP_NAMES:
                raise KeyError(name)
            module = importlib.import_module(f"certiq.steps.{name}")
            step = self._loaded[name] = _timed(name, getattr(module, name))
        return step

    def __setitem__(self, name: str, step: Step) -> None:
        if name not in STEP_NAMES:
            raise KeyError(name)
        self._loaded[name] = step

    def __delitem__(self, name: str) -> None:
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(STEP_NAMES)

    def __len__(self) -> int:
        return len(STEP_NAMES)


STEPS: MutableMapping[str, Step] = _Steps()


def warm_up(name: str, deps: Deps) -> None:
    """Runs the step module's ``warm_up(deps)``, if it has one: work its first question would
    otherwise pay (compiling, loading weights), done before a SnapStart snapshot. It stores
    nothing and sends no request."""
    warm = getattr(importlib.import_module(f"certiq.steps.{name}"), "warm_up", None)
    if warm is not None:
        warm(deps)


def placeholder(step_name: str) -> str:
    """The ASL Resource that names a step: record_failure -> ${RecordFailureFunctionArn}."""
    camel = "".join(part.capitalize() for part in step_name.split("_"))
    return "${" + camel + "FunctionArn}"
