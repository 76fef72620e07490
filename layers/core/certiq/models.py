"""Contracts between the states of the answer state machine, the stores and the API.

Everything that crosses a process boundary (a Step Functions state, a stored record, an API body)
is one of these models. Step Functions limits a state's payload to 256 KB, so the state carries
ids, spans and short texts, never whole documents.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Contract(BaseModel):
    """Base of every contract: unknown fields are refused so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid")


# --- documents and evidence ------------------------------------------------------------------


class Box(Contract):
    """A rectangle on a page, in PDF points, origin at the page's top-left corner.

    The page's own size travels with the box so a viewer can draw it at any scale.
    """

    page: int = Field(ge=1, description="1-based page number")
    x0: float
    y0: float
    x1: float
    y1: float
    page_width: float = Field(gt=0)
    page_height: float = Field(gt=0)


class Sentence(Contract):
    """A sentence of a chunk: exact text, offsets in the chunk's text, and where it is drawn."""

    text: str
    start: int = Field(ge=0, description="offset of the first character in Chunk.text")
    end: int = Field(ge=0, description="offset after the last character in Chunk.text")
    page: int = Field(ge=1)
    boxes: list[Box] = Field(
        default_factory=list, description="one box per line the sentence covers"
    )


SourceType = Literal["blob", "web", "text"]


class SourceRef(Contract):
    type: SourceType = "blob"
    uri: str
    file_name: str
    mime_type: str = "application/pdf"
    sha256: str
    version: str


class Chunk(Contract):
    chunk_id: str = Field(description="deterministic: doc_id + ordinal")
    doc_id: str
    tenant: str
    ordinal: int = Field(ge=0)
    source: SourceRef
    text: str
    sentences: list[Sentence]
    page_start: int = Field(ge=1)
    page_end: int = Field(ge=1)
    collection: str | None = Field(
        default=None, description="a named subset of the tenant's chunks a question can target"
    )
    embedding: list[float] | None = Field(
        default=None,
        description=(
            "the chunk's vector on its way into the index; indexes keep it beside the chunk,"
            " never inside the stored chunk, and search hits come back without it"
        ),
    )


def collection_of(chunk: Chunk) -> str | None:
    """The chunk's collection, also for chunks built without validation before the field existed.

    certiq.ingestion.construct builds chunks from dicts naming each field; one that predates
    ``collection`` has no such attribute, and means none.
    """
    collection: str | None = chunk.__dict__.get("collection")
    return collection


class DocumentStatus(StrEnum):
    QUEUED = "QUEUED"
    PROCESSING = "PROCESSING"
    INDEXED = "INDEXED"
    FAILED = "FAILED"
    DELETED = "DELETED"


class DocumentRecord(Contract):
    """One row of the documents table: what the API and `certiq documents` show."""

    doc_id: str
    tenant: str
    file_name: str
    uri: str
    mime_type: str = "application/pdf"
    sha256: str = ""
    version: str = ""
    status: DocumentStatus
    reason: str | None = None
    pages: int = Field(default=0, description="pages read so far while PROCESSING, then all")
    chunks: int = 0
    collection: str | None = Field(default=None, description="the named subset it belongs to")
    created_at: datetime
    updated_at: datetime = Field(
        description="last write; while QUEUED or PROCESSING, the ingestion's heartbeat: a record"
        " not touched for ingestion.lease_seconds is taken as interrupted"
    )
    sequencer: str | None = Field(
        default=None,
        description="s3.object.sequencer of the last S3 event applied to this document: an "
        "event for the same key with a sequencer not greater than it is older and is skipped",
    )


class SearchHit(Contract):
    """A chunk found by the index, with its engine score (BM25, cosine, or fused RRF)."""

    chunk: Chunk
    score: float


RetrievalMode = Literal["bm25", "dense", "hybrid"]


class SearchMetadata(Contract):
    """How a question's evidence was searched: what was asked for and what actually ran."""

    query: str = Field(description="the text searched (after redaction and translation)")
    mode: RetrievalMode = Field(description="the mode requested (per question, else settings)")
    mode_used: RetrievalMode = Field(
        description="the mode that ran: bm25 when dense search was not possible (see note)"
    )
    chunks_searched: int = Field(ge=0, description="chunks retrieved and read for evidence")
    candidates: int = Field(
        default=0, ge=0, description="distinct chunks the engine(s) returned before fusion"
    )
    threshold: float = Field(description="minimum evidence span score kept")
    engine: str = Field(description="the search index: sqlite-fts5 or opensearch")
    embedder: str | None = Field(description="the embedding model, None when lexical-only")
    collection: str | None = None
    note: str | None = Field(
        default=None, description="why mode_used differs from mode, or what dense search lacked"
    )
    original_query: str | None = Field(
        default=None,
        description=(
            "the question as asked, when ``query`` was rewritten from it with the conversation's"
            " earlier turns; None when the question was searched as asked"
        ),
    )
    rewriter: str | None = Field(
        default=None, description="what rewrote the query: rules, or provider:model"
    )
    rewrite_note: str | None = Field(
        default=None, description="why the model rewriter was not used (rules stood in)"
    )
    earlier_evidence: int = Field(
        default=0,
        ge=0,
        description="chunks the previous turn cited, unchanged, searched again beside the hits",
    )


