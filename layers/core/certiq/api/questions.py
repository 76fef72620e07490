"""Routes of questions and conversations: ask, follow a question, read a conversation, and what
this deployment can answer in."""

from __future__ import annotations

import time
from typing import Annotated, Final

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.params import Query

from certiq.api.responses import (
    BODY_ERRORS,
    JSON,
    answers,
    described,
    new_router,
    ok,
    request_body,
)
from certiq.api.views import conversation_view, question_view
from certiq.deps import Deps
from certiq.models import (
    TERMINAL_STATUSES,
    Capabilities,
    ConversationView,
    QAResponse,
    QuestionAccepted,
    QuestionRequest,
    QuestionView,
)
from certiq.ports import Orchestrator
from certiq.questions import receive, unknown_collection

POLL_SECONDS: Final = 0.05


def questions_router(deps: Deps, orchestrator: Orchestrator) -> Router:
    router = new_router()
    settings = deps.settings

    @router.post(
        "/v1/questions",
        responses={
            200: answers(QAResponse, "with ?wait=true: the answer, once the question has ended"),
            202: answers(QuestionAccepted, "accepted: poll status_url"),
            **BODY_ERRORS,
            404: described("the collection asked in does not exist: no document is in it"),
        },
    )
    def ask(
        request: QuestionRequest, wait: Annotated[bool, Query()] = False
    ) -> Response[QuestionAccepted | QAResponse]:
        request_body(router, settings)
        if request.collection is not None:
            unknown = unknown_collection(request.collection, deps)
            if unknown is not None:
                raise NotFoundError(unknown)
        state = receive(
            request.question,
            deps,
            conversation_id=request.conversation_id,
            collection=request.collection,
            language=request.language,
            retrieval_mode=request.retrieval_mode,
        )
        orchestrator.start(state)
        if wait:
            view = _wait_for(deps, state.question_id, settings.api.wait_seconds)
            if view.response is not None:
                return Response(status_code=200, content_type=JSON, body=view.response)
        accepted = QuestionAccepted(
            question_id=state.question_id,
            status=_view(deps, state.question_id).status,
            status_url=f"/v1/questions/{state.question_id}",
        )
        return Response(status_code=202, content_type=JSON, body=accepted)

    @router.get("/v1/questions/<question_id>", responses=ok("the status, and the response"))
    def question_status(question_id: str) -> QuestionView:
        return _view(deps, question_id)

    @router.get("/v1/conversations/<conversation_id>", responses=ok("its questions, oldest first"))
    def conversation(conversation_id: str) -> ConversationView:
        records = deps.questions.conversation(settings.tenant, conversation_id)
        if not records:
            raise NotFoundError(f"no conversation {conversation_id}")
        return conversation_view(conversation_id, records, deps.documents)

    @router.get("/v1/capabilities", responses=ok("the index language, and whether it translates"))
    def capabilities() -> Capabilities:
        return Capabilities(
            index_language=settings.index_language, translation=deps.translator is not None
        )

    return router


def _view(deps: Deps, question_id: str) -> QuestionView:
    record = deps.questions.get(question_id)
    if record is None or record.tenant != deps.settings.tenant:
        raise NotFoundError(f"no question {question_id}")
    return question_view(record, deps.documents)


def _wait_for(deps: Deps, question_id: str, limit_seconds: float) -> QuestionView:
    deadline = time.monotonic() + limit_seconds
    view = _view(deps, question_id)
    while view.status not in TERMINAL_STATUSES and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        view = _view(deps, question_id)
    return view
