"""Certificates: a canonical JSON body, a SHA-256 seal over it and a signature over the seal.

Each sealed field has its own digest and the seal is the digest of those digests, so a check can
name the first field that changed. The seal detects accidental change; only the signature stops
someone who can rewrite the body and its digests, and it is asymmetric: anyone holding the
published public key can check it (``check_with_public_key``), no one without the private key can
make one.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from certiq.models import Certificate, CertificateCheck
from certiq.ports import Signer
from certiq.trust.signatures import verify_signature

if TYPE_CHECKING:
    from certiq.trust.signatures import PublicKey

UNSEALED = frozenset({"field_digests", "seal", "signature", "signing_key_id"})
# Fields added after certificates were first issued: sealed only when set, so a certificate
# issued before a field existed (no digest for it) still checks.
SEALED_WHEN_SET = frozenset({"shown", "reused_from", "usage", "previous_seal"})


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8, numbers as RFC 8785 (JCS) writes them.

    The same value always gives the same text, and a verifier in another language that follows
    RFC 8785 (ECMAScript number formatting: 1.0 is "1", 1e-7 is "1e-7") gets the same bytes.
    """
    if isinstance(value, dict):
        items = sorted(value.items())
        return "{" + ",".join(f"{_string(k)}:{canonical_json(v)}" for k, v in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    if isinstance(value, str):
        return _string(value)
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return canonical_number(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def canonical_number(number: float) -> str:
    """ECMAScript's Number::toString over the shortest digits that round-trip (RFC 8785 3.2.2.3)."""
    if not math.isfinite(number):
        raise ValueError("NaN and infinities have no JSON form")
    if number == 0:
        return "0"
    if number < 0:
        return "-" + canonical_number(-number)
    _, digit_tuple, exponent = Decimal(repr(number)).normalize().as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = k + exponent  # the value is 0.digits x 10^n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{'+' if n - 1 > 0 else '-'}{abs(n - 1)}"


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def field_digests(certificate: Certificate) -> dict[str, str]:
    body = certificate.model_dump(mode="json", exclude=set(UNSEALED))
    return {
        name: sha256_hex(canonical_json(value))
        for name, value in body.items()
        if value is not None or name not in SEALED_WHEN_SET
    }


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
    signature_ok = certificate.signing_key_id == signer.key_id and signer.verify(
        certificate.seal.encode("ascii"), certificate.signature
    )
    return _outcome(certificate, signature_ok)


def check_with_public_key(certificate: Certificate, public_key: PublicKey) -> CertificateCheck:
    """The same check with only the published public key: no store, no secret, no service."""
    signature_ok = verify_signature(
        public_key, certificate.seal.encode("ascii"), certificate.signature
    )
    return _outcome(certificate, signature_ok)


def _outcome(certificate: Certificate, signature_ok: bool) -> CertificateCheck:
    recomputed = field_digests(certificate)
    stored = certificate.field_digests
    # Stored names are compared too: removing a field sealed only when set must not go unseen.
    names = [*recomputed, *(name for name in stored if name not in recomputed)]
    first_difference = next(
        (name for name in names if recomputed.get(name) != stored.get(name)), None
    )
    if first_difference is None and sha256_hex(canonical_json(stored)) != certificate.seal:
        first_difference = "seal"
    if first_difference is None and not signature_ok:
        first_difference = "signature"
    return CertificateCheck(
        certificate_id=certificate.certificate_id,
        valid=first_difference is None,
        seal_ok=first_difference in (None, "signature"),
        signature_ok=signature_ok,
        first_difference=first_difference,
    )


@dataclass(frozen=True)
class ChainLink:
    """One certificate of a tenant's history, checked, and whether it seals the one before."""

    certificate: Certificate
    check: CertificateCheck
    linked: bool
    previous_id: str | None

    @property
    def sound(self) -> bool:
        return self.check.valid and self.linked


def walk_chain(certificates: Iterable[Certificate], signer: Signer) -> Iterator[ChainLink]:
    """Checks each certificate and its link to the one before it, oldest first.

    A certificate links when its ``previous_seal`` is the stored seal of the certificate before
    it. Certificates sealed before the chain existed carry no previous seal and may only come
    first; once the chain has started, a missing or different previous seal is a broken link: a
    certificate before it was rewritten, re-sealed or removed.
    """
    previous: Certificate | None = None
    chained = False
    for certificate in certificates:
        if certificate.previous_seal is None:
            linked = not chained
        else:
            linked = previous is not None and certificate.previous_seal == previous.seal
            chained = True
        yield ChainLink(
            certificate=certificate,
            check=check(certificate, signer),
            linked=linked,
            previous_id=None if previous is None else previous.certificate_id,
        )
        previous = certificate
