"""Errors the domain raises. The class name is the error name Step Functions matches on."""

from __future__ import annotations


class CertiqError(Exception):
    """Base of every error certiq raises on purpose."""


class TransientError(CertiqError):
    """An upstream failure worth retrying (throttling, 5xx, timeouts): the ASL retries it."""


class NotFound(CertiqError):
    pass


class AlreadyExists(CertiqError):
    """A write that must happen once (a certificate, a question id) was attempted twice."""


class IngestionError(CertiqError):
    """A document that cannot be ingested; the message is the reason the user sees."""


class InvalidRequest(CertiqError):
    """A request that breaks its contract; names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class DuplicateContent(CertiqError):
    """Bytes the tenant's collection holds already, under another document: not indexed twice."""

    def __init__(self, doc_id: str, file_name: str) -> None:
        super().__init__(
            f"the same content is already document {doc_id} ({file_name}): not indexed twice"
        )
        self.doc_id = doc_id
        self.file_name = file_name


class ConfigurationError(CertiqError):
    """Settings that cannot work (a missing table name, a provider without its key)."""


class ProviderError(CertiqError):
    """A model provider refused the request or answered something unusable (not worth retrying)."""


class StaleEvent(CertiqError):
    """A write for an event that is not later than the one already applied (S3 sequencer)."""


class OcrUnavailable(CertiqError):
    """The OCR engine cannot read a page (not installed, its language data missing, the job
    failed); the message is the reason recorded for the page."""
