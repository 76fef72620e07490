"""What the thin functions/<name>/app.py entry points share: one Deps per warm container."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.bootstrap import build_deps, build_idempotency_store
from certiq.config import get_settings
from certiq.deps import Deps
from certiq.models import QuestionState
from certiq.runtime.snapstart import CLIENT_FIELDS, prime, register_hooks
from certiq.steps import STEPS, step_dependencies, warm_up

if TYPE_CHECKING:
    # Only the ingest function builds the store; importing it loads boto3 for every function.
    from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer

logger = Logger(service="certiq")

Handler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]


@cache
def container_deps() -> Deps:
    """Built on the first invocation and kept while the container is warm."""
    return build_deps(get_settings())


def prime_container(fields: Iterable[str] = CLIENT_FIELDS) -> list[str]:
    """Before a SnapStart snapshot: the container's Deps, with ``fields`` built where configured."""
    return prime(container_deps(), fields)


def prepare_snapshot(step_name: str) -> None:
    """Before a step function's SnapStart snapshot: the adapters its step uses, warmed up."""
    prime_container(step_dependencies(step_name))
    warm_up(step_name, container_deps())


@cache
def container_idempotency_store() -> BasePersistenceLayer:
    """The ingest function's idempotency store, built once per warm container."""
    return build_idempotency_store(get_settings())


def step_handler(name: str) -> Handler:
    """A Lambda handler for one state of answer.asl.json: parse the state, run the step, dump."""
    step = STEPS[name]
    register_hooks(partial(prepare_snapshot, name))

    @logger.inject_lambda_context(log_event=False)  # the event holds the question: never log it
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        state = QuestionState.model_validate(event)
        logger.append_keys(question_id=state.question_id, step=name)
        deps = container_deps()
        try:
            return step(state, deps).model_dump(mode="json")
        finally:
            deps.metrics.flush()  # EMF to stdout before Lambda freezes the container

    return handler
