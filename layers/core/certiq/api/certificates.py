"""Routes of certificates: read one, check it, re-check it against the documents now, the
certificates that cite a document, and the public key that checks them anywhere."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from certiq.api.responses import ERRORS, JSON, answers, new_router, ok
from certiq.deps import Deps
from certiq.models import (
    Certificate,
    CertificateCheck,
    DocumentCitations,
    Recheck,
    RecheckQueued,
    RecheckRequest,
    SigningKey,
)
from certiq.trust.certificate import check


def certificates_router(deps: Deps) -> Router:
    router = new_router()

    @router.get("/v1/certificates/<certificate_id>", responses=ok("the certificate"))
    def get_certificate(certificate_id: str) -> Certificate:
        return _certificate(deps, certificate_id)

    @router.post(
        "/v1/certificates/<certificate_id>/verify", responses=ok("the outcome of the check")
    )
    def verify_certificate(certificate_id: str) -> CertificateCheck:
        return check(_certificate(deps, certificate_id), deps.signer)

    @router.post(
        "/v1/certificates/<certificate_id>/recheck",
        responses={
            200: answers(Recheck, "the new re-check: the answer's standing against the documents"),
            202: answers(RecheckQueued, "queued (AWS): the recheck function signs it shortly"),
            **ERRORS,
        },
    )
    def recheck_certificate(certificate_id: str) -> Response[Recheck | RecheckQueued]:
        from certiq.trust.rechecks import recheck_with

        certificate = _certificate(deps, certificate_id)
        if deps.rechecks is None:  # locally: at once
            done = recheck_with(deps, certificate)
            return Response(status_code=200, content_type=JSON, body=done)
        # In AWS the API function neither signs nor reads the index: the recheck function does.
        request = RecheckRequest(
            tenant=certificate.tenant,
            certificate_id=certificate.certificate_id,
            doc_id="",
            requested_at=deps.clock.now(),
        )
        deps.rechecks.submit([request])
        queued = RecheckQueued(
            certificate_id=certificate.certificate_id,
            requested_at=request.requested_at,
            rechecks_url=f"/v1/certificates/{certificate.certificate_id}/rechecks",
        )
        return Response(status_code=202, content_type=JSON, body=queued)

    @router.get(
        "/v1/certificates/<certificate_id>/rechecks",
        responses=ok("the certificate's re-checks, oldest first: the last is its standing"),
    )
    def certificate_rechecks(certificate_id: str) -> list[Recheck]:
        return deps.certificates.rechecks(_certificate(deps, certificate_id).certificate_id)

    @router.get(
        "/v1/documents/<doc_id>/citations",
        responses=ok("the certificates that cite the document, oldest first"),
    )
    def document_citations(doc_id: str) -> DocumentCitations:
        tenant = deps.settings.tenant
        citing = deps.certificates.citing(tenant, doc_id)
        if not citing and deps.documents.get(tenant, doc_id) is None:
            raise NotFoundError(f"no document {doc_id}")
        return DocumentCitations(doc_id=doc_id, certificates=citing, count=len(citing))

    @router.get("/v1/signing-key", responses=ok("the public key certificates are checked with"))
    def signing_key() -> SigningKey:
        return deps.signer.public_key()

    return router


def _certificate(deps: Deps, certificate_id: str) -> Certificate:
    certificate = deps.certificates.get(certificate_id)
    if certificate is None or certificate.tenant != deps.settings.tenant:
        raise NotFoundError(f"no certificate {certificate_id}")
    return certificate
