"""Every single-byte change to a stored certificate is detected (exhaustive over its bytes)."""

from __future__ import annotations

import pydantic

from certiq.config import PolicySettings
from certiq.models import Certificate, Citation, Claim, Decision, RenderState
from certiq.trust.certificate import check, seal_and_sign
from tests.fakes import EPOCH, make_box
from tests.unit.test_trust import HmacSigner


def sealed() -> Certificate:
    citation = Citation(
        id="C1",
        chunk_id="d:00000",
        doc_id="d",
        file_name="policy.pdf",
        page=1,
        boxes=[make_box()],
        quote="Backups are kept for 35 days.",
        start=0,
        end=29,
        score=1.25,
        valid=True,
    )
    decision = Decision(
        state=RenderState.VERIFIED,
        entail=1.0,
        contradict=0.0,
        evidence=["C1"],
        verifier="lexical",
        reason="the cited evidence states this claim",
    )
    claim = Claim(id="K1", text=citation.quote, citation_ids=["C1"], decision=decision)
    unsealed = Certificate(
        certificate_id="cert-q1",
        question_id="q1",
        tenant="default",
        question="How long are backups kept?",
        answer=f"{citation.quote} [C1]",
        claims=[claim],
        citations=[citation],
        documents=[],
        policy=PolicySettings().model_dump(),
        config_hash="c" * 64,
        created_at=EPOCH,
        field_digests={},
        seal="",
        signature="",
        signing_key_id="",
    )
    return seal_and_sign(unsealed, HmacSigner())


def test_flipping_any_byte_of_the_stored_certificate_is_detected() -> None:
    # GIVEN the certificate as it is stored (its JSON), and a check that passes on it
    signer = HmacSigner()
    stored = sealed().model_dump_json().encode("utf-8")
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
