"""Every single-byte change to a stored certificate is detected (exhaustive over its bytes)."""

from __future__ import annotations

from pathlib import Path

import pydantic

from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.models import Certificate
from certiq.trust.certificate import check, seal_and_sign
from tests.fakes import make_certificate


def test_flipping_any_byte_of_the_stored_certificate_is_detected(tmp_path: Path) -> None:
    # GIVEN the certificate as it is stored (its JSON), and a check that passes on it
    signer = KeyFileSigner(tmp_path / "signing-key.pem")
    stored = seal_and_sign(make_certificate(), signer).model_dump_json().encode("utf-8")
    assert check(Certificate.model_validate_json(stored), signer).valid
    undetected = []
    # WHEN each byte in turn has its lowest bit flipped
    for position in range(len(stored)):
        tampered = bytearray(stored)
        tampered[position] ^= 0x01
        # THEN the copy either no longer reads as a certificate or fails its check
        try:
            certificate = Certificate.model_validate_json(bytes(tampered))
        except (pydantic.ValidationError, UnicodeDecodeError):
            continue
        if check(certificate, signer).valid:
            undetected.append((position, chr(stored[position])))
    assert undetected == []
