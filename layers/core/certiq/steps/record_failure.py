"""Record failure: the Catch target. Marks the question FAILED with the error that ended it.

The Cause a Catch hands on is not for clients: for a Lambda task it is the runtime's JSON error
envelope, stack trace and file paths included. What is stored, and so what the API returns as
``reason``, is the error's name and, for certiq's own errors (messages written for users), the
message with any file path masked; any other error says only that an internal error occurred.
The whole Cause stays in the execution's history, where operators look.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Final, Protocol

from certiq.config import Settings
from certiq.errors import CertiqError
from certiq.guardrails.pii import redact
from certiq.models import QuestionState, QuestionStatus, StepError
from certiq.ports import DocumentStore, QuestionStore
from certiq.steps.response import build_response


class RecordFailureDeps(Protocol):
    """What Record failure uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def documents(self) -> DocumentStore: ...


INTERNAL: Final = "an internal error ended the question"
# What Step Functions itself raises, in words a client may read.
STATES_ERRORS: Final = {
    "States.Timeout": "the step took longer than its time limit",
    "States.TaskFailed": "the step failed",
    "States.HeartbeatTimeout": "the step stopped reporting",
    "Sandbox.Timedout": "the step's function ran out of time",
    "Lambda.Unknown": "the step's function ended without an error type (out of time or memory)",
}
# Absolute POSIX and Windows paths, and file: URIs: where the server keeps things is its own.
_PATH = re.compile(r"file://[^\s'\"]+|(?<![\w.:/])(?:/[\w.@+-]+){2,}/?|\b[A-Za-z]:\\[^\s'\"]+")


def record_failure(state: QuestionState, deps: RecordFailureDeps) -> QuestionState:
    error = state.error or StepError(Error="UnknownError")
    state = state.model_copy(update={"status": QuestionStatus.FAILED})
    reason = public_reason(error)
    response = build_response(
        state,
        QuestionStatus.FAILED,
        deps.documents,
        deps.settings.policy,
        message=f"The question could not be answered ({reason}). It can be asked again.",
    )
    deps.questions.complete(state.question_id, response)
    # After complete(), so a poller never sees FAILED without the response beside it.
    deps.questions.set_status(state.question_id, QuestionStatus.FAILED, reason=reason)
    return state


def public_reason(error: StepError) -> str:
    """The error's name and a message a client may read: never a stack trace or a path."""
    if error.Error in STATES_ERRORS:
        return f"{error.Error}: {STATES_ERRORS[error.Error]}"
    if error.Error not in _certiq_errors():
        return f"{error.Error}: {INTERNAL}"
    message = _message(error.Cause)
    if not message:
        return error.Error
    # A message may quote its input: personal data is masked before it is stored.
    return f"{error.Error}: {_PATH.sub('[path]', redact(message).text)}"


def _message(cause: str) -> str:
    """errorMessage of a Lambda error envelope; a plain Cause as it is."""
    try:
        envelope = json.loads(cause)
    except ValueError:
        return cause.strip()
    if isinstance(envelope, dict):
        return str(envelope.get("errorMessage", "")).strip()
    return ""


@cache
def _certiq_errors() -> frozenset[str]:
    names: set[str] = set()
    pending: list[type[BaseException]] = [CertiqError]
    while pending:
        kind = pending.pop()
        names.add(kind.__name__)
        pending.extend(kind.__subclasses__())
    return frozenset(names)
