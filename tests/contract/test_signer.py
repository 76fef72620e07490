"""Contract of certiq.ports.Signer, run on KeyFileSigner (Ed25519) and KmsSigner (a KMS ECC key
under moto)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from certiq.ports import Signer
from certiq.trust.signatures import algorithm_of, fingerprint, load_public_key, verify_signature
from tests.contract.conftest import SignerKeys

SEAL = hashlib.sha256(b"canonical certificate body").hexdigest().encode()


def test_a_signature_verifies_against_its_message(signer: Signer) -> None:
    # GIVEN a signed seal
    signature = signer.sign(SEAL)

    # WHEN / THEN it verifies
    assert signer.verify(SEAL, signature) is True
    assert base64.b64decode(signature, validate=True)


def test_the_published_public_key_alone_checks_a_signature(signer: Signer) -> None:
    # GIVEN a signature and the signer's published public key, as PEM text
    signature = signer.sign(SEAL)
    published = signer.public_key()

    # WHEN it is read back from the PEM alone, with no access to the signer
    key = load_public_key(published.public_key_pem)

    # THEN it checks the signature, refuses a changed seal, and matches what is published
    assert verify_signature(key, SEAL, signature) is True
    changed = SEAL[:-1] + (b"0" if SEAL[-1:] != b"0" else b"1")
    assert verify_signature(key, changed, signature) is False
    assert published.key_id == signer.key_id
    assert published.fingerprint == fingerprint(key)
    assert published.algorithm == algorithm_of(key)
    assert "PRIVATE" not in published.public_key_pem


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

    # THEN it verifies the first's signature and names the same key (ECDSA signatures differ
    # from one signing to the next; each verifies)
    assert second.verify(SEAL, signature) is True
    assert second.verify(SEAL, second.sign(SEAL)) is True
    assert second.key_id == first.key_id


def test_another_key_does_not_verify(signer_keys: SignerKeys) -> None:
    # GIVEN a seal signed under one key
    signature = signer_keys.same().sign(SEAL)

    # WHEN a signer over another key checks it / THEN it fails, and the key ids differ
    other = signer_keys.other()
    assert other.verify(SEAL, signature) is False
    assert other.key_id != signer_keys.same().key_id
