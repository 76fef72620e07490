"""The local Step Functions runtime's ASL interpreter, against small machines and the real file."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from certiq.config import ASL_FILE
from certiq.errors import TransientError
from certiq.statemachine.interpreter import AslError, StateMachine, StatesError, task_resources

ANSWER_ASL = ASL_FILE


# --------------------------------------------------------------------------- fakes


class FakeSleep:
    """Records requested sleeps instead of waiting."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Step:
    """A task that records its inputs, fails with ``failures`` first, then returns ``result``."""

    def __init__(
        self,
        result: Callable[[Any], Any] | Any = None,
        failures: list[BaseException] | None = None,
    ) -> None:
        self.inputs: list[Any] = []
        self.result = result
        self.failures = list(failures or [])

    def __call__(self, event: Any) -> Any:
        self.inputs.append(event)
        if self.failures:
            raise self.failures.pop(0)
        return self.result(event) if callable(self.result) else self.result


def machine(states: dict[str, Any], start: str) -> dict[str, Any]:
    return {"StartAt": start, "States": states}


def task(resource: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"Type": "Task", "Resource": resource}
    body.update(fields)
    if "Next" not in body:
        body["End"] = True
    return body


# --------------------------------------------------------------------------- flow


def test_linear_task_chain_runs_in_order_and_passes_outputs_along() -> None:
    # GIVEN three tasks A -> B -> C, each adding one field to what it receives
    a = Step(lambda e: {**e, "a": 1})
    b = Step(lambda e: {**e, "b": 2})
    c = Step(lambda e: {**e, "c": 3})
    definition = machine(
        {"A": task("ra", Next="B"), "B": task("rb", Next="C"), "C": task("rc")}, "A"
    )
    sm = StateMachine(definition, {"ra": a, "rb": b, "rc": c})
    caller_input = {"q": "x"}

    # WHEN it executes
    run = sm.execute(caller_input)

    # THEN it succeeds with every field, entering and exiting each state once, in order
    assert run.status == "SUCCEEDED"
    assert run.output == {"q": "x", "a": 1, "b": 2, "c": 3}
    assert run.error is None and run.cause is None
    assert run.visited == ["A", "B", "C"]
    assert [(e.state, e.phase) for e in run.history] == [
        ("A", "entered"),
        ("A", "exited"),
        ("B", "entered"),
        ("B", "exited"),
        ("C", "entered"),
        ("C", "exited"),
    ]
    assert b.inputs == [{"q": "x", "a": 1}]
    assert run.transitions == 3
    assert caller_input == {"q": "x"}


def test_task_seconds_counts_only_time_inside_callables() -> None:
    # GIVEN a clock that advances 5 s inside the task and never elsewhere
    clock = FakeClock()

    def slow(event: Any) -> Any:
        clock.now += 5.0
        return event

    sm = StateMachine(machine({"A": task("r")}, "A"), {"r": slow}, clock=clock)

    # WHEN it executes
    run = sm.execute({})

    # THEN all of the total is task time and the interpreter's own overhead is zero
    assert run.total_seconds == 5.0
    assert run.task_seconds == 5.0
    assert run.overhead_seconds == 0.0
    assert run.history[-1].duration == 5.0


CHOICE = {
    "Route": {
        "Type": "Choice",
        "Choices": [
            {"Variable": "$.kind", "IsPresent": False, "Next": "Rejected"},
            {"Variable": "$.ok", "BooleanEquals": False, "Next": "Rejected"},
            {
                "And": [
                    {"Variable": "$.big", "IsPresent": True},
                    {"Not": {"Variable": "$.big", "BooleanEquals": False}},
                ],
                "Next": "Big",
            },
            {
                "Or": [
                    {"Variable": "$.odd", "BooleanEquals": True},
                    {"Variable": "$.note", "IsNull": True},
                ],
                "Next": "Odd",
            },
        ],
        "Default": "Normal",
    },
    "Rejected": {"Type": "Succeed"},
    "Big": {"Type": "Succeed"},
    "Odd": {"Type": "Succeed"},
    "Normal": {"Type": "Succeed"},
}


