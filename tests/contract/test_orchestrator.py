"""StepFunctionsOrchestrator under moto: one execution per question, the state as its input."""

from __future__ import annotations

import json

import pytest

from certiq.adapters.aws.sfn_orchestrator import StepFunctionsOrchestrator
from certiq.errors import AlreadyExists
from certiq.models import QuestionState
from tests.contract.conftest import Aws
from tests.fakes import make_state

ROLE_ARN = "arn:aws:iam::123456789012:role/certiq-state-machine"
DEFINITION = json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Pass", "End": True}}})


@pytest.fixture
def orchestrator(aws: Aws) -> StepFunctionsOrchestrator:
    machine = aws.sfn.create_state_machine(
        name="certiq-answer", definition=DEFINITION, roleArn=ROLE_ARN
    )
    return StepFunctionsOrchestrator(aws.sfn, machine["stateMachineArn"])


def test_start_returns_the_arn_of_an_execution_named_by_the_question(
    aws: Aws, orchestrator: StepFunctionsOrchestrator
) -> None:
    # GIVEN a received question
    state = make_state("q-0001")

    # WHEN its execution is started
    execution_arn = orchestrator.start(state)

    # THEN the ARN names an execution of the state machine, called by the question id
    described = aws.sfn.describe_execution(executionArn=execution_arn)
    assert execution_arn.startswith("arn:aws:states:")
    assert described["name"] == "q-0001"
    assert described["stateMachineArn"] == orchestrator.state_machine_arn


def test_the_execution_input_round_trips_as_the_question_state(
    aws: Aws, orchestrator: StepFunctionsOrchestrator
) -> None:
    # GIVEN a state with nested fields
    state = make_state("q-0002", question="Qual é o prazo de reembolso?").model_copy(
        update={"requested_language": "pt", "timings_ms": {"validate": 0.4}}
    )

    # WHEN it is started
    execution_arn = orchestrator.start(state)

    # THEN the execution's input parses back to an equal QuestionState
    described = aws.sfn.describe_execution(executionArn=execution_arn)
    assert QuestionState.model_validate_json(described["input"]) == state


def test_a_different_state_under_a_used_question_id_raises_already_exists(
    orchestrator: StepFunctionsOrchestrator,
) -> None:
    # GIVEN a started question
    orchestrator.start(make_state("q-0003", question="first wording"))

    # WHEN another input is started under the same id / THEN AlreadyExists
    with pytest.raises(AlreadyExists):
        orchestrator.start(make_state("q-0003", question="second wording"))
