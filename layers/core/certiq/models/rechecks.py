"""Re-checks of a sealed certificate: whether its quotes still stand in the current documents.

A certificate is never rewritten. Each re-check is a record of its own, signed like a
certificate and chained: it carries the digest of the certificate's previous re-check, or of
the certificate itself (its seal) for the first.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from certiq.models.answers import RenderState
from certiq.models.base import Contract


class Standing(StrEnum):
    """How a quote, or a whole answer (the worst of its quotes), stands today."""

    CURRENT = "CURRENT"
    CHANGED = "CHANGED"
    STALE = "STALE"
    SOURCE_DELETED = "SOURCE_DELETED"


# Best first: an answer's standing is the last of these any of its quotes has.
STANDING_ORDER: tuple[Standing, ...] = (
    Standing.CURRENT,
    Standing.CHANGED,
    Standing.STALE,
    Standing.SOURCE_DELETED,
)


class ClaimVerdict(Contract):
    """A claim of the answer judged again, against the quote's counterpart in the new version."""

    claim_id: str
    state: RenderState
    entail: float = Field(ge=0, le=1)
    contradict: float = Field(ge=0, le=1)
    verifier: str


class QuoteFinding(Contract):
    """What became of one cited quote."""

    citation_id: str
    doc_id: str
    file_name: str
    page: int = Field(ge=1, description="the page the quote was cited on")
    quote: str = Field(description="the quote as sealed")
    standing: Standing
    note: str = Field(description="what happened to the quote, in words")
    version: str | None = Field(
        default=None, description="the document's version now; None when it is gone"
    )
    now_page: int | None = Field(
        default=None, description="CURRENT or CHANGED: the page its counterpart is on now"
    )
    now_text: str | None = Field(
        default=None, description="CHANGED: the sentence of the new version that stands for it"
    )
    similarity: float | None = Field(
        default=None, ge=0, le=1, description="CHANGED: how close now_text is to the quote"
    )
    verdicts: list[ClaimVerdict] = Field(
        default_factory=list, description="CHANGED: the claims citing it, verified again"
    )


class Recheck(Contract):
    """One re-check of a certificate: signed, stored once, never rewritten."""

    certificate_id: str
    tenant: str
    sequence: int = Field(ge=1, description="1 for the certificate's first re-check, and so on")
    checked_at: datetime
    standing: Standing = Field(description="the worst standing of the answer's quotes")
    summary: str = Field(description="the standing in words, for people")
    findings: list[QuoteFinding]
    previous_digest: str = Field(
        description="digest of the certificate's previous re-check; for the first, the"
        " certificate's seal: the re-checks of a certificate form a hash chain"
    )
    digest: str = Field(description="SHA-256 of the canonical JSON of every field above")
    signature: str = Field(description="the signing key's signature of the digest, base64")
    signing_key_id: str


class RecheckCheck(Contract):
    """One link of a certificate's re-check chain, checked."""

    certificate_id: str
    sequence: int
    valid: bool = Field(description="digest, signature and link all hold")
    digest_ok: bool
    signature_ok: bool
    linked: bool = Field(description="previous_digest is that of the link before it")


class DocumentCitations(Contract):
    """The certificates that cite a document: the answers a change to it may leave untrue."""

    doc_id: str
    certificates: list[str] = Field(description="certificate ids, oldest first")
    count: int = Field(ge=0)


class RecheckRequest(Contract):
    """A re-check to run: one certificate, because a document it cites changed (the message the
    recheck queue carries, one per certificate)."""

    tenant: str
    certificate_id: str
    doc_id: str = Field(
        description="the cited document that was indexed anew or deleted; empty: asked for on"
        " demand (POST /v1/certificates/{id}/recheck)"
    )
    requested_at: datetime = Field(
        description="when the change was seen: a re-check of the certificate at or after it"
        " already reflects the change, so a repeated message is skipped"
    )


class RecheckQueued(Contract):
    """A re-check asked for through the API where re-checks run off a queue (AWS): the recheck
    function signs it shortly; its record then heads ``rechecks_url``."""

    certificate_id: str
    requested_at: datetime
    rechecks_url: str = Field(description="GET it for the certificate's re-checks, newest last")