class EvidenceSpan(Contract):
    """A sentence the answer may cite: small enough to travel in the state."""

    span_id: str = Field(description="chunk_id + ':' + sentence index")
    chunk_id: str
    doc_id: str
    file_name: str
    source_type: SourceType = "blob"
    mime_type: str = "application/pdf"
    version: str
    sha256: str
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    page: int = Field(ge=1)
    boxes: list[Box]
    score: float
    chunk_score: float
    chunk_ordinal: int = Field(ge=0)


# --- questions, answers and their proof ------------------------------------------------------


class QuestionStatus(StrEnum):
    RECEIVED = "RECEIVED"
    MODERATING_QUESTION = "MODERATING_QUESTION"
    RETRIEVING = "RETRIEVING"
    GENERATING_ANSWER = "GENERATING_ANSWER"
    VERIFYING = "VERIFYING"
    COMPLETE = "COMPLETE"
    NEEDS_CLARIFICATION = "NEEDS_CLARIFICATION"
    REJECTED = "REJECTED"
    FAILED = "FAILED"


TERMINAL_STATUSES = frozenset(
    {
        QuestionStatus.COMPLETE,
        QuestionStatus.NEEDS_CLARIFICATION,
        QuestionStatus.REJECTED,
        QuestionStatus.FAILED,
    }
)


class RenderState(StrEnum):
    VERIFIED = "VERIFIED"
    UNVERIFIED = "UNVERIFIED"
    BLOCKED = "BLOCKED"


class Citation(Contract):
    id: str = Field(pattern=r"^C[1-9][0-9]*$")
    chunk_id: str
    doc_id: str
    file_name: str
    page: int = Field(ge=1)
    boxes: list[Box]
    quote: str = Field(description="exact text of the chunk between start and end")
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    score: float
    valid: bool | None = Field(
        default=None, description="set by Verify: is the quote found verbatim in its chunk"
    )


class Decision(Contract):
    state: RenderState
    entail: float = Field(ge=0, le=1)
    contradict: float = Field(ge=0, le=1)
    evidence: list[str] = Field(description="citation ids of the minimal sufficient evidence")
    verifier: str
    reason: str


class Claim(Contract):
    id: str
    text: str = Field(description="the atomic claim the verifier judges: hedges stripped")
    citation_ids: list[str]
    source: str | None = Field(
        default=None,
        description="the draft sentence it was compiled from, as written (hedges kept); shown "
        "in its place when all of that sentence's claims are verified",
    )
    hedges: list[str] = Field(
        default_factory=list,
        description="hedging words stripped from the source before judging (may, possibly..)",
    )
    compiled_by: str | None = Field(
        default=None, description="what split the sentence: rules, or an LLM (and why not)"
    )
    decision: Decision | None = None


class Statement(Contract):
    """One sentence of the answer as the user meets it: shown whole, in the draft's words, or
    withheld with the reason. The API, the CLI, the page and the certificate's ``answer`` all
    come from these; a claim split off for judging is never shown in its place."""

    text: str = Field(description="the draft sentence as written, hedges kept")
    state: RenderState = Field(
        description="VERIFIED when every claim of it is; BLOCKED when any is; else UNVERIFIED"
    )
    shown: bool = Field(description="false: withheld, listed with its reason and quotes")
    claim_ids: list[str]
    citation_ids: list[str] = Field(
        description="shown: its claims' minimal evidence; withheld: what the deciding claim cited"
    )
    reason: str


class DraftQuote(Contract):
    """The exact text of one evidence span that a draft sentence rests on."""

    span_id: str
    text: str = Field(description="found verbatim in the span's text (repaired or dropped if not)")


class DraftSentence(Contract):
    text: str
    citation_ids: list[str]
    quotes: list[DraftQuote] = Field(
        default_factory=list, description="for each cited span, the exact text it quotes"
    )


class ConversationTurn(Contract):
    """An earlier question of the same conversation and its rendered answer, both redacted."""

    question: str
    answer: str


