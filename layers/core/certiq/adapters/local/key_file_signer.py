"""Signing with a local key file: HMAC-SHA256 under a 32-byte random key.

The key is created on first use, readable by its owner alone (mode 0600). Creation is race-free:
the key is written to a temporary file and hard-linked to its name, so two processes starting
together end up with the same key, and no one ever reads a half-written file.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
import threading
from pathlib import Path
from typing import Final

from certiq.errors import CertiqError

KEY_BYTES: Final = 32


class KeyFileSigner:
    """Implements certiq.ports.Signer with the key held in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key: bytes | None = None
        self._lock = threading.Lock()

    @property
    def key_id(self) -> str:
        return "local:" + hashlib.sha256(self._load()).hexdigest()[:16]

    def sign(self, message: bytes) -> str:
        mac = hmac.new(self._load(), message, hashlib.sha256).digest()
        return base64.b64encode(mac).decode("ascii")

    def verify(self, message: bytes, signature: str) -> bool:
        try:
            given = base64.b64decode(signature.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            return False
        expected = hmac.new(self._load(), message, hashlib.sha256).digest()
        return hmac.compare_digest(given, expected)

    def _load(self) -> bytes:
        with self._lock:
            if self._key is None:
                self._key = self._read_or_create()
            return self._key

    def _read_or_create(self) -> bytes:
        if not self.path.exists():
            self._create()
        key = self.path.read_bytes()
        if len(key) != KEY_BYTES:
            raise CertiqError(
                f"signing key file {self.path} holds {len(key)} bytes, not {KEY_BYTES}"
            )
        return key

    def _create(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(prefix=".certiq-key-", dir=self.path.parent)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "wb") as temp:
                temp.write(secrets.token_bytes(KEY_BYTES))
                temp.flush()
                os.fsync(temp.fileno())
            # link() fails if the name exists: whoever links first wins, the others read theirs.
            with contextlib.suppress(FileExistsError):
                os.link(temp_name, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
