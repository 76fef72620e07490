"""Documents, their chunks and boxes, and the evidence found in them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from certiq.models.base import Contract, reader_probability


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


class TableCell(Contract):
    """One cell of a table row: the column's label from the table's header, and its text."""

    column: str = Field(description="the header's words over the column; empty without a header")
    text: str = Field(description="the cell's words, as the page has them; empty when blank")


def named_cells(cells: Sequence[TableCell]) -> str:
    """A row's cells under their columns' labels ("Country: Finland; Capital: Helsinki"), blank
    ones left out: how the CLI prints a row and a model is told of one."""
    return "; ".join(f"{cell.column}: {cell.text}" for cell in cells if cell.text)


_CELLS_DESCRIPTION = (
    "set when the passage is a row of a table: its cells, column by column; a row is shown as"
    " reading, never given as a statement of the answer"
)


_SECTION_DESCRIPTION = (
    "the heading of the section the sentence is in, as the document writes it (the last heading"
    " before it: certiq.trust.claims.is_heading); read with the sentence when judging what it is"
    " about, shown beside its quote and never as part of it; None: no heading before it"
)


class Sentence(Contract):
    """A sentence of a chunk: exact text, offsets in the chunk's text, and where it is drawn."""

    text: str
    start: int = Field(ge=0, description="offset of the first character in Chunk.text")
    end: int = Field(ge=0, description="offset after the last character in Chunk.text")
    page: int = Field(ge=1)
    boxes: list[Box] = Field(
        default_factory=list, description="one box per line the sentence covers"
    )
    addresses_assistant: bool = Field(
        default=False,
        description="flagged at ingestion: it reads as an instruction to an AI assistant; it is"
        " searched and shown as source, never given as an answer, and fenced in model prompts",
    )
    cells: list[TableCell] | None = Field(
        default=None, exclude_if=lambda cells: cells is None, description=_CELLS_DESCRIPTION
    )
    section: str | None = Field(
        default=None,
        exclude_if=lambda section: section is None,
        description=_SECTION_DESCRIPTION,
    )


SourceType = Literal["blob", "web", "text"]


class SourceRef(Contract):
    type: SourceType = "blob"
    uri: str
    file_name: str
    mime_type: str = "application/pdf"
    sha256: str
    version: str


def chunk_id(doc_id: str, ordinal: int) -> str:
    """A chunk's id: its document's and its place in it, so the same bytes give the same ids."""
    return f"{doc_id}:{ordinal:05d}"


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
    ocr_confidence: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="read by OCR: the lowest confidence of the pages it comes from (None: all"
        " from the PDF's text layer)",
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


class SkippedPage(Contract):
    """A page left out of an indexed document, and why: the other pages were read."""

    page: int = Field(ge=1)
    reason: str


class DoubtfulPage(Contract):
    """A page indexed from a text layer that looks wrong, which OCR could not check."""

    page: int = Field(ge=1)
    reason: str


class OcrPage(Contract):
    """A page whose text was read by OCR (it had no usable text layer)."""

    page: int = Field(ge=1)
    confidence: float = Field(ge=0, le=1, description="the mean confidence of its words")
    engine: str = Field(description="what read it: tesseract or textract")


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
    skipped_pages: list[SkippedPage] = Field(
        default_factory=list,
        description="pages that could not be read (INDEXED with these left out), and why",
    )
    ocr_pages: list[OcrPage] = Field(
        default_factory=list, description="pages read by OCR, and how confidently"
    )
    doubtful_pages: list[DoubtfulPage] = Field(
        default_factory=list,
        description="pages indexed from a text layer that looks wrong, unchecked by OCR, and why",
    )
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
    span_scorer: str = Field(
        default="weighted",
        description="what ranked the evidence sentences: weighted (the hand-set score) or the "
        "relevance model's name",
    )
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
    similarity: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="the sentence's cosine with the question (negatives as 0) by the embedder;"
        " None when span selection embedded nothing",
    )
    addresses_assistant: bool = Field(
        default=False,
        description="flagged at ingestion: it reads as an instruction to an AI assistant; it is"
        " searched and shown as source, never given as an answer, and fenced in model prompts",
    )
    cells: list[TableCell] | None = Field(
        default=None, exclude_if=lambda cells: cells is None, description=_CELLS_DESCRIPTION
    )
    section: str | None = Field(
        default=None,
        exclude_if=lambda section: section is None,
        description=_SECTION_DESCRIPTION,
    )
    answers: float | None = reader_probability(
        "the reader's probability that the sentence, read in its context (title, heading, the"
        " sentence before), answers the question; None when no reader read it"
    )


# --- questions, answers and their proof ------------------------------------------------------
