"""Ports of the stores: originals, documents, questions, certificates and reusable answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from certiq.models import (
    Certificate,
    DocumentRecord,
    QAResponse,
    QuestionRecord,
    QuestionStatus,
    Recheck,
    VerifiedAnswer,
)


class BlobStore(Protocol):
    """Originals of ingested files (S3 in the cloud, a folder locally)."""

    def put(self, key: str, data: bytes, content_type: str) -> str:
        """Stores data under key and returns its URI."""
        ...

    def get(self, key: str, version: str | None = None) -> bytes:
        """The current bytes under key, or one version of them (an S3 VersionId).

        Raises NotFound when the key holds nothing, or not that version; a store that keeps no
        versions holds only version None.
        """
        ...

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None: ...


class DocumentStore(Protocol):
    """The documents table: one record per document with its ingestion status."""

    def put(self, record: DocumentRecord) -> None:
        """Creates or replaces the record of (tenant, doc_id)."""
        ...

    def put_if_sequencer_before(self, record: DocumentRecord, sequencer: str) -> None:
        """Creates or replaces the record only while the stored one is absent, has no sequencer,
        or one earlier than ``sequencer`` (the S3 event being applied), in one atomic step.

        Sequencers compare as AWS says: left-pad the shorter with zeros, the greater is later.
        record.sequencer is what gets stored: the event's own once it is applied, the previous
        one while it is in progress. Raises StaleEvent, leaving the stored record untouched,
        when an event as late or later is recorded; InvalidRequest for a non-hex sequencer.
        """
        ...

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None: ...

    def list(self, tenant: str) -> list[DocumentRecord]:
        """Every record of the tenant, oldest first."""
        ...


class QuestionStore(Protocol):
    """The questions table: the status the API polls and the response once complete."""

    def create(self, record: QuestionRecord) -> None:
        """Raises AlreadyExists when the question id is taken."""
        ...

    def set_status(
        self, question_id: str, status: QuestionStatus, reason: str | None = None
    ) -> None:
        """Raises NotFound for an unknown question id."""
        ...

    def complete(self, question_id: str, response: QAResponse) -> None:
        """Stores the final response and its status (COMPLETE, REJECTED, ...)."""
        ...

    def get(self, question_id: str) -> QuestionRecord | None: ...

    def conversation(self, tenant: str, conversation_id: str) -> list[QuestionRecord]:
        """The tenant's questions asked in one conversation, oldest first (ties by id)."""
        ...


class CertificateStore(Protocol):
    """Certificates, written once and never replaced."""

    def append(self, tenant: str, seal: Callable[[str | None], Certificate]) -> Certificate:
        """Seals and stores the tenant's next certificate; returns it as stored.

        ``seal`` gets the seal of the tenant's latest certificate where the store keeps a hash
        chain (the local store; None for the first) and None where it does not (DynamoDB, whose
        certificates an Object Lock bucket keeps unrewritable), and returns the certificate
        sealed over it. Appends of one tenant are serialised so the chain never forks. Raises
        AlreadyExists rather than overwrite a stored certificate.
        """
        ...

    def get(self, certificate_id: str) -> Certificate | None: ...

    def history(self, tenant: str) -> Iterator[Certificate]:
        """The tenant's certificates, oldest first: in chain order where there is a chain."""
        ...

    def citing(self, tenant: str, doc_id: str) -> list[str]:
        """The ids of the tenant's certificates that cite the document, oldest first."""
        ...

    def append_recheck(
        self, tenant: str, certificate_id: str, seal: Callable[[Recheck | None], Recheck]
    ) -> Recheck:
        """Seals and stores the certificate's next re-check; returns it as stored.

        ``seal`` gets the certificate's latest re-check (None for the first) and returns the
        next one, chained to it. Re-checks of one certificate are serialised so their chain
        never forks; raises AlreadyExists when another was stored in the meantime. The
        certificate itself is never touched.
        """
        ...

    def rechecks(self, certificate_id: str) -> list[Recheck]:
        """The certificate's re-checks, oldest first (empty when it was never re-checked)."""
        ...


class CertificateArchive(Protocol):
    """A write-once copy of every certificate that no one can rewrite or delete before its
    retention ends (S3 Object Lock in compliance mode)."""

    def put(self, certificate: Certificate) -> None:
        """Archives the certificate; archiving the same certificate again changes nothing."""
        ...


class VerifiedAnswerStore(Protocol):
    """Fully verified answers a later near-identical question of the tenant may reuse.

    Similarity is judged by the caller, in memory, over the candidates a store returns: every
    answer with the same terms key, and a bounded number of the newest others.
    """

    def put(self, answer: VerifiedAnswer) -> None:
        """Adds or replaces the answer of (tenant, question_id)."""
        ...

    def candidates(
        self, tenant: str, collection: str | None, terms_key: str, limit: int
    ) -> list[VerifiedAnswer]:
        """The tenant's answers in the collection (None: asked of no collection): up to ``limit``
        with this terms key, then up to ``limit`` of the newest others; newest first, each once.
        """
        ...