class ModelCall(Contract):
    """One call to a model provider that answered (failed calls are ProviderFailures)."""

    provider: str
    model: str = Field(description="the model that served the call, as the provider names it")
    input_tokens: int = Field(
        ge=0, description="every prompt token, including those read from or written to a cache"
    )
    output_tokens: int = Field(ge=0)
    cache_read_input_tokens: int = Field(default=0, ge=0, description="prompt tokens from cache")
    cache_creation_input_tokens: int = Field(
        default=0, ge=0, description="prompt tokens written to the cache (Anthropic)"
    )
    latency_ms: float = Field(ge=0, description="the whole call, the SDK's own retries included")


class ProviderFailure(Contract):
    """A provider of the answer chain that did not answer, and why: the next one answered."""

    provider: str
    error: str = Field(
        description="TransientError, ProviderError, UnusableOutput or TokenBudgetExhausted"
    )
    message: str
    latency_ms: float = Field(default=0, ge=0, description="time spent before giving up")


class AnswerUsage(Contract):
    """What drafting one answer cost: every model call, and their sums."""

    answerer: str = Field(description="who wrote the draft: a provider, or extractive")
    calls: list[ModelCall] = Field(default_factory=list)
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    cache_read_input_tokens: int = Field(default=0, ge=0)
    cache_creation_input_tokens: int = Field(default=0, ge=0)
    latency_ms: float = Field(default=0, ge=0, description="time in model calls, failures included")
    token_budget: int = Field(ge=0, description="input + output tokens allowed per question")


class Validation(Contract):
    ok: bool
    reason_code: str | None = None
    message: str | None = None
    rule: str | None = Field(
        default=None,
        description="the pattern that decided, as language.category.index (never the text)",
    )


class PiiEntity(Contract):
    """One personal value found in the question; offsets are in the text as received."""

    type: str = Field(description="EMAIL, PHONE, CARD, SSN, SIN, IBAN, IP_ADDRESS or NAME")
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    placeholder: str = Field(description="what replaced it, e.g. [EMAIL_1]")


class Redaction(Contract):
    count: int = Field(default=0, description="distinct values replaced")
    types: list[str] = Field(default_factory=list)
    policy: Literal["mask", "block"] = "mask"
    entities: list[PiiEntity] = Field(default_factory=list)
    names_checked_by: str | None = Field(
        default=None, description="the model that looked for names, None when none did"
    )
    note: str | None = None


class Translation(Contract):
    detected: str
    target: str
    translated: bool
    note: str | None = None
    confidence: float | None = Field(default=None, description="language identification, 0..1")
    translator: str | None = Field(default=None, description="the model that translated")
    question: str | None = Field(
        default=None,
        description="the (redacted) question as asked when it was translated for the search",
    )


class LinkCheck(Contract):
    """The verdict on one URL the answer cites or contains."""

    url: str
    origin: Literal["citation", "answer"]
    allowed: bool = Field(description="passed the SSRF guard on every hop")
    reachable: bool
    status: int | None = Field(default=None, description="the last HTTP status received")
    final_url: str | None = None
    reason: str
    replacement: str | None = Field(
        default=None, description="the fallback URL shown instead of a dead link"
    )


class ShownAnswer(Contract):
    """What the user was shown when it differs from the verified index-language answer."""

    language: str
    answer: str = Field(description="the answer as shown: translated, dead links replaced")
    translated: bool
    translator: str | None = None
    note: str | None = None
    links: list[LinkCheck] = Field(default_factory=list)


class ReusedFrom(Contract):
    """The earlier, fully verified answer a question reused instead of being answered anew."""

    question_id: str = Field(description="the earlier question whose answer was reused")
    certificate_id: str = Field(description="the certificate that sealed the earlier answer")
    question: str = Field(description="the earlier question's searched text (redacted)")
    similarity: float | None = Field(
        default=None, description="cosine of the two questions' embeddings; None: lexical only"
    )


class ReuseCheck(Contract):
    """What the lookup for a reusable verified answer did, hit or miss."""

    candidates: int = Field(ge=0, description="earlier verified answers compared")
    note: str = Field(description="why the answer was or was not reused")


class StepError(Contract):
    """What a Catch hands to the failure state: the shape Step Functions uses."""

    Error: str
    Cause: str = ""


