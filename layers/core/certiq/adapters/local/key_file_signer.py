"""Signing with a local Ed25519 key file (PKCS#8 PEM, unencrypted, readable by its owner alone).

The key is created on first use. Creation is race-free: the key is written to a temporary file
and hard-linked to its name, so two processes starting together end up with the same key, and no
one ever reads a half-written file. Signatures check with the public key alone
(certiq.trust.signatures), so the public key may be handed to anyone.

Where the file lives decides what a signature proves: inside CERTIQ_HOME, whoever can write the
data can also re-sign it; the setting ``signing.key_file`` puts it elsewhere (another account's
folder, a mounted secret).
"""

from __future__ import annotations

import base64
import contextlib
import os
import tempfile
import threading
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from certiq.errors import CertiqError
from certiq.models import SigningKey
from certiq.trust.signatures import ED25519, fingerprint, public_pem, verify_signature

KEY_ID_PREFIX = "local-ed25519:"


class KeyFileSigner:
    """Implements certiq.ports.Signer with the Ed25519 key held in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key: ed25519.Ed25519PrivateKey | None = None
        self._lock = threading.Lock()

    @property
    def key_id(self) -> str:
        return KEY_ID_PREFIX + fingerprint(self._load().public_key())[:16]

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self._load().sign(message)).decode("ascii")

    def verify(self, message: bytes, signature: str) -> bool:
        return verify_signature(self._load().public_key(), message, signature)

    def public_key(self) -> SigningKey:
        public = self._load().public_key()
        return SigningKey(
            key_id=self.key_id,
            algorithm=ED25519,
            fingerprint=fingerprint(public),
            public_key_pem=public_pem(public),
        )

    def _load(self) -> ed25519.Ed25519PrivateKey:
        with self._lock:
            if self._key is None:
                self._key = self._read_or_create()
            return self._key

    def _read_or_create(self) -> ed25519.Ed25519PrivateKey:
        if not self.path.exists():
            self._create()
        try:
            key = serialization.load_pem_private_key(self.path.read_bytes(), password=None)
        except (ValueError, TypeError) as error:
            raise CertiqError(
                f"signing key file {self.path} is not an unencrypted PEM private key"
            ) from error
        if not isinstance(key, ed25519.Ed25519PrivateKey):
            raise CertiqError(f"signing key file {self.path} holds a key that is not Ed25519")
        return key

    def _create(self) -> None:
        pem = ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(prefix=".certiq-key-", dir=self.path.parent)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "wb") as temp:
                temp.write(pem)
                temp.flush()
                os.fsync(temp.fileno())
            # link() fails if the name exists: whoever links first wins, the others read theirs.
            with contextlib.suppress(FileExistsError):
                os.link(temp_name, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