@pytest.mark.parametrize(
    ("data", "end"),
    [
        ({"ok": False, "kind": "x"}, "Rejected"),
        ({"ok": True}, "Rejected"),
        ({"ok": True, "kind": "x", "big": True}, "Big"),
        ({"ok": True, "kind": "x", "big": False, "odd": False, "note": "n"}, "Normal"),
        ({"ok": True, "kind": "x", "odd": True, "note": "n"}, "Odd"),
        ({"ok": True, "kind": "x", "odd": False, "note": None}, "Odd"),
        ({"ok": True, "kind": "x", "odd": False, "note": "n"}, "Normal"),
        # A value of the wrong type does not match: 0 is not false.
        ({"ok": 0, "kind": "x", "odd": 1, "note": "n"}, "Normal"),
    ],
)
def test_choice_takes_the_first_matching_branch_or_default(data: dict[str, Any], end: str) -> None:
    # GIVEN a Choice with BooleanEquals, IsPresent/IsNull and And/Or/Not rules
    sm = StateMachine(machine(CHOICE, "Route"), {})

    # WHEN it executes on the input
    run = sm.execute(data)

    # THEN it ends in the expected branch and passes its input through unchanged
    assert run.status == "SUCCEEDED"
    assert run.visited == ["Route", end]
    assert run.output == data


def test_choice_without_match_and_without_default_fails_no_choice_matched() -> None:
    # GIVEN a Choice with no Default
    states = {
        "Route": {
            "Type": "Choice",
            "Choices": [{"Variable": "$.x", "BooleanEquals": True, "Next": "Done"}],
        },
        "Done": {"Type": "Succeed"},
    }
    sm = StateMachine(machine(states, "Route"), {})

    # WHEN no rule matches
    run = sm.execute({"x": False})

    # THEN the execution fails with States.NoChoiceMatched
    assert run.status == "FAILED"
    assert run.error == "States.NoChoiceMatched"
    assert run.output is None


def test_choice_on_a_missing_variable_is_a_runtime_error() -> None:
    # GIVEN a comparison on a field that may be absent, with no IsPresent guard
    states = {
        "Route": {
            "Type": "Choice",
            "Choices": [{"Variable": "$.x", "BooleanEquals": True, "Next": "Done"}],
            "Default": "Done",
        },
        "Done": {"Type": "Succeed"},
    }
    sm = StateMachine(machine(states, "Route"), {})

    # WHEN the field is absent
    run = sm.execute({})

    # THEN the execution fails with States.Runtime rather than silently taking the Default
    assert run.status == "FAILED"
    assert run.error == "States.Runtime"


def test_fail_state_ends_failed_with_its_error_and_cause() -> None:
    # GIVEN a task leading to a Fail state
    states = {"P": task("r", Next="F"), "F": {"Type": "Fail", "Error": "Boom", "Cause": "because"}}
    sm = StateMachine(machine(states, "P"), {"r": Step({"x": 1})})

    # WHEN it executes
    run = sm.execute({"x": 1})

    # THEN the execution FAILED with the Fail state's Error and Cause
    assert run.status == "FAILED"
    assert (run.error, run.cause) == ("Boom", "because")
    assert run.output is None
    assert run.visited == ["P", "F"]


def test_max_transitions_stops_an_infinite_loop() -> None:
    # GIVEN two tasks that loop forever
    states = {"A": task("r", Next="B"), "B": task("r", Next="A")}
    sm = StateMachine(machine(states, "A"), {"r": Step({})}, max_transitions=10)

    # WHEN it executes
    run = sm.execute({})

    # THEN it fails after exactly the limit instead of hanging
    assert run.status == "FAILED"
    assert run.error == "States.Runtime"
    assert "max_transitions" in (run.cause or "")
    assert run.transitions == 10


# --------------------------------------------------------------------------- retry / catch


def retry_machine(retry: list[dict[str, Any]], catch: list[dict[str, Any]] | None = None) -> Any:
    states: dict[str, Any] = {"T": task("r", Retry=retry, Catch=catch or [])}
    if catch:
        states["Handle"] = {"Type": "Succeed"}
    return machine(states, "T")


