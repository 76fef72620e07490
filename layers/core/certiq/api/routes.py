"""The HTTPS API: one router for API Gateway (functions/api) and `certiq serve` alike.

Bodies are validated against the pydantic contracts; every error answers with an ApiError body:
malformed JSON 400, a body breaking its contract 422 naming the field, unknown ids 404, a
deleted document's page 410, an oversized body 413. The web page's files are served from `/`.

API Gateway is expected to pass every body as binary (BinaryMediaTypes "*/*"): uploads arrive
base64-encoded, and page images go back base64-encoded with isBase64Encoded, as `certiq serve`
does locally.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError, ServiceError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.params import Path as PathParam
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from certiq.api.static import load_static
from certiq.api.views import conversation_view, document_view, question_view
from certiq.config import Settings
from certiq.errors import DuplicateContent, IngestionError, InvalidRequest
from certiq.errors import NotFound as BlobNotFound
from certiq.models import (
    TERMINAL_STATUSES,
    ApiError,
    Capabilities,
    Certificate,
    CertificateCheck,
    ConversationView,
    DocumentRecord,
    DocumentStatus,
    DocumentUpload,
    QAResponse,
    QuestionAccepted,
    QuestionRequest,
    QuestionView,
    SigningKey,
)
from certiq.ports import Orchestrator, UploadSigner
from certiq.questions import receive
from certiq.steps.deps import Deps
from certiq.trust.certificate import check
from certiq.web import STATIC_DIR

if TYPE_CHECKING:
    from certiq.api.intake import DocumentIntake

API_TITLE = "certiq"
POLL_SECONDS = 0.05
# Powertools serialises a Response body only when its Content-Type is JSON; without it a model
# body would reach API Gateway (and `certiq serve`) unserialised.
JSON = "application/json"
PNG = "image/png"
PDF = "application/pdf"
# The request body of a direct upload: raw PDF bytes (Powertools has no parameter for that).
UPLOAD_BODY = {
    "required": False,
    "description": (
        "The PDF's bytes (Content-Type application/pdf): the server stores and ingests them."
        " Without a body, a server that offers presigned uploads (AWS) answers where to POST"
        " the file instead."
    ),
    "content": {PDF: {"schema": {"type": "string", "format": "binary"}}},
}

logger = logging.getLogger(__name__)


def _described(description: str) -> OpenAPIResponse:
    return {"description": description, "content": {JSON: {"model": ApiError}}}


def _answers(model: Any, description: str) -> OpenAPIResponse:
    return {"description": description, "content": {JSON: {"model": model}}}


ERRORS: dict[int, OpenAPIResponse] = {
    400: _described("malformed request: not JSON, not UTF-8, or a body not base64 as marked"),
    404: _described("no such resource"),
    422: _described("the body or a parameter breaks its contract; detail names the field"),
}
# Routes that read a body also refuse a large one, and any type but theirs.
BODY_ERRORS: dict[int, OpenAPIResponse] = {
    **ERRORS,
    413: _described("the body is larger than settings.api.max_body_bytes"),
    415: _described("the Content-Type is not one the route reads"),
}


def _ok(description: str) -> dict[int, OpenAPIResponse]:
    """200 with the route's return type, and the errors every route may answer."""
    return {200: {"description": description}, **ERRORS}


