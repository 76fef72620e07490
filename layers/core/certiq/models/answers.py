"""A question on its way through the state machine, and the answer it gets."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from certiq.models.base import Contract, reader_probability
from certiq.models.documents import (
    Box,
    EvidenceSpan,
    RetrievalMode,
    SearchMetadata,
    SourceType,
    TableCell,
)


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
    # Left out of the JSON when unset, so the citations of certificates sealed before tables
    # were read as rows keep their digests.
    cells: list[TableCell] | None = Field(
        default=None,
        exclude_if=lambda cells: cells is None,
        description="set when the quote is a row of a table: its cells under the header's labels,"
        " as the verifier reads the row",
    )
    # Left out when unset too: certificates sealed before sections were read keep their digests.
    section: str | None = Field(
        default=None,
        exclude_if=lambda section: section is None,
        description="the heading of the section the quote is in, as the document writes it: what"
        ' the quote is about when its own words do not say ("System owners must confirm within 2'
        ' business days ..." under "6. Legal hold")',
    )
    answers: float | None = reader_probability(
        "the reader's probability that the quote answers the question (a second judgement"
        " beside verification, which says whether the quote states the claim); None when no"
        " reader read it"
    )

    @property
    def read_as(self) -> str:
        """The text the verifier judges: the quote, or for a table's row its cells under their
        labels ("Country: Finland. Capital: Helsinki."): the bare row does not say which figure
        is which, and read bare it let "Helsinki is the largest city in Finland" pass."""
        if not self.cells or not any(cell.column for cell in self.cells):
            return self.quote
        return " ".join(
            f"{cell.column}: {cell.text.rstrip('.')}." if cell.column else f"{cell.text}."
            for cell in self.cells
            if cell.text
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
    answers_question: float | None = reader_probability(
        "the reader's probability that its evidence answers the question (the best of its"
        " citations'): VERIFIED says the evidence states it, this says it answers what was"
        " asked; None when no reader read it"
    )


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
    detector: Literal["length", "pattern", "classifier"] | None = Field(
        default=None,
        description="what refused the question: its length, a pattern list or the classifier",
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
    unanswered: list[str] = Field(
        default_factory=list,
        description="parts of a question in several parts that the answer does not address",
    )
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
    # Asked in another language than the documents' with no translation model: nothing answers
    # the question as written, which says nothing of whether the documents state it.
    NOT_FOUND_AS_WRITTEN = "NOT_FOUND_AS_WRITTEN"


class RelatedPassage(Contract):
    """A passage close to a question the documents do not answer: reading, not a claim."""

    doc_id: str
    file_name: str
    page: int = Field(ge=1)
    text: str
    score: float
    cells: list[TableCell] | None = Field(
        default=None,
        description="set when the passage is a row of a table: its cells, named by the table's"
        " header (tables are shown, not checked)",
    )
    boxes: list[Box] = Field(
        default_factory=list, description="where the passage is drawn: one box per line"
    )


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
        description="COMPLETE answers: ANSWERED; NOT_STATED (the documents do not state it; "
        "`related` offers the closest passages); NOT_FOUND_AS_WRITTEN (asked in another language "
        "than the documents' with no translation model: nothing answers it as written, and "
        "`related` offers the closest passages unchecked); None for other statuses",
    )
    related: list[RelatedPassage] = Field(
        default_factory=list,
        description="NOT_STATED and NOT_FOUND_AS_WRITTEN: the closest passages found, offered as"
        " reading, never as claims",
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
