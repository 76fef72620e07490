"""answer.asl.json against template.yaml, functions/ and certiq.steps: one pipeline, in line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cfnlint.decode import decode

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
MACHINE_ID = "AnswerStateMachine"
FAILURE_STATE = "Record failure"
PLACEHOLDER = re.compile(r"^\$\{(?P<name>(?P<camel>[A-Z][A-Za-z0-9]*)Function)Arn\}$")


def snake(camel: str) -> str:
    """RecordFailure -> record_failure: the step name and the functions/ directory."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()


def load_template() -> dict[str, Any]:
    template, matches = decode(TEMPLATE)
    assert not matches, [str(m) for m in matches]
    return json.loads(json.dumps(template))


TEMPLATE_DATA = load_template()
MACHINE = TEMPLATE_DATA["Resources"][MACHINE_ID]["Properties"]
ASL_PATH = ROOT / MACHINE["DefinitionUri"]
ASL = json.loads(ASL_PATH.read_text(encoding="utf-8"))
STATES: dict[str, dict[str, Any]] = ASL["States"]
TASKS = {name: state for name, state in STATES.items() if state["Type"] == "Task"}
SUBSTITUTIONS: dict[str, Any] = MACHINE["DefinitionSubstitutions"]


def placeholder(task: dict[str, Any]) -> re.Match[str]:
    match = PLACEHOLDER.match(task["Resource"])
    assert match, f"Resource {task['Resource']!r} is not a ${{XxxFunctionArn}} placeholder"
    return match


def function_timeout(logical_id: str) -> int:
    properties = TEMPLATE_DATA["Resources"][logical_id]["Properties"]
    return int(properties.get("Timeout", TEMPLATE_DATA["Globals"]["Function"]["Timeout"]))


def test_state_machine_is_standard_traced_logged_and_reads_the_asl_file() -> None:
    # GIVEN the state machine resource
    # THEN it is a STANDARD machine defined by the package's statemachine/answer.asl.json
    assert MACHINE["Type"] == "STANDARD"
    assert MACHINE["DefinitionUri"] == "layers/core/certiq/statemachine/answer.asl.json"
    assert "Definition" not in MACHINE
    # AND it is traced and logs to a CloudWatch log group of the stack
    assert MACHINE["Tracing"] == {"Enabled": True}
    (destination,) = MACHINE["Logging"]["Destinations"]
    group = destination["CloudWatchLogsLogGroup"]["LogGroupArn"]["Fn::GetAtt"][0]
    assert TEMPLATE_DATA["Resources"][group]["Type"] == "AWS::Logs::LogGroup"


@pytest.mark.parametrize("state_name", sorted(TASKS))
def test_task_resource_is_a_placeholder_the_template_substitutes(state_name: str) -> None:
    # GIVEN a Task of the ASL
    match = placeholder(TASKS[state_name])
    # THEN DefinitionSubstitutions maps its placeholder to the function's published alias, the
    # version SnapStart snapshots (never $LATEST)
    assert SUBSTITUTIONS.get(f"{match['name']}Arn") == {"Ref": f"{match['name']}.Alias"}


def test_every_substitution_is_used_by_the_asl() -> None:
    # GIVEN the placeholders the ASL uses
    used = {placeholder(task)["name"] + "Arn" for task in TASKS.values()}
    # AND any ${...} anywhere in the ASL text
    anywhere = set(re.findall(r"\$\{([^}]+)\}", ASL_PATH.read_text(encoding="utf-8")))
    # THEN the substitutions are exactly those: none unused, none missing
    assert set(SUBSTITUTIONS) == used == anywhere


@pytest.mark.parametrize("state_name", sorted(TASKS))
def test_task_maps_to_function_code_and_step(state_name: str) -> None:
    # GIVEN a Task's placeholder, e.g. ${RecordFailureFunctionArn}
    match = placeholder(TASKS[state_name])
    name = snake(match["camel"])
    # THEN the template declares that function with its code in functions/<name>/
    resource = TEMPLATE_DATA["Resources"].get(match["name"])
    assert resource is not None and resource["Type"] == "AWS::Serverless::Function"
    assert resource["Properties"]["CodeUri"] == f"functions/{name}/"
    # AND the code directory holds the handler module
    app = ROOT / "functions" / name / "app.py"
    assert app.is_file(), f"{app.relative_to(ROOT)} is missing"
    # AND certiq.steps.STEPS has the step it runs
    from certiq.steps import STEPS

    assert callable(STEPS.get(name)), f"certiq.steps.STEPS has no step {name!r}"
    # AND the state is named after its step, so the console's state leads to the code
    assert set(name.split("_")) <= set(state_name.lower().split()), (state_name, name)


