"""Signing with a KMS asymmetric key (KeySpec ECC_NIST_P256, KeyUsage SIGN_VERIFY).

The private key never leaves KMS: Sign signs the seal (ECDSA_SHA_256, MessageType RAW; the seal
is 64 hex characters, far under Sign's 4 KB limit). Checks use the public key, fetched once with
GetPublicKey and kept: the check is the one an auditor runs with the published key, and it costs
no KMS call per certificate.
"""

from __future__ import annotations

import base64
import threading
from typing import TYPE_CHECKING, Final

from cryptography.hazmat.primitives import serialization

from certiq.adapters.aws._errors import transient_errors
from certiq.errors import ConfigurationError
from certiq.models import SigningKey
from certiq.trust.signatures import (
    ECDSA_P256_SHA256,
    fingerprint,
    load_public_key,
    public_pem,
    verify_signature,
)

if TYPE_CHECKING:
    from mypy_boto3_kms import KMSClient

    from certiq.trust.signatures import PublicKey

SIGNING_ALGORITHM: Final = "ECDSA_SHA_256"


class KmsSigner:
    """Implements certiq.ports.Signer with the KMS key ``key_id`` (id, ARN or alias)."""

    def __init__(self, client: KMSClient, key_id: str) -> None:
        self._kms = client
        self._key_id = key_id
        self._public: PublicKey | None = None
        self._lock = threading.Lock()

    @property
    def key_id(self) -> str:
        return "kms:" + self._key_id

    def sign(self, message: bytes) -> str:
        with transient_errors("KMS Sign"):
            response = self._kms.sign(
                KeyId=self._key_id,
                Message=message,
                MessageType="RAW",
                SigningAlgorithm=SIGNING_ALGORITHM,
            )
        return base64.b64encode(response["Signature"]).decode("ascii")

    def verify(self, message: bytes, signature: str) -> bool:
        return verify_signature(self._public_key(), message, signature)

    def public_key(self) -> SigningKey:
        public = self._public_key()
        return SigningKey(
            key_id=self.key_id,
            algorithm=ECDSA_P256_SHA256,
            fingerprint=fingerprint(public),
            public_key_pem=public_pem(public),
        )

    def _public_key(self) -> PublicKey:
        with self._lock:
            if self._public is None:
                with transient_errors("KMS GetPublicKey"):
                    response = self._kms.get_public_key(KeyId=self._key_id)
                if SIGNING_ALGORITHM not in response.get("SigningAlgorithms", []):
                    raise ConfigurationError(
                        f"KMS key {self._key_id} cannot sign with {SIGNING_ALGORITHM}: certiq"
                        " needs KeySpec ECC_NIST_P256 and KeyUsage SIGN_VERIFY"
                    )
                der = serialization.load_der_public_key(response["PublicKey"])
                self._public = load_public_key(
                    der.public_bytes(
                        serialization.Encoding.PEM,
                        serialization.PublicFormat.SubjectPublicKeyInfo,
                    )
                )
            return self._public
