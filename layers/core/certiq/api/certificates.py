"""Routes of certificates: read one, check it, and the public key that checks them anywhere."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from certiq.api.responses import new_router, ok
from certiq.deps import Deps
from certiq.models import Certificate, CertificateCheck, SigningKey
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

    @router.get("/v1/signing-key", responses=ok("the public key certificates are checked with"))
    def signing_key() -> SigningKey:
        return deps.signer.public_key()

    return router


def _certificate(deps: Deps, certificate_id: str) -> Certificate:
    certificate = deps.certificates.get(certificate_id)
    if certificate is None or certificate.tenant != deps.settings.tenant:
        raise NotFoundError(f"no certificate {certificate_id}")
    return certificate
