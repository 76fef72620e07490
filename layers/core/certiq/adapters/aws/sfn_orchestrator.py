"""Starting the answer state machine in AWS Step Functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.errors import AlreadyExists
from certiq.models import QuestionState

if TYPE_CHECKING:
    from mypy_boto3_stepfunctions import SFNClient


class StepFunctionsOrchestrator:
    """Implements certiq.ports.Orchestrator: one execution per question, named by its id.

    Naming the execution by question id makes a repeated start of the same question (a retried
    request) harmless: Step Functions returns the running execution for the same name and input,
    and refuses a different input under the same name (raised as AlreadyExists).
    """

    def __init__(self, client: SFNClient, state_machine_arn: str) -> None:
        self._sfn = client
        self.state_machine_arn = state_machine_arn

    def start(self, state: QuestionState) -> str:
        with transient_errors("Step Functions StartExecution"):
            try:
                response = self._sfn.start_execution(
                    stateMachineArn=self.state_machine_arn,
                    name=state.question_id,
                    input=state.model_dump_json(),
                )
            except ClientError as error:
                if error_code(error) == "ExecutionAlreadyExists":
                    raise AlreadyExists(
                        f"an execution named {state.question_id} already exists"
                    ) from error
                raise
        return response["executionArn"]
