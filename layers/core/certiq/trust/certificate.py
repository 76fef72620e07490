"""Certificates: a canonical JSON body, a SHA-256 seal over it and a signature over the seal.

Each sealed field has its own digest and the seal is the digest of those digests, so a check can
name the first field that changed. The seal detects accidental change; only the signature stops
someone who can rewrite the body and its digests.
"""

from __future__ import annotations

import hashlib
import json
import math
from decimal import Decimal
from typing import Any

from certiq.models import Certificate, CertificateCheck
from certiq.ports import Signer

UNSEALED = frozenset({"field_digests", "seal", "signature", "signing_key_id"})
# Fields added after certificates were first issued: sealed only when set, so a certificate
# issued before a field existed (no digest for it) still checks.
SEALED_WHEN_SET = frozenset({"shown", "reused_from", "usage"})


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
    recomputed = field_digests(certificate)
    stored = certificate.field_digests
    # Stored names are compared too: removing a field sealed only when set must not go unseen.
    names = [*recomputed, *(name for name in stored if name not in recomputed)]
    first_difference = next(
        (name for name in names if recomputed.get(name) != stored.get(name)), None
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
