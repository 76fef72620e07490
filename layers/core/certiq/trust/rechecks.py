"""Re-checks as records: run one, seal and sign it, store it, and check the chain they form.

A re-check never touches the certificate. It is a record of its own whose digest covers every
field but the digest and signature, signed with the certificate signer (certiq.ports.Signer),
and whose ``previous_digest`` is the digest of the certificate's previous re-check, or for the
first the certificate's seal. Anyone with the public key checks the chain
(``check_rechecks_with_public_key``) as they check a certificate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from certiq.config import PolicySettings
from certiq.deps import Deps
from certiq.models import (
    Certificate,
    Chunk,
    DocumentStatus,
    Recheck,
    RecheckCheck,
    RecheckRequest,
    chunk_id,
)
from certiq.ports import CertificateStore, Clock, DocumentStore, SearchIndex, Signer, Verifier
from certiq.trust.certificate import canonical_json, sha256_hex
from certiq.trust.recheck import CurrentDocument, recheck_findings, summary, worst
from certiq.trust.signatures import verify_signature

if TYPE_CHECKING:
    from certiq.trust.signatures import PublicKey

UNSEALED = frozenset({"digest", "signature", "signing_key_id"})


def recheck_digest(recheck: Recheck) -> str:
    return sha256_hex(canonical_json(recheck.model_dump(mode="json", exclude=set(UNSEALED))))


def current_documents(
    certificate: Certificate, documents: DocumentStore, index: SearchIndex
) -> dict[str, CurrentDocument]:
    """Each cited document's record now and, when it is indexed, its chunks in order."""
    found: dict[str, CurrentDocument] = {}
    for doc_id in dict.fromkeys(citation.doc_id for citation in certificate.citations):
        record = documents.get(certificate.tenant, doc_id)
        chunks: list[Chunk] = []
        if record is not None and record.status is DocumentStatus.INDEXED and record.chunks:
            ids = [chunk_id(doc_id, ordinal) for ordinal in range(record.chunks)]
            by_id = index.get_chunks(certificate.tenant, ids)
            chunks = [by_id[each] for each in ids if each in by_id]
        found[doc_id] = CurrentDocument(record=record, chunks=chunks)
    return found


def recheck(
    certificate: Certificate,
    *,
    certificates: CertificateStore,
    documents: DocumentStore,
    index: SearchIndex,
    verifier: Verifier,
    signer: Signer,
    clock: Clock,
    policy: PolicySettings,
) -> Recheck:
    """Re-checks the certificate against the documents now and stores the signed record."""
    findings = recheck_findings(
        certificate, current_documents(certificate, documents, index), verifier, policy
    )
    checked_at = clock.now()

    def seal(previous: Recheck | None) -> Recheck:
        unsigned = Recheck(
            certificate_id=certificate.certificate_id,
            tenant=certificate.tenant,
            sequence=1 if previous is None else previous.sequence + 1,
            checked_at=checked_at,
            standing=worst([finding.standing for finding in findings]),
            summary=summary(findings),
            findings=findings,
            previous_digest=certificate.seal if previous is None else previous.digest,
            digest="",
            signature="",
            signing_key_id="",
        )
        digest = recheck_digest(unsigned)
        return unsigned.model_copy(
            update={
                "digest": digest,
                "signature": signer.sign(digest.encode("ascii")),
                "signing_key_id": signer.key_id,
            }
        )

    return certificates.append_recheck(certificate.tenant, certificate.certificate_id, seal)


def check_rechecks(
    certificate: Certificate, rechecks: Sequence[Recheck], signer: Signer
) -> list[RecheckCheck]:
    """Each re-check of the certificate, oldest first, checked with the signer."""
    return _walk(
        certificate,
        rechecks,
        lambda r: (
            r.signing_key_id == signer.key_id
            and signer.verify(r.digest.encode("ascii"), r.signature)
        ),
    )


def check_rechecks_with_public_key(
    certificate: Certificate, rechecks: Sequence[Recheck], public_key: PublicKey
) -> list[RecheckCheck]:
    """The same check with only the published public key."""
    return _walk(
        certificate,
        rechecks,
        lambda r: verify_signature(public_key, r.digest.encode("ascii"), r.signature),
    )


def _walk(
    certificate: Certificate,
    rechecks: Sequence[Recheck],
    signature_ok: Callable[[Recheck], bool],
) -> list[RecheckCheck]:
    checks: list[RecheckCheck] = []
    previous = certificate.seal
    for sequence, each in enumerate(rechecks, start=1):
        digest_ok = recheck_digest(each) == each.digest
        signed = signature_ok(each)
        linked = (
            each.previous_digest == previous
            and each.sequence == sequence
            and each.certificate_id == certificate.certificate_id
        )
        checks.append(
            RecheckCheck(
                certificate_id=each.certificate_id,
                sequence=each.sequence,
                valid=digest_ok and signed and linked,
                digest_ok=digest_ok,
                signature_ok=signed,
                linked=linked,
            )
        )
        previous = each.digest
    return checks


def recheck_with(deps: Deps, certificate: Certificate) -> Recheck:
    """``recheck`` with the ports of ``deps`` and the render policy of its settings."""
    return recheck(
        certificate,
        certificates=deps.certificates,
        documents=deps.documents,
        index=deps.index,
        verifier=deps.verifier,
        signer=deps.signer,
        clock=deps.clock,
        policy=deps.settings.policy,
    )


def recheck_citing(deps: Deps, tenant: str, doc_id: str) -> list[Recheck | Exception]:
    """Re-checks every certificate of the tenant that cites the document, each on its own: one
    that fails gives its error in its place and the others go on."""
    outcomes: list[Recheck | Exception] = []
    for certificate_id in deps.certificates.citing(tenant, doc_id):
        try:
            certificate = deps.certificates.get(certificate_id)
            if certificate is None:
                raise LookupError(f"certificate {certificate_id} is listed but not stored")
            outcomes.append(recheck_with(deps, certificate))
        except Exception as error:  # one certificate's failure must not stop the others
            outcomes.append(error)
    return outcomes


def recheck_requested(deps: Deps, request: RecheckRequest) -> Recheck | None:
    """Runs one queued re-check (the recheck function's work); None when there is nothing to do:
    the certificate is not the tenant's, or it was re-checked at or after ``requested_at`` (a
    message delivered again, or a change an on-demand re-check already saw)."""
    certificate = deps.certificates.get(request.certificate_id)
    if certificate is None or certificate.tenant != request.tenant:
        return None
    done = deps.certificates.rechecks(certificate.certificate_id)
    if done and done[-1].checked_at >= request.requested_at:
        return None
    return recheck_with(deps, certificate)
