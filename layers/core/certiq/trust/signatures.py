"""Signature checks anyone can repeat with the published public key and nothing else.

certiq signs a certificate's seal asymmetrically: Ed25519 with the local key file, ECDSA over
NIST P-256 with SHA-256 with a KMS key in AWS (KMS returns the DER encoding, which is what
``cryptography`` reads). The private key never leaves its holder; the public key (PEM,
SubjectPublicKeyInfo) is what `certiq public-key` and ``GET /v1/signing-key`` publish.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import TYPE_CHECKING, Final, TypeAlias

from certiq.errors import CertiqError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    PublicKey: TypeAlias = ed25519.Ed25519PublicKey | ec.EllipticCurvePublicKey

ED25519: Final = "ed25519"
ECDSA_P256_SHA256: Final = "ecdsa-p256-sha256"
# cryptography is imported where a key is read or a signature checked, not with this module:
# the functions that only seal (and the API's cold start) do not pay for it.


def load_public_key(pem: str | bytes) -> PublicKey:
    """Reads a PEM public key certiq can check with; raises CertiqError for anything else."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    data = pem.encode("ascii", errors="replace") if isinstance(pem, str) else pem
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as error:
        raise CertiqError("not a PEM public key (-----BEGIN PUBLIC KEY-----)") from error
    if isinstance(key, ed25519.Ed25519PublicKey):
        return key
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return key
    raise CertiqError("certiq signatures use Ed25519 or ECDSA P-256 keys; this key is neither")


def algorithm_of(key: PublicKey) -> str:
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return ED25519 if isinstance(key, ed25519.Ed25519PublicKey) else ECDSA_P256_SHA256


def public_pem(key: PublicKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def fingerprint(key: PublicKey) -> str:
    """SHA-256 of the key's DER SubjectPublicKeyInfo, hex: what a reader compares by eye."""
    from cryptography.hazmat.primitives import serialization

    der = key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return hashlib.sha256(der).hexdigest()


def verify_signature(key: PublicKey, message: bytes, signature: str) -> bool:
    """True when ``signature`` (base64) is the key's signature of ``message``; never raises."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    try:
        raw = base64.b64decode(signature.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        return False
    if not raw:
        return False
    try:
        if isinstance(key, ed25519.Ed25519PublicKey):
            key.verify(raw, message)
        else:
            key.verify(raw, message, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError):
        return False
    return True
