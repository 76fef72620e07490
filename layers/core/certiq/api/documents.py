"""Routes of documents: upload, list, read, retry, delete, and a page rendered as PNG."""

from __future__ import annotations

import base64
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.params import Path as PathParam
from aws_lambda_powertools.event_handler.openapi.params import Query

from certiq.api.intake import DocumentIntake
from certiq.api.pages import PageImages, PageOutOfRange
from certiq.api.responses import (
    BODY_ERRORS,
    ERRORS,
    JSON,
    PDF,
    PNG,
    Conflict,
    Gone,
    answers,
    described,
    new_router,
    ok,
    request_body,
)
from certiq.api.views import document_view
from certiq.deps import Deps
from certiq.errors import IngestionError
from certiq.errors import NotFound as BlobNotFound
from certiq.ingestion.leases import end_interrupted
from certiq.models import DocumentRecord, DocumentStatus, DocumentUpload
from certiq.models.api import NAME_MAX_LENGTH, NAME_PATTERN


def documents_router(deps: Deps, intake: DocumentIntake) -> Router:
    router = new_router()
    settings = deps.settings
    tenant = settings.tenant

    @router.post(
        "/v1/documents",
        responses={
            201: answers(DocumentUpload, "no body: where to upload the file (presigned POST)"),
            202: answers(DocumentUpload, "the bytes are taken: follow status_url"),
            **BODY_ERRORS,
        },
    )
    def upload_document(
        file_name: Annotated[str, Query(min_length=1, max_length=200)],
        collection: Annotated[
            str | None, Query(min_length=1, max_length=NAME_MAX_LENGTH, pattern=NAME_PATTERN)
        ] = None,
    ) -> Response[DocumentUpload]:
        data = request_body(router, settings)
        if data:
            return _accepted(intake.accept(file_name, data, collection))
        return Response(status_code=201, content_type=JSON, body=intake.presign(file_name))

    @router.get("/v1/documents", responses=ok("every document of the tenant"))
    def list_documents() -> list[DocumentRecord]:
        # Every listing sweeps: a document whose ingestion died ends FAILED, not PROCESSING.
        records = deps.documents.list(tenant)
        ended = end_interrupted(tenant, deps, busy=intake.busy(), records=records)
        current = {record.doc_id: record for record in [*records, *ended]}
        return [document_view(record) for record in current.values()]

    @router.get("/v1/documents/<doc_id>", responses=ok("the document's record"))
    def get_document(doc_id: str) -> DocumentRecord:
        return document_view(_document(deps, doc_id))

    @router.post(
        "/v1/documents/<doc_id>/retry",
        responses={
            202: answers(DocumentUpload, "the original is ingested again: follow status_url"),
            **ERRORS,
            409: described("the document is not FAILED: there is nothing to retry"),
        },
    )
    def retry_document(doc_id: str) -> Response[DocumentUpload]:
        record = _document(deps, doc_id)
        if record.status is not DocumentStatus.FAILED:
            raise Conflict(
                f"document {doc_id} is {record.status.value}: only a FAILED one is retried"
            )
        return _accepted(intake.retry(record))

    @router.delete("/v1/documents/<doc_id>", responses=ok("the DELETED tombstone"))
    def delete_document(doc_id: str) -> DocumentRecord:
        return document_view(intake.delete(_document(deps, doc_id)))

    return router


def page_images_router(deps: Deps, pages: PageImages) -> Router:
    """A document's pages, drawn as PNG for the page's viewer."""
    router = new_router()

    @router.get(
        "/v1/documents/<doc_id>/pages/<page>.png",
        responses={
            200: {
                "description": "the page as PNG",
                "content": {PNG: {"schema": {"type": "string", "format": "binary"}}},
            },
            304: {"description": "not modified: the client's copy (If-None-Match) is current"},
            **ERRORS,
            409: described("the document is not indexed (yet, or it failed)"),
            410: described("the document was deleted, or its original is no longer stored"),
        },
    )
    def page_image(doc_id: str, page: Annotated[int, PathParam(ge=1)]) -> Response[str]:
        record = _renderable(_document(deps, doc_id), page)
        # Revalidated on every use (a deleted or replaced file must not live on in a browser's
        # cache) but never sent twice: the tag names the content, the page and the resolution.
        etag = f'"{record.sha256[:32]}-p{page}-{pages.dpi}"'
        headers = {"Cache-Control": "private, no-cache", "ETag": etag}
        if router.current_event.headers.get("if-none-match") == etag:
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

    return router


def _accepted(upload: DocumentUpload) -> Response[DocumentUpload]:
    if upload.document is not None:
        upload.document = document_view(upload.document)
    return Response(status_code=202, content_type=JSON, body=upload)


def _document(deps: Deps, doc_id: str) -> DocumentRecord:
    record = deps.documents.get(deps.settings.tenant, doc_id)
    if record is None:
        raise NotFoundError(f"no document {doc_id}")
    return record


def _renderable(record: DocumentRecord, page: int) -> DocumentRecord:
    """The record, when the page can be drawn; why not, as the status that says so."""
    doc_id = record.doc_id
    if record.status is DocumentStatus.DELETED:
        raise Gone(f"document {doc_id} ({record.file_name}) was deleted")
    if record.status is not DocumentStatus.INDEXED:
        reason = f": {record.reason}" if record.reason else ""
        raise Conflict(f"document {doc_id} is {record.status.value}{reason}")
    if record.mime_type != PDF:
        raise NotFoundError(f"document {doc_id} is {record.mime_type}: it has no page images")
    if not 1 <= page <= max(record.pages, 1):
        raise NotFoundError(f"document {doc_id}: page {page} is not in 1..{record.pages}")
    return record
