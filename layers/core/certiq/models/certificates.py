"""Certificates: what was shown and why, sealed and signed; and verified answers kept for reuse."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from certiq.models.answers import AnswerUsage, Citation, Claim, ReusedFrom, ShownAnswer
from certiq.models.base import Contract


class CertifiedDocument(Contract):
    doc_id: str
    file_name: str
    sha256: str
    version: str


class Certificate(Contract):
    """The sealed, signed record of what was shown and why. Stored once, never overwritten."""

    certificate_id: str
    question_id: str
    tenant: str
    question: str
    answer: str
    claims: list[Claim]
    citations: list[Citation]
    documents: list[CertifiedDocument]
    policy: dict[str, Any]
    config_hash: str
    created_at: datetime
    shown: ShownAnswer | None = Field(
        default=None,
        description=(
            "the answer as shown (translated, links checked); `answer` was verified;"
            " sealed only when set"
        ),
    )
    reused_from: ReusedFrom | None = Field(
        default=None,
        description=(
            "the earlier certificate whose verified claims and citations are shown again;"
            " sealed only when set, so certificates from before the field still check"
        ),
    )
    usage: AnswerUsage | None = Field(
        default=None,
        description="who drafted the answer, with tokens and latency per call; sealed when set",
    )
    previous_seal: str | None = Field(
        default=None,
        description=(
            "the seal of the tenant's certificate before this one, where the store keeps a hash"
            " chain (local); sealed when set, so rewriting one breaks the link of the next"
        ),
    )
    field_digests: dict[str, str] = Field(
        description="SHA-256 of each sealed field's canonical JSON, so a check can name the field"
    )
    seal: str = Field(description="SHA-256 of the canonical JSON of field_digests")
    signature: str = Field(description="the signing key's signature of the seal, base64")
    signing_key_id: str


class VerifiedAnswer(Contract):
    """A fully verified answer that a later, near-identical question of the tenant may reuse."""

    tenant: str
    question_id: str
    certificate_id: str
    question: str = Field(description="the text searched for it (redacted, rewritten if so)")
    terms_key: str = Field(description="identifies the question's terms (certiq.retrieval.reuse)")
    collection: str | None = None
    embedder: str | None = Field(default=None, description="the model of ``embedding``")
    embedding: list[float] | None = None
    documents: list[CertifiedDocument] = Field(description="the cited documents' versions")
    created_at: datetime = Field(description="when the question was received")


class SigningKey(Contract):
    """The public half of the key that signs certificates: what an auditor checks them with."""

    key_id: str = Field(description="the signing_key_id certificates signed with it carry")
    algorithm: Literal["ed25519", "ecdsa-p256-sha256"]
    fingerprint: str = Field(description="SHA-256 of the key's DER SubjectPublicKeyInfo, hex")
    public_key_pem: str = Field(description="PEM SubjectPublicKeyInfo")


class CertificateCheck(Contract):
    certificate_id: str
    valid: bool
    seal_ok: bool
    signature_ok: bool
    first_difference: str | None = Field(
        default=None, description="the first field whose content no longer matches the seal"
    )


# --- the HTTPS API -------------------------------------------------------------------------