def test_retry_backs_off_exponentially_then_succeeds() -> None:
    # GIVEN a step failing twice with TransientError, retried with IntervalSeconds 1, BackoffRate 2
    step = Step({"ok": True}, failures=[TransientError("slow"), TransientError("slow")])
    sleep = FakeSleep()
    retry = [{"ErrorEquals": ["TransientError"], "IntervalSeconds": 1, "BackoffRate": 2.0}]
    sm = StateMachine(retry_machine(retry), {"r": step}, sleep=sleep)

    # WHEN it executes
    run = sm.execute({"q": 1})

    # THEN it slept 1 then 2 seconds, called the step three times and succeeded
    assert sleep.calls == [1.0, 2.0]
    assert len(step.inputs) == 3
    assert run.status == "SUCCEEDED"
    assert run.output == {"ok": True}
    assert run.visited == ["T"]


def test_full_jitter_stays_within_zero_and_the_backoff_delay() -> None:
    # GIVEN FULL jitter on 1, 2, 4 s delays, and many executions with a seeded random source
    retry = [
        {
            "ErrorEquals": ["TransientError"],
            "IntervalSeconds": 1,
            "BackoffRate": 2.0,
            "MaxAttempts": 3,
            "JitterStrategy": "FULL",
        }
    ]
    sleep = FakeSleep()
    step = Step("ok")
    sm = StateMachine(retry_machine(retry), {"r": step}, sleep=sleep, rng=random.Random(7))

    # WHEN each execution fails three times before succeeding
    for _ in range(200):
        step.failures = [TransientError()] * 3
        assert sm.execute({}).status == "SUCCEEDED"

    # THEN every delay n lies in [0, 2^(n-1)] and the jitter actually varies the delays
    firsts, seconds, thirds = sleep.calls[0::3], sleep.calls[1::3], sleep.calls[2::3]
    assert all(0.0 <= d <= 1.0 for d in firsts)
    assert all(0.0 <= d <= 2.0 for d in seconds)
    assert all(0.0 <= d <= 4.0 for d in thirds)
    assert max(thirds) > 2.0  # not merely the bounds of the first two
    assert len(set(sleep.calls)) > 500