class Gone(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(410, message)


class PayloadTooLarge(ServiceError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(413, f"the body is {size} bytes; the limit is {limit}")


class Conflict(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(409, message)


def page_cache_dir(settings: Settings) -> Path:
    if settings.api.page_cache_dir is not None:
        return settings.api.page_cache_dir
    if settings.runtime == "aws":  # /tmp is the only writable place in Lambda
        return Path(tempfile.gettempdir()) / "certiq-page-cache"
    return settings.home / "page-cache"


def cors_config(settings: Settings) -> CORSConfig | None:
    """Which other origin's pages may read the responses (api.cors_allow_origin); None: none.

    Powertools answers the preflight (OPTIONS) and adds Access-Control-Allow-Origin to a
    response only when the request's Origin is the allowed one (or it is "*"). The headers are
    those API Gateway's own preflight allows (template.yaml CertiqApi Cors).
    """
    origin = settings.api.cors_allow_origin
    if not origin:
        return None
    return CORSConfig(
        allow_origin=origin,
        allow_headers=["Idempotency-Key"],
        expose_headers=["ETag"],
        max_age=600,
    )


def create_app(
    deps: Deps,
    orchestrator: Orchestrator,
    signer: UploadSigner | None = None,
    intake: DocumentIntake | None = None,
) -> APIGatewayRestResolver:
    """The router; ``signer`` offers presigned uploads (AWS), without it uploads are ingested
    by this process (``intake``, when given, is the one to use: tests wait on it)."""
    # Imported here, when the router is built: uploads and page images load pypdfium2 and numpy,
    # which the API function's cold start (module import) should not pay for.
    from certiq.api.intake import DocumentIntake
    from certiq.api.pages import PageImages, PageOutOfRange
    from certiq.ingestion.leases import end_interrupted

    settings = deps.settings
    app = APIGatewayRestResolver(enable_validation=True, cors=cors_config(settings))
    tenant = settings.tenant
    documents_intake = intake or DocumentIntake(deps, signer)
    pages = PageImages(deps.blobs, page_cache_dir(settings), settings.api.page_dpi)
    static = load_static(settings.api.static_dir or STATIC_DIR)

    def error(
        status: int, message: str, detail: list[dict[str, Any]] | None = None
    ) -> Response[Any]:
        body = ApiError(statusCode=status, message=message, detail=detail)
        return Response(
            status_code=status,
            content_type=JSON,
            body=body.model_dump(mode="json", exclude_none=True),
        )

    def invalid_request(exc: RequestValidationError) -> Response[Any]:
        detail = [_error_detail(item) for item in exc.errors()]
        if any(item["type"] == "json_invalid" for item in detail):
            return error(400, "the body is not valid JSON", detail)
        fields = ", ".join(".".join(str(part) for part in item["loc"]) for item in detail)
        return error(422, f"invalid request: {fields}", detail)

    def unsupported_type(exc: RequestUnsupportedContentType) -> Response[Any]:
        return error(415, f"unsupported Content-Type: send {JSON}")

    def bad_value(exc: InvalidRequest) -> Response[Any]:
        return error(422, str(exc), [{"loc": [exc.field], "msg": exc.message}])

    def duplicate(exc: DuplicateContent) -> Response[Any]:
        return error(409, str(exc))

    def not_utf8(exc: UnicodeDecodeError) -> Response[Any]:
        return error(400, "the body is not UTF-8 text")

    def bad_base64(exc: binascii.Error) -> Response[Any]:
        return error(400, f"the body is marked base64 but is not: {exc}")

    # Registered by call, not as decorators: Powertools' decorator is untyped.
    for exception, handler in (
        (RequestValidationError, invalid_request),
        (RequestUnsupportedContentType, unsupported_type),
        (InvalidRequest, bad_value),
        (DuplicateContent, duplicate),
        (UnicodeDecodeError, not_utf8),
        (binascii.Error, bad_base64),
    ):
        app.exception_handler(exception)(handler)

    # --- questions and conversations -------------------------------------------------------

    @app.post(
        "/v1/questions",
        responses={
            200: _answers(QAResponse, "with ?wait=true: the answer, once the question has ended"),
            202: _answers(QuestionAccepted, "accepted: poll status_url"),
            **BODY_ERRORS,
        },
    )
    def ask(
        request: QuestionRequest, wait: Annotated[bool, Query()] = False
    ) -> Response[QuestionAccepted | QAResponse]:
        _check_size(app, settings)
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

    @app.get("/v1/questions/<question_id>", responses=_ok("the status, and the response"))
    def question_status(question_id: str) -> QuestionView:
        return _view(deps, question_id)

    @app.get("/v1/conversations/<conversation_id>", responses=_ok("its questions, oldest first"))
    def conversation(conversation_id: str) -> ConversationView:
        records = deps.questions.conversation(tenant, conversation_id)
        if not records:
            raise NotFoundError(f"no conversation {conversation_id}")
        return conversation_view(conversation_id, records, deps.documents)

    # --- documents -------------------------------------------------------------------------

    @app.post(
        "/v1/documents",
        responses={
            201: _answers(DocumentUpload, "no body: where to upload the file (presigned POST)"),
            202: _answers(DocumentUpload, "the bytes are taken: follow status_url"),
            **BODY_ERRORS,
        },
    )
    def upload_document(
        file_name: Annotated[str, Query(min_length=1, max_length=200)],
        collection: Annotated[str | None, Query(max_length=128)] = None,
    ) -> Response[DocumentUpload]:
        data = _check_size(app, settings)
        if data:
            upload = documents_intake.accept(file_name, data, collection)
            if upload.document is not None:
                upload.document = document_view(upload.document)
            return Response(status_code=202, content_type=JSON, body=upload)
        return Response(
            status_code=201, content_type=JSON, body=documents_intake.presign(file_name)
        )

    @app.get("/v1/documents", responses=_ok("every document of the tenant"))
    def list_documents() -> list[DocumentRecord]:
        # Every listing sweeps: a document whose ingestion died ends FAILED, not PROCESSING.
        end_interrupted(tenant, deps, busy=documents_intake.busy())
        return [document_view(record) for record in deps.documents.list(tenant)]

    @app.get("/v1/documents/<doc_id>", responses=_ok("the document's record"))
    def get_document(doc_id: str) -> DocumentRecord:
        return document_view(_document(deps, doc_id))

    @app.post(
        "/v1/documents/<doc_id>/retry",
        responses={
            202: _answers(
                DocumentUpload, "taken: the original is ingested again; follow status_url"
            ),
            **ERRORS,
            409: _described("the document is not FAILED: there is nothing to retry"),
        },
    )
    def retry_document(doc_id: str) -> Response[DocumentUpload]:
        record = _document(deps, doc_id)
        if record.status is not DocumentStatus.FAILED:
            raise Conflict(
                f"document {doc_id} is {record.status.value}: only a FAILED one is retried"
            )
        upload = documents_intake.retry(record)
        if upload.document is not None:
            upload.document = document_view(upload.document)
        return Response(status_code=202, content_type=JSON, body=upload)

    @app.delete("/v1/documents/<doc_id>", responses=_ok("the DELETED tombstone"))
    def delete_document(doc_id: str) -> DocumentRecord:
        return document_view(documents_intake.delete(_document(deps, doc_id)))

    @app.get(
        "/v1/documents/<doc_id>/pages/<page>.png",
        responses={
            200: {
                "description": "the page as PNG",
                "content": {PNG: {"schema": {"type": "string", "format": "binary"}}},
            },
            304: {"description": "not modified: the client's copy (If-None-Match) is current"},
            **ERRORS,
            409: _described("the document is not indexed (yet, or it failed)"),
            410: _described("the document was deleted, or its original is no longer stored"),
        },
    )
    def page_image(doc_id: str, page: Annotated[int, PathParam(ge=1)]) -> Response[str]:
        record = _document(deps, doc_id)
        if record.status is DocumentStatus.DELETED:
            raise Gone(f"document {doc_id} ({record.file_name}) was deleted")
        if record.status is not DocumentStatus.INDEXED:
            reason = f": {record.reason}" if record.reason else ""
            raise Conflict(f"document {doc_id} is {record.status.value}{reason}")
        if record.mime_type != PDF:
            raise NotFoundError(f"document {doc_id} is {record.mime_type}: it has no page images")
        if not 1 <= page <= max(record.pages, 1):
            raise NotFoundError(f"document {doc_id}: page {page} is not in 1..{record.pages}")
        # Revalidated on every use (a deleted or replaced file must not live on in a browser's
        # cache) but never sent twice: the tag names the content, the page and the resolution.
        etag = f'"{record.sha256[:32]}-p{page}-{pages.dpi}"'
        headers = {"Cache-Control": "private, no-cache", "ETag": etag}
        if app.current_event.headers.get("if-none-match") == etag:
            return Response(status_code=304, content_type=PNG, body="", headers=headers)
        try:
            image = pages.png(record, page)
        except PageOutOfRange as exc:
            raise NotFoundError(f"document {doc_id}: {exc}") from exc
        except IngestionError as exc:  # the stored original no longer opens as a PDF
            raise Conflict(f"document {doc_id} cannot be rendered: {exc}") from exc
        except BlobNotFound as exc:
            raise Gone(f"document {doc_id}: its original is no longer stored ({exc})") from exc
        response: Response[str] = Response(
            status_code=200,
            content_type=PNG,
            body=base64.b64encode(image).decode("ascii"),
            headers=headers,
        )
        response.base64_encoded = True
        return response

    # --- certificates ----------------------------------------------------------------------

    @app.get("/v1/certificates/<certificate_id>", responses=_ok("the certificate"))
    def get_certificate(certificate_id: str) -> Certificate:
        return _certificate(deps, certificate_id)

    @app.post("/v1/certificates/<certificate_id>/verify", responses=_ok("the outcome of the check"))
    def verify_certificate(certificate_id: str) -> CertificateCheck:
        return check(_certificate(deps, certificate_id), deps.signer)

    @app.get("/v1/signing-key", responses=_ok("the public key certificates are checked with"))
    def signing_key() -> SigningKey:
        return deps.signer.public_key()

    @app.get("/v1/capabilities", responses=_ok("the index language, and whether it translates"))
    def capabilities() -> Capabilities:
        return Capabilities(
            index_language=deps.settings.index_language, translation=deps.translator is not None
        )

    # --- the API's description and the web page ---------------------------------------------

    @app.get("/openapi.json", include_in_schema=False)
    def openapi() -> Response[str]:
        document = json.loads(app.get_openapi_json_schema(title=API_TITLE, version="1"))
        document["paths"]["/v1/documents"]["post"]["requestBody"] = UPLOAD_BODY
        return Response(status_code=200, content_type=JSON, body=json.dumps(document))

    @app.get("/", include_in_schema=False)
    def index() -> Response[str]:
        return _static_file("index.html")

    @app.get("/static/<name>", include_in_schema=False)
    def static_file(name: str) -> Response[str]:
        return _static_file(name)

    def _static_file(name: str) -> Response[str]:
        found = static.get(name)
        if found is None:
            raise NotFoundError(f"no file {name}")
        return Response(
            status_code=200,
            content_type=found.content_type,
            body=found.text,
            headers={"Cache-Control": "no-cache"},
        )

    return app


def _error_detail(item: Any) -> dict[str, Any]:
    """A validation error as the client needs it: where, what kind, and in words."""
    loc = [part for part in item.get("loc", ()) if isinstance(part, str | int)]
    detail: dict[str, Any] = {"loc": loc, "type": str(item.get("type", "invalid"))}
    message = item.get("msg")
    context = item.get("ctx") or {}
    if context.get("error"):
        message = f"{message}: {context['error']}" if message else str(context["error"])
    if message:
        detail["msg"] = str(message)
    return detail


def _check_size(app: APIGatewayRestResolver, settings: Settings) -> bytes:
    """The request body's bytes, or 413 when they are more than settings allow."""
    event = app.current_event
    raw = event.body or ""
    data = base64.b64decode(raw, validate=True) if event.is_base64_encoded else raw.encode()
    if len(data) > settings.api.max_body_bytes:
        raise PayloadTooLarge(len(data), settings.api.max_body_bytes)
    return data


def _document(deps: Deps, doc_id: str) -> DocumentRecord:
    record = deps.documents.get(deps.settings.tenant, doc_id)
    if record is None:
        raise NotFoundError(f"no document {doc_id}")
    return record


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


def _certificate(deps: Deps, certificate_id: str) -> Certificate:
    certificate = deps.certificates.get(certificate_id)
    if certificate is None or certificate.tenant != deps.settings.tenant:
        raise NotFoundError(f"no certificate {certificate_id}")
    return certificate
