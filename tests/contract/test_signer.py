"""Contract of certiq.ports.Signer, run on KeyFileSigner and KmsSigner (KMS HMAC under moto)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from certiq.ports import Signer
from tests.contract.conftest import SignerKeys

pytestmark = pytest.mark.contract

SEAL = hashlib.sha256(b"canonical certificate body").hexdigest().encode()


def test_a_signature_verifies_against_its_message(signer: Signer) -> None:
    # GIVEN a signed seal
    signature = signer.sign(SEAL)

    # WHEN / THEN it verifies, and it is base64 of a 32-byte HMAC-SHA256
    assert signer.verify(SEAL, signature) is True
    assert len(base64.b64decode(signature, validate=True)) == 32


def test_a_tampered_message_fails(signer: Signer) -> None:
    # GIVEN a signature of a seal
    signature = signer.sign(SEAL)

    # WHEN the seal changes by one character / THEN the signature no longer verifies
    tampered = SEAL[:-1] + (b"0" if SEAL[-1:] != b"0" else b"1")
    assert signer.verify(tampered, signature) is False


def test_a_tampered_signature_fails(signer: Signer) -> None:
    # GIVEN a signature whose first byte is flipped
    raw = bytearray(base64.b64decode(signer.sign(SEAL)))
    raw[0] ^= 0x01
    tampered = base64.b64encode(bytes(raw)).decode()

    # WHEN / THEN it does not verify
    assert signer.verify(SEAL, tampered) is False


@pytest.mark.parametrize("garbage", ["", "not base64!", "AAAA", "é"])
def test_malformed_signatures_fail_without_raising(signer: Signer, garbage: str) -> None:
    assert signer.verify(SEAL, garbage) is False


def test_signatures_are_stable_across_instances_of_one_key(signer_keys: SignerKeys) -> None:
    # GIVEN a seal signed by one instance
    first = signer_keys.same()
    signature = first.sign(SEAL)

    # WHEN a new instance over the same key signs and verifies
    second = signer_keys.same()

    # THEN it produces the same signature, verifies the first's, and names the same key
    assert second.sign(SEAL) == signature
    assert second.verify(SEAL, signature) is True
    assert second.key_id == first.key_id


def test_another_key_does_not_verify(signer_keys: SignerKeys) -> None:
    # GIVEN a seal signed under one key
    signature = signer_keys.same().sign(SEAL)

    # WHEN a signer over another key checks it / THEN it fails, and the key ids differ
    other = signer_keys.other()
    assert other.verify(SEAL, signature) is False
    assert other.key_id != signer_keys.same().key_id