def test_exhausted_retries_fall_into_catch_with_error_at_result_path() -> None:
    # GIVEN a step that always fails, retried twice, caught into $.error
    step = Step(failures=[TransientError("down")] * 3)
    sleep = FakeSleep()
    retry = [{"ErrorEquals": ["TransientError"], "MaxAttempts": 2, "BackoffRate": 1.0}]
    catch = [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": "Handle"}]
    sm = StateMachine(retry_machine(retry, catch), {"r": step}, sleep=sleep)

    # WHEN it executes
    run = sm.execute({"question_id": "q1"})

    # THEN after 1 + 2 attempts the catcher runs, keeping the input and adding Error and Cause
    assert len(step.inputs) == 3
    assert sleep.calls == [1.0, 1.0]
    assert run.status == "SUCCEEDED"
    assert run.visited == ["T", "Handle"]
    assert run.output["question_id"] == "q1"
    assert run.output["error"]["Error"] == "TransientError"
    assert json.loads(run.output["error"]["Cause"])["errorMessage"] == "down"


def test_catch_without_result_path_replaces_the_input_with_the_error() -> None:
    # GIVEN a catcher with the default ResultPath ($)
    step = Step(failures=[StatesError("Lambda.ServiceException", "503")])
    catch = [{"ErrorEquals": ["Lambda.ServiceException"], "Next": "Handle"}]
    sm = StateMachine(retry_machine([], catch), {"r": step})

    # WHEN the step fails with an explicitly named error
    run = sm.execute({"q": 1})

    # THEN the error output replaces the state input
    assert run.output == {"Error": "Lambda.ServiceException", "Cause": "503"}


def test_non_matching_errors_are_not_retried_and_fail_the_execution() -> None:
    # GIVEN a retrier for TransientError only, and a step raising ValueError
    step = Step(failures=[ValueError("bad input")])
    sleep = FakeSleep()
    sm = StateMachine(
        retry_machine([{"ErrorEquals": ["TransientError"]}]), {"r": step}, sleep=sleep
    )

    # WHEN it executes
    run = sm.execute({})

    # THEN there was one attempt, no sleep, and the execution FAILED with the error's name
    assert len(step.inputs) == 1
    assert sleep.calls == []
    assert run.status == "FAILED"
    assert run.error == "ValueError"
    assert run.cause is not None and json.loads(run.cause)["errorMessage"] == "bad input"


def test_first_matching_retrier_wins_even_when_exhausted() -> None:
    # GIVEN a first retrier with MaxAttempts 0 (never) and a later catch-all retrier
    step = Step("ok", failures=[TransientError()])
    sleep = FakeSleep()
    retry = [
        {"ErrorEquals": ["TransientError"], "MaxAttempts": 0},
        {"ErrorEquals": ["States.ALL"], "MaxAttempts": 5},
    ]
    sm = StateMachine(retry_machine(retry), {"r": step}, sleep=sleep)

    # WHEN the step raises TransientError
    run = sm.execute({})

    # THEN the later retrier is not consulted: no retry, FAILED
    assert sleep.calls == []
    assert run.status == "FAILED"
    assert run.error == "TransientError"


def test_timeout_is_checked_after_the_call_and_is_retryable() -> None:
    # GIVEN a task with TimeoutSeconds 10 whose first call takes 11 s on the clock
    clock = FakeClock()
    durations = [11.0, 1.0]

    def slow(event: Any) -> Any:
        clock.now += durations.pop(0)
        return "late-or-not"

    retry = [{"ErrorEquals": ["States.Timeout"], "IntervalSeconds": 1}]
    body = task("r", TimeoutSeconds=10, Retry=retry)
    sleep = FakeSleep()
    sm = StateMachine(machine({"T": body}, "T"), {"r": slow}, sleep=sleep, clock=clock)

    # WHEN it executes
    run = sm.execute({})

    # THEN the slow result is discarded as States.Timeout, retried once, and the retry succeeds
    assert sleep.calls == [1.0]
    assert run.status == "SUCCEEDED"
    assert run.task_seconds == 12.0


def test_task_failed_wildcard_does_not_match_timeout() -> None:
    # GIVEN a catcher on States.TaskFailed, and one task timing out, another raising
    clock = FakeClock()

    def slow(event: Any) -> Any:
        clock.now += 2.0
        return event

    catch = [{"ErrorEquals": ["States.TaskFailed"], "ResultPath": "$.error", "Next": "Handle"}]
    handle = {"Type": "Succeed"}
    timing_out = machine({"T": task("r", TimeoutSeconds=1, Catch=catch), "Handle": handle}, "T")
    raising = machine({"T": task("r", Catch=catch), "Handle": handle}, "T")

    # WHEN each executes
    timed_out = StateMachine(timing_out, {"r": slow}, clock=clock).execute({})
    caught = StateMachine(raising, {"r": Step(failures=[KeyError("k")])}).execute({})

    # THEN the timeout is not caught, the other error is
    assert (timed_out.status, timed_out.error) == ("FAILED", "States.Timeout")
    assert caught.visited == ["T", "Handle"]
    assert caught.output["error"]["Error"] == "KeyError"


# --------------------------------------------------------------------------- construction


@pytest.mark.parametrize(
    ("definition", "message"),
    [
        (machine({"A": task("r", Next="Nowhere")}, "A"), "unknown state 'Nowhere'"),
        (machine({"A": task("unknown-resource")}, "A"), "no callable given for Resource"),
        (machine({"A": task("r")}, "Missing"), "StartAt 'Missing'"),
        (
            machine({"A": task("r", Catch=[{"ErrorEquals": ["X"], "Next": "Gone"}])}, "A"),
            "unknown state 'Gone'",
        ),
        (
            machine(
                {
                    "C": {
                        "Type": "Choice",
                        "Choices": [{"Variable": "$.x", "IsNull": True, "Next": "D"}],
                        "Default": "Gone",
                    },
                    "D": {"Type": "Succeed"},
                },
                "C",
            ),
            "unknown state 'Gone'",
        ),
        (machine({"A": {"Type": "Map", "End": True}}, "A"), "unsupported state type 'Map'"),
        (machine({"A": task("r", HeartbeatSeconds=5)}, "A"), "HeartbeatSeconds"),
        (machine({"A": {"Type": "Pass", "End": True}}, "A"), "unsupported state type 'Pass'"),
        (machine({"A": task("r", Parameters={"x.$": "$.q"})}, "A"), "Parameters"),
        (machine({"A": task("r", InputPath="$.a")}, "A"), "InputPath"),
        (machine({"A": task("r", ResultPath="$.a")}, "A"), "ResultPath"),
        (
            machine({"A": task("r", Retry=[{"ErrorEquals": ["X"], "MaxDelaySeconds": 5}])}, "A"),
            "MaxDelaySeconds",
        ),
        (
            machine(
                {"A": task("r", Catch=[{"ErrorEquals": ["X"], "ResultPath": "$$.x", "Next": "A"}])},
                "A",
            ),
            "context",
        ),
        (
            machine(
                {
                    "A": task(
                        "r",
                        Catch=[{"ErrorEquals": ["X"], "ResultPath": "$.a[?(@.x)]", "Next": "A"}],
                    )
                },
                "A",
            ),
            "unsupported JSONPath",
        ),
        (machine({"A": task("r"), "B": task("r")}, "A"), "unreachable state(s): B"),
        (machine({"A": {"Type": "Task", "Resource": "r"}}, "A"), "needs Next or End"),
        (
            machine({"A": task("r", Retry=[{"ErrorEquals": ["States.ALL", "X"]}])}, "A"),
            "must appear alone",
        ),
        (
            machine({"A": task("r", Retry=[{"ErrorEquals": ["X"], "BackoffRate": 0.5}])}, "A"),
            "BackoffRate",
        ),
        (
            machine(
                {
                    "C": {
                        "Type": "Choice",
                        "Choices": [{"Variable": "$.x", "StringEquals": "y", "Next": "D"}],
                    },
                    "D": {"Type": "Succeed"},
                },
                "C",
            ),
            "unsupported choice operator",
        ),
    ],
)
def test_invalid_or_unsupported_definitions_are_rejected_at_construction(
    definition: dict[str, Any], message: str
) -> None:
    # GIVEN a definition with one problem, WHEN the machine is built, THEN it names the problem
    with pytest.raises(AslError) as info:
        StateMachine(definition, {"r": Step()})
    assert message in str(info.value)


# --------------------------------------------------------------------------- the real file


def real_file() -> tuple[str, dict[str, Any]]:
    text = ANSWER_ASL.read_text(encoding="utf-8")
    return text, json.loads(text)


def tasks_in_order(doc: dict[str, Any]) -> list[str]:
    """The happy path's Task states, followed through Next and each Choice's Default."""
    names: list[str] = []
    name: str | None = doc["StartAt"]
    while name is not None:
        state = doc["States"][name]
        if state["Type"] == "Task":
            names.append(name)
        name = state.get("Next") or state.get("Default")
    return names


class Pipeline:
    """A fake step per Resource, each adding its own marker to the state it receives."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.calls: list[str] = []
        self.inputs: dict[str, list[Any]] = {}
        self.failures: dict[str, list[BaseException]] = {}
        self.ok = True
        self.resources = {
            s["Resource"]: self._step(s["Resource"])
            for s in doc["States"].values()
            if s["Type"] == "Task"
        }

    def _step(self, resource: str) -> Callable[[Any], Any]:
        def step(event: Any) -> Any:
            self.calls.append(resource)
            self.inputs.setdefault(resource, []).append(event)
            pending = self.failures.get(resource)
            if pending:
                raise pending.pop(0)
            out = {**event, "steps": [*event.get("steps", []), resource]}
            if resource == "${ValidateFunctionArn}":
                out["validation"] = {"ok": self.ok}
            return out

        return step


def test_real_file_names_resources_the_interpreter_reports() -> None:
    # GIVEN the real file, WHEN both the test and the interpreter list its Task resources
    text, doc = real_file()

    # THEN they agree, one per step of certiq.steps (the answer steps and the failure recorder)
    from certiq.steps import STEPS

    assert task_resources(text) == set(Pipeline(doc).resources)
    assert len(task_resources(text)) == len(STEPS)


def test_real_file_happy_path_runs_every_answer_task_in_order() -> None:
    # GIVEN the real answer.asl.json with a fake for each Resource it names
    text, doc = real_file()
    pipeline = Pipeline(doc)
    sm = StateMachine(text, pipeline.resources, sleep=FakeSleep())

    # WHEN a valid question runs
    run = sm.execute({"question_id": "q1", "question": "What is the retention period?"})

    # THEN every task but the failure recorder ran once, in the file's order, and it SUCCEEDED
    from certiq.steps import STEPS

    expected = tasks_in_order(doc)
    assert len(expected) == len(STEPS) - 1
    assert [n for n in run.visited if doc["States"][n]["Type"] == "Task"] == expected
    resource_order = [doc["States"][n]["Resource"] for n in expected]
    assert pipeline.calls == resource_order
    assert run.status == "SUCCEEDED"
    assert run.output["steps"] == resource_order
    assert run.output["question_id"] == "q1"


def test_real_file_rejected_question_ends_early_and_succeeds() -> None:
    # GIVEN the real file and a Validate fake that reports validation.ok false
    text, doc = real_file()
    pipeline = Pipeline(doc)
    pipeline.ok = False
    sm = StateMachine(text, pipeline.resources)

    # WHEN it executes
    run = sm.execute({"question_id": "q2", "question": "?"})

    # THEN it stops at "Ended early", SUCCEEDED, after only Validate ran
    assert run.status == "SUCCEEDED"
    assert run.visited == ["Validate question", "Question accepted?", "Ended early"]
    assert pipeline.calls == ["${ValidateFunctionArn}"]


def test_real_file_failing_step_is_retried_then_recorded_and_fails() -> None:
    # GIVEN the real file and a Retrieve fake that always raises TransientError
    text, doc = real_file()
    retrieve = doc["States"]["Retrieve evidence"]
    retrier = retrieve["Retry"][0]
    pipeline = Pipeline(doc)
    attempts = 1 + retrier["MaxAttempts"]
    pipeline.failures["${RetrieveFunctionArn}"] = [TransientError("index down")] * attempts
    sleep = FakeSleep()
    sm = StateMachine(text, pipeline.resources, sleep=sleep, rng=random.Random(1))

    # WHEN a valid question runs
    run = sm.execute({"question_id": "q3", "question": "What is the retention period?"})

    # THEN Retrieve was attempted 1 + MaxAttempts times with jittered back-off within the file's
    # bounds, Record failure received the error next to the original fields, and it FAILED
    assert pipeline.calls.count("${RetrieveFunctionArn}") == attempts
    assert len(sleep.calls) == retrier["MaxAttempts"]
    for n, delay in enumerate(sleep.calls, start=1):
        assert 0.0 <= delay <= retrier["IntervalSeconds"] * retrier["BackoffRate"] ** (n - 1)
    assert pipeline.calls[-1] == "${RecordFailureFunctionArn}"
    assert run.visited[-2:] == ["Record failure", "Question failed"]
    assert run.status == "FAILED"
    assert run.error == doc["States"]["Question failed"]["Error"]
    [record_input] = pipeline.inputs["${RecordFailureFunctionArn}"]
    assert record_input["question_id"] == "q3"
    assert record_input["error"]["Error"] == "TransientError"
    # AND its Cause is the envelope Lambda's Python runtime returns, as Step Functions passes it
    envelope = json.loads(record_input["error"]["Cause"])
    assert (envelope["errorType"], envelope["errorMessage"]) == ("TransientError", "index down")
    assert envelope["stackTrace"]


def test_real_file_non_retryable_error_goes_straight_to_record_failure() -> None:
    # GIVEN the real file and a Draft fake raising ValueError, which the file does not retry
    text, doc = real_file()
    pipeline = Pipeline(doc)
    pipeline.failures["${AnswerFunctionArn}"] = [ValueError("no evidence")]
    sleep = FakeSleep()
    sm = StateMachine(text, pipeline.resources, sleep=sleep)

    # WHEN it executes
    run = sm.execute({"question_id": "q4", "question": "What is the retention period?"})

    # THEN there was no back-off and the failure was recorded
    assert sleep.calls == []
    assert pipeline.calls.count("${AnswerFunctionArn}") == 1
    assert run.visited[-2:] == ["Record failure", "Question failed"]
    assert run.status == "FAILED"
