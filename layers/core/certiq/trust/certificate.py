"""Certificates: a canonical JSON body, a SHA-256 seal over it and a signature over the seal.

Each sealed field has its own digest and the seal is the digest of those digests, so a check can
name the first field that changed. The seal detects accidental change; only the signature stops
someone who can rewrite the body and its digests.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from certiq.models import Certificate, CertificateCheck
from certiq.ports import Signer

UNSEALED = frozenset({"field_digests", "seal", "signature", "signing_key_id"})


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8, no NaN: the same value always gives the same text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def field_digests(certificate: Certificate) -> dict[str, str]:
    body = certificate.model_dump(mode="json", exclude=set(UNSEALED))
    return {name: sha256_hex(canonical_json(value)) for name, value in body.items()}


def seal_and_sign(unsealed: Certificate, signer: Signer) -> Certificate:
    """Returns the certificate with its digests, seal, signature and key id filled in."""
    digests = field_digests(unsealed)
    seal = sha256_hex(canonical_json(digests))
    return unsealed.model_copy(
        update={
            "field_digests": digests,
            "seal": seal,
            "signature": signer.sign(seal.encode("ascii")),
            "signing_key_id": signer.key_id,
        }
    )


def check(certificate: Certificate, signer: Signer) -> CertificateCheck:
    """Recomputes every digest and the seal, verifies the signature, names what differs first."""
    recomputed = field_digests(certificate)
    stored = certificate.field_digests
    first_difference = next(
        (name for name in recomputed if recomputed[name] != stored.get(name)), None
    )
    if first_difference is None and sha256_hex(canonical_json(stored)) != certificate.seal:
        first_difference = "seal"
    signature_ok = certificate.signing_key_id == signer.key_id and signer.verify(
        certificate.seal.encode("ascii"), certificate.signature
    )
    if first_difference is None and not signature_ok:
        first_difference = "signature"
    return CertificateCheck(
        certificate_id=certificate.certificate_id,
        valid=first_difference is None,
        seal_ok=first_difference in (None, "signature"),
        signature_ok=signature_ok,
        first_difference=first_difference,
    )
