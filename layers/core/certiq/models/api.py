"""Bodies of the HTTPS API that are not stored records."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from certiq.models.answers import QAResponse, QuestionRecord, QuestionState, QuestionStatus
from certiq.models.base import Contract
from certiq.models.certificates import Certificate, CertificateCheck
from certiq.models.documents import Chunk, DocumentRecord, RetrievalMode
from certiq.models.rechecks import DocumentCitations, Recheck, RecheckQueued


class Capabilities(Contract):
    """What this deployment can do, so that clients say so where it matters."""

    index_language: str = Field(description="the documents' language: questions are searched in it")
    translation: bool = Field(
        description="questions in other languages are translated first; false: they are searched"
        " as written and should be asked in index_language"
    )


# A name a client chooses (a conversation, a collection): never blank, since a blank one would be
# one conversation or collection shared by every client that sent it.
NAME_PATTERN = r"\S"
NAME_MAX_LENGTH = 128
Name = Annotated[
    str, StringConstraints(min_length=1, max_length=NAME_MAX_LENGTH, pattern=NAME_PATTERN)
]


class QuestionRequest(Contract):
    """POST /v1/questions. Length and content rules are the Validate state's to apply."""

    question: str = Field(max_length=20000)
    conversation_id: Name | None = None
    language: str | None = Field(default=None, pattern=r"^[a-z]{2,3}$")
    collection: Name | None = None
    retrieval_mode: RetrievalMode | None = Field(
        default=None, description="bm25, dense or hybrid; default: the server's setting"
    )


class QuestionAccepted(Contract):
    question_id: str
    status: QuestionStatus
    status_url: str


class QuestionView(Contract):
    """GET /v1/questions/{id}: the status while the state machine runs, the response when done."""

    question_id: str
    status: QuestionStatus
    reason: str | None = None
    response: QAResponse | None = None


class ConversationView(Contract):
    """GET /v1/conversations/{id}: its questions oldest first, each with its response when done.

    Each source's status is read when the view is built, so a file deleted after the answer shows
    as "deleted" although the stored response was frozen when it was written.
    """

    conversation_id: str
    questions: list[QuestionView]


class UploadTarget(Contract):
    """Where a client sends a file's bytes itself: a presigned S3 POST (a form with fields)."""

    method: Literal["POST"] = "POST"
    url: str
    fields: dict[str, str] = Field(description="form fields to send before the file field")
    file_field: str = Field(default="file", description="the form field carrying the bytes")
    max_bytes: int = Field(ge=1)
    expires_in: int = Field(ge=1, description="seconds the target stays valid")


class DocumentUpload(Contract):
    """POST /v1/documents: the document the upload becomes, and how to follow it.

    document is set when the server already holds the bytes (a direct upload); upload is set
    when the client must send them to the presigned target, after which ingestion starts on its
    own (the bucket's ObjectCreated event). status_url answers 404 until ingestion has begun.
    """

    doc_id: str
    file_name: str
    status_url: str
    document: DocumentRecord | None = None
    upload: UploadTarget | None = None


class ApiError(Contract):
    """The body of every 4xx and 5xx answer: a status, a message, and per field details."""

    statusCode: int = Field(description="the HTTP status, as in Powertools' own error bodies")
    message: str
    detail: list[dict[str, Any]] | None = None


SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "QuestionState": QuestionState,
    "QAResponse": QAResponse,
    "Certificate": Certificate,
    "Chunk": Chunk,
    "DocumentRecord": DocumentRecord,
    "QuestionRecord": QuestionRecord,
    "CertificateCheck": CertificateCheck,
    "QuestionRequest": QuestionRequest,
    "QuestionAccepted": QuestionAccepted,
    "QuestionView": QuestionView,
    "ConversationView": ConversationView,
    "DocumentUpload": DocumentUpload,
    "ApiError": ApiError,
    "Recheck": Recheck,
    "DocumentCitations": DocumentCitations,
    "RecheckQueued": RecheckQueued,
}
