"""Routes of certificates: read one, check it, re-check it against the documents now, the
certificates that cite a document, and the public key that checks them anywhere."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from certiq.api.responses import new_router, ok
from certiq.deps import Deps
from certiq.models import Certificate, CertificateCheck, DocumentCitations, Recheck, SigningKey
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
        responses=ok("the new re-check: the answer's standing against the documents now"),
    )
    def recheck_certificate(certificate_id: str) -> Recheck:
        from certiq.trust.rechecks import recheck_with

        return recheck_with(deps, _certificate(deps, certificate_id))

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