def test_every_step_is_a_task_of_the_state_machine() -> None:
    # GIVEN the steps the package defines
    from certiq.steps import STEPS

    # THEN each one is run by exactly one Task (no step without a state, none run twice)
    task_steps = [snake(placeholder(task)["camel"]) for task in TASKS.values()]
    assert sorted(task_steps) == sorted(STEPS)


@pytest.mark.parametrize("state_name", sorted(TASKS))
def test_task_retries_transient_errors(state_name: str) -> None:
    # GIVEN a Task
    retriers = TASKS[state_name].get("Retry", [])
    # THEN it retries, with backoff, at least the Lambda service errors and our TransientError
    assert retriers, f"{state_name} has no Retry"
    retried = {error for retrier in retriers for error in retrier["ErrorEquals"]}
    assert {"TransientError", "Lambda.ServiceException", "Lambda.TooManyRequestsException"} <= (
        retried
    )
    assert all(retrier.get("MaxAttempts", 3) >= 1 for retrier in retriers)


# Steps that may call a model provider: a stalled provider often answers a second call.
MODEL_STEPS = {
    "Redact personal data",
    "Translate question",
    "Answer question",
    "Verify claims",
    "Guard answer",
}
# How a task that ran out of time arrives: the state's TimeoutSeconds (locally, and in AWS if the
# function outlived it), the Lambda runtime's timeout, or an invocation that ended with no error
# type (out of memory or time).
TIMEOUT_ERRORS = {"States.Timeout", "Sandbox.Timedout", "Lambda.Unknown"}


@pytest.mark.parametrize("state_name", sorted(TASKS))
def test_a_timeout_is_retried_once_for_model_steps_and_never_for_the_others(
    state_name: str,
) -> None:
    # GIVEN a Task's retriers
    retriers = TASKS[state_name].get("Retry", [])
    on_timeout = [r for r in retriers if TIMEOUT_ERRORS & set(r["ErrorEquals"])]
    if state_name in MODEL_STEPS:
        # THEN a model step retries every form a timeout takes, once
        assert len(on_timeout) == 1 and set(on_timeout[0]["ErrorEquals"]) == TIMEOUT_ERRORS
        assert on_timeout[0]["MaxAttempts"] == 1
    else:
        # THEN any other step is caught at once: a second run of the same work would time out too
        assert on_timeout == []


@pytest.mark.parametrize("state_name", sorted(set(TASKS) - {FAILURE_STATE}))
def test_task_failure_is_caught_and_recorded(state_name: str) -> None:
    # GIVEN a Task other than the failure recorder
    catchers = TASKS[state_name].get("Catch", [])
    # THEN any error it still raises after its retries goes to "Record failure", with the
    # error kept beside the state (ResultPath) so the recorder knows the question and the reason
    assert any(
        "States.ALL" in catcher["ErrorEquals"]
        and catcher["Next"] == FAILURE_STATE
        and catcher.get("ResultPath") == "$.error"
        for catcher in catchers
    ), f"{state_name} does not catch States.ALL into {FAILURE_STATE!r}"


def test_failure_recorder_is_a_task_that_does_not_catch_into_itself() -> None:
    # GIVEN the failure recorder
    recorder = TASKS[FAILURE_STATE]
    # THEN it retries but catches nothing (a failing recorder must not loop), and it ends in Fail
    assert recorder.get("Retry")
    assert "Catch" not in recorder
    assert STATES[recorder["Next"]]["Type"] == "Fail"


def test_transitions_target_existing_states_and_every_state_is_reachable() -> None:
    # GIVEN every transition of the ASL
    def targets(state: dict[str, Any]) -> list[str]:
        found = [state[key] for key in ("Next", "Default") if key in state]
        found += [choice["Next"] for choice in state.get("Choices", [])]
        found += [catcher["Next"] for catcher in state.get("Catch", [])]
        return found

    edges = {name: targets(state) for name, state in STATES.items()}
    # THEN each one points at a state that exists
    assert ASL["StartAt"] in STATES
    dangling = {(name, t) for name, ts in edges.items() for t in ts if t not in STATES}
    assert dangling == set()
    # AND every state can be reached from StartAt
    seen, frontier = set(), [ASL["StartAt"]]
    while frontier:
        name = frontier.pop()
        if name not in seen:
            seen.add(name)
            frontier.extend(edges[name])
    assert seen == set(STATES)


@pytest.mark.parametrize("state_name", sorted(TASKS))
def test_lambda_timeout_fits_inside_the_state_timeout(state_name: str) -> None:
    # GIVEN a Task with its TimeoutSeconds and the function it invokes
    task = TASKS[state_name]
    logical_id = placeholder(task)["name"]
    # THEN the function times out first, so the error is a Lambda timeout the Retry can see,
    # not the state giving up on an invocation that still runs
    assert "TimeoutSeconds" in task
    assert function_timeout(logical_id) < task["TimeoutSeconds"]