class QuestionState(Contract):
    """The state passed from one Task to the next in answer.asl.json."""

    question_id: str
    tenant: str = "default"
    question: str
    conversation_id: str | None = None
    collection: str | None = None
    retrieval_mode: RetrievalMode | None = Field(
        default=None, description="bm25, dense or hybrid for this question; None: settings"
    )
    language: str | None = None
    requested_language: str | None = None
    status: QuestionStatus = QuestionStatus.RECEIVED
    received_at: datetime
    validation: Validation | None = None
    redaction: Redaction | None = None
    translation: Translation | None = None
    evidence: list[EvidenceSpan] = Field(default_factory=list)
    chunks_searched: int = 0
    search: SearchMetadata | None = None
    draft: list[DraftSentence] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    answer: str = ""
    answerer: str | None = None
    reused_from: ReusedFrom | None = Field(
        default=None, description="set when an earlier verified answer is reused: no new draft"
    )
    reuse: ReuseCheck | None = None
    usage: AnswerUsage | None = Field(default=None, description="tokens and latency of drafting")
    provider_failures: list[ProviderFailure] = Field(
        default_factory=list, description="each provider that failed before one answered"
    )
    certificate_id: str | None = None
    shown: ShownAnswer | None = Field(
        default=None, description="set by Guard answer: translation and link checks"
    )
    timings_ms: dict[str, float] = Field(default_factory=dict)
    error: StepError | None = None


class AnswerOutcome(StrEnum):
    """What a COMPLETE answer amounts to, for the API, the CLI and the page alike."""

    ANSWERED = "ANSWERED"  # at least one statement is shown
    NOT_STATED = "NOT_STATED"  # nothing in the documents states what was asked


class RelatedPassage(Contract):
    """A passage close to a question the documents do not answer: reading, not a claim."""

    doc_id: str
    file_name: str
    page: int = Field(ge=1)
    text: str
    score: float


class Excerpt(Contract):
    text: str
    page: int = Field(ge=1)
    chunk_ordinal: int = Field(ge=0, description="the chunk's index within its file")
    score: float


class SourceSummary(Contract):
    """One file the answer cites, with the excerpts it quotes."""

    doc_id: str = Field(description="the file's id")
    file_name: str
    source_type: SourceType
    mime_type: str
    relevance: float = Field(description="the best score among its excerpts")
    excerpts: list[Excerpt]
    status: Literal["available", "deleted"] = "available"


class QAResponse(Contract):
    """What the API and `certiq ask --json` return."""

    question_id: str
    status: QuestionStatus
    question: str
    language: str | None
    answer: str = Field(description="rendered: only what the policy allows")
    message: str | None = Field(default=None, description="why there is no answer, when none")
    outcome: AnswerOutcome | None = Field(
        default=None,
        description="COMPLETE answers: ANSWERED, or NOT_STATED (the documents do not state it; "
        "`related` offers the closest passages); None for other statuses",
    )
    related: list[RelatedPassage] = Field(
        default_factory=list,
        description="NOT_STATED: the closest passages found, offered as reading, never as claims",
    )
    statements: list[Statement] = Field(
        default_factory=list,
        description="the answer sentence by sentence: `answer` joins the shown ones; the "
        "withheld ones (blocked, or unverified and dropped) say why",
    )
    claims: list[Claim]
    citations: list[Citation]
    sources: list[SourceSummary]
    search: SearchMetadata | None = Field(
        default=None, description="how the evidence was searched; None when no search ran"
    )
    reused_from: ReusedFrom | None = Field(
        default=None,
        description="the earlier verified answer shown again, and its certificate; None: new",
    )
    answerer: str | None = Field(
        default=None, description="who drafted the answer: a model provider, or extractive"
    )
    provider_failures: list[ProviderFailure] = Field(
        default_factory=list,
        description="providers that failed before the answerer answered (a fallback answered)",
    )
    usage: AnswerUsage | None = Field(default=None, description="tokens and latency of drafting")
    certificate_id: str | None
    timings_ms: dict[str, float]
    validation: Validation | None = None
    redaction: Redaction | None = None
    translation: Translation | None = None
    links: list[LinkCheck] = Field(
        default_factory=list, description="the verdict on every URL cited or shown"
    )


class QuestionRecord(Contract):
    """One row of the questions table: the status the API polls, and the response when done."""

    question_id: str
    tenant: str
    status: QuestionStatus
    created_at: datetime
    updated_at: datetime
    conversation_id: str | None = None
    reason: str | None = None
    response: QAResponse | None = None


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


class Capabilities(Contract):
    """What this deployment can do, so that clients say so where it matters."""

    index_language: str = Field(description="the documents' language: questions are searched in it")
    translation: bool = Field(
        description="questions in other languages are translated first; false: they are searched"
        " as written and should be asked in index_language"
    )


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


class QuestionRequest(Contract):
    """POST /v1/questions. Length and content rules are the Validate state's to apply."""

    question: str = Field(max_length=20000)
    conversation_id: str | None = Field(default=None, max_length=128)
    language: str | None = Field(default=None, pattern=r"^[a-z]{2,3}$")
    collection: str | None = Field(default=None, max_length=128)
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
}
