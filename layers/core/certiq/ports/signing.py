"""Ports that sign: certificate seals with a private key, and uploads a client sends straight to
the blob store."""

from __future__ import annotations

from typing import Protocol

from certiq.models import SigningKey, UploadTarget


class Signer(Protocol):
    """Signs certificate seals with a private key (a KMS ECC key in the cloud, an Ed25519 key
    file otherwise) whose public half anyone may check the signatures with."""

    @property
    def key_id(self) -> str: ...

    def sign(self, message: bytes) -> str:
        """Returns the signature, base64-encoded."""
        ...

    def verify(self, message: bytes, signature: str) -> bool:
        """True when ``signature`` is this key's signature of ``message``; never raises for a
        malformed signature."""
        ...

    def public_key(self) -> SigningKey:
        """The public key, to publish: certificates check with it and nothing else."""
        ...


class UploadSigner(Protocol):
    """Lets a client send a file straight to the blob store (a presigned S3 POST in the cloud)."""

    def presign_upload(
        self, key: str, content_type: str, max_bytes: int, expires_seconds: int
    ) -> UploadTarget:
        """A target accepting one object under key, of that type and at most max_bytes."""
        ...
