"""The HTTPS API: one router for API Gateway (functions/api) and `certiq serve` alike.

Bodies are validated against the pydantic contracts; a malformed request gets a 422 whose
detail names the field.
"""

from __future__ import annotations

import time
from typing import Annotated

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.params import Query

from certiq.models import (
    TERMINAL_STATUSES,
    Certificate,
    CertificateCheck,
    DocumentRecord,
    QAResponse,
    QuestionAccepted,
    QuestionRequest,
    QuestionView,
)
from certiq.ports import Orchestrator
from certiq.questions import receive
from certiq.steps.deps import Deps
from certiq.trust.certificate import check

API_TITLE = "certiq"
WAIT_LIMIT_SECONDS = 25.0  # API Gateway ends a request at 29 s
POLL_SECONDS = 0.05
# Powertools serialises a Response body only when its Content-Type is JSON; without it a model
# body would reach API Gateway (and `certiq serve`) unserialised.
JSON = "application/json"


def create_app(deps: Deps, orchestrator: Orchestrator) -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)

    @app.post("/v1/questions")
    def ask(
        request: QuestionRequest, wait: Annotated[bool, Query()] = False
    ) -> Response[QuestionAccepted | QAResponse]:
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
            view = _wait_for(deps, state.question_id)
            if view.response is not None:
                return Response(status_code=200, content_type=JSON, body=view.response)
        accepted = QuestionAccepted(
            question_id=state.question_id,
            status=_view(deps, state.question_id).status,
            status_url=f"/v1/questions/{state.question_id}",
        )
        return Response(status_code=202, content_type=JSON, body=accepted)

    @app.get("/v1/questions/<question_id>")
    def question_status(question_id: str) -> QuestionView:
        return _view(deps, question_id)

    @app.get("/v1/documents")
    def list_documents() -> list[DocumentRecord]:
        return deps.documents.list(deps.settings.tenant)

    @app.get("/v1/documents/<doc_id>")
    def get_document(doc_id: str) -> DocumentRecord:
        record = deps.documents.get(deps.settings.tenant, doc_id)
        if record is None:
            raise NotFoundError(f"no document {doc_id}")
        return record

    @app.get("/v1/certificates/<certificate_id>")
    def get_certificate(certificate_id: str) -> Certificate:
        return _certificate(deps, certificate_id)

    @app.post("/v1/certificates/<certificate_id>/verify")
    def verify_certificate(certificate_id: str) -> CertificateCheck:
        return check(_certificate(deps, certificate_id), deps.signer)

    @app.get("/openapi.json", include_in_schema=False)
    def openapi() -> Response[str]:
        return Response(
            status_code=200,
            content_type="application/json",
            body=app.get_openapi_json_schema(title=API_TITLE, version="1"),
        )

    return app


def _view(deps: Deps, question_id: str) -> QuestionView:
    record = deps.questions.get(question_id)
    if record is None or record.tenant != deps.settings.tenant:
        raise NotFoundError(f"no question {question_id}")
    return QuestionView(
        question_id=record.question_id,
        status=record.status,
        reason=record.reason,
        response=record.response,
    )


def _wait_for(deps: Deps, question_id: str) -> QuestionView:
    deadline = time.monotonic() + WAIT_LIMIT_SECONDS
    view = _view(deps, question_id)
    while view.status not in TERMINAL_STATUSES and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        view = _view(deps, question_id)
    return view


def _certificate(deps: Deps, certificate_id: str) -> Certificate:
    certificate = deps.certificates.get(certificate_id)
    if certificate is None or certificate.tenant != deps.settings.tenant:
        raise NotFoundError(f"no certificate {certificate_id}")
    return certificate
