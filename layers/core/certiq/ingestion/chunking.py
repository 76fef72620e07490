"""Parsed pages -> sentences with boxes -> chunks made of whole sentences.

A chunk is what the index stores and retrieval returns; a sentence is what an answer cites. So
each Sentence keeps its exact offsets in Chunk.text (chunk.text[start:end] == sentence.text, the
invariant citation checking relies on), its page, and one box per line it covers.

Chunker takes pages in batches and hands back each chunk as soon as it is complete, so a long
document is chunked without holding all of its pages; the chunks (ids, ordinals, overlap) are
the same whatever the batch size.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from certiq.config import ChunkingSettings
from certiq.guardrails.injection import addressing_assistant
from certiq.ingestion.construct import constructor
from certiq.ingestion.furniture import furniture_key
from certiq.ingestion.gc_pause import gc_paused
from certiq.ingestion.pdf import PageOcr, ParsedDocument, ParsedPage, open_pdf
from certiq.models import Box, Chunk, Sentence, SourceRef, TableCell, chunk_id
from certiq.trust.claims import CLOSING_MARKS, is_heading, is_statement

__all__ = ["ChunkBatch", "Chunker", "PageSentence", "chunk_document", "chunk_pdf", "page_sentences"]


@dataclass(frozen=True, slots=True)
class PageSentence:
    """A sentence of one page: whitespace-normalised text, page number, one box per line."""

    text: str
    page: int
    boxes: tuple[Box, ...]


# A sentence's text, page and boxes, and its cells when it is a table's row.
_Pending = tuple[str, int, tuple[Box, ...], tuple[tuple[str, str], ...] | None]
# ... and the heading of the section it is in (None: none before it).
_Placed = tuple[str, int, tuple[Box, ...], tuple[tuple[str, str], ...] | None, str | None]
_new_sentence = constructor(Sentence)
_new_cell = constructor(TableCell)
_new_chunk = constructor(Chunk)


def page_sentences(page: ParsedPage) -> list[PageSentence]:
    """The sentences of one page, in order, each with one box per line it covers.

    Overlong sentences were already cut by the parser (parse_pdf's max_sentence_chars).
    """
    return [PageSentence(span.text, page.number, span.boxes) for span in page.sentences]


# A sentence ends with one of these, perhaps followed by a closing quote or bracket; a page may
# also end on a clause that ends with : or ;.
_SENTENCE_END = (".", "!", "?", ":", ";")
# Lines a page break may put between a sentence and its continuation: the page's footer, the
# next one's header (furniture of a document too short for detect_furniture), a page number.
_MAX_LINES_BETWEEN = 3


class PageBreakJoiner:
    """Joins a sentence a page break cut in two: "... each with an" at the foot of page 1 and
    "owner and a due date." at the top of page 2 become one sentence, on page 1, with the boxes
    of both pages. The lines between (footer, header, page number: not statements) follow it.

    A sentence is held when it ends without a full stop; it is joined when the next statement
    is on a later page and begins in lower case, and let go as it is otherwise. State carries
    over between calls, so pages fed in batches join as a single pass does.
    """

    def __init__(self) -> None:
        self._held: list[_Pending] = []  # the unfinished sentence, then the lines after it

    def feed(self, sentences: Iterable[_Pending]) -> Iterator[_Pending]:
        for sentence in sentences:
            if self._held:
                fragment = self._held[0]
                text = sentence[0]
                if sentence[1] > fragment[1] and text[:1].islower() and sentence[3] is None:
                    joined = (f"{fragment[0]} {text}", fragment[1], fragment[2] + sentence[2], None)
                    between, self._held = self._held[1:], []
                    yield joined
                    yield from between
                    continue
                if not is_statement(text) and len(self._held) <= _MAX_LINES_BETWEEN:
                    self._held.append(sentence)
                    continue
                yield from self.flush()
            if sentence[3] is None and _unfinished(sentence[0]):  # a row is whole
                self._held = [sentence]
            else:
                yield sentence

    def flush(self) -> Iterator[_Pending]:
        held, self._held = self._held, []
        yield from held


def _unfinished(text: str) -> bool:
    """Words that stop mid-sentence, as a page break leaves them: three or more, no end mark,
    the last a lower-case word (a heading ends on a capital or a number, a page label on a
    digit)."""
    words = text.rstrip().rstrip(CLOSING_MARKS).split()
    if len(words) < 3 or words[-1].endswith(_SENTENCE_END):
        return False
    return words[-1].isalpha() and words[-1].islower()


class Chunker:
    """Groups sentences into chunks of about settings.target_chars characters.

    Sentences are appended until the chunk's text reaches target_chars; the next chunk starts
    with the last settings.overlap_sentences sentences again, so a fact near a boundary is found
    with its context. Chunk ids are f"{doc_id}:{ordinal:05d}": the same bytes give the same
    chunks, which makes re-ingesting a document idempotent. Each sentence records the last
    heading before it in the document (Sentence.section), though the heading be chunks back.
    """

    def __init__(
        self,
        *,
        doc_id: str,
        tenant: str,
        source: SourceRef,
        settings: ChunkingSettings,
        collection: str | None = None,
    ) -> None:
        self.doc_id = doc_id
        self.tenant = tenant
        self.source = source
        self.collection = collection
        self.target = settings.target_chars
        self.overlap = settings.overlap_sentences
        self.count = 0  # chunks made so far: the next ordinal
        self._current: list[_Placed] = []  # the sentences of the chunk being filled
        self._length = 0  # len(" ".join(current))
        self._fresh = 0  # sentences of `current` not repeated from the previous chunk
        self._ocr: dict[int, float] = {}  # pages read by OCR, and their confidence
        self._joiner = PageBreakJoiner()
        self._section: str | None = None  # the last heading so far
        self._headings: set[str] = set()  # furniture_key of every heading so far

    def add(self, pages: Iterable[ParsedPage]) -> list[Chunk]:
        """Take the next pages; returns the chunks they completed."""
        pages = list(pages)
        self._ocr.update(
            (page.number, page.ocr_confidence) for page in pages if page.ocr_confidence is not None
        )
        return self.add_sentences(
            (span.text, page.number, span.boxes, span.cells)
            for page in pages
            for span in page.sentences
        )

    def add_sentences(self, sentences: Iterable[_Pending]) -> list[Chunk]:
        """Take the next sentences as (text, page, boxes, cells); returns the chunks they
        completed."""
        return self._accumulate(self._joiner.feed(sentences))

    def _accumulate(self, sentences: Iterable[_Pending]) -> list[Chunk]:
        done: list[Chunk] = []
        target = self.target
        current = self._current
        length, fresh = self._length, self._fresh
        for text, page, boxes, cells in sentences:
            length += len(text) + 1 if current else len(text)
            heading = cells is None and is_heading(text)
            current.append((text, page, boxes, cells, None if heading else self._section))
            # A heading seen before is a running header, not a new section.
            if heading and (key := furniture_key(text)) not in self._headings:
                self._headings.add(key)
                self._section = text
            fresh += 1
            if length >= target:
                done.append(self._emit(current))
                # Never carry a whole chunk over: every chunk must bring a new sentence.
                carry = min(self.overlap, len(current) - 1)
                current = current[len(current) - carry :] if carry > 0 else []
                length = sum(len(s[0]) + 1 for s in current) - 1 if current else 0
                fresh = 0
        self._current, self._length, self._fresh = current, length, fresh
        return done

    def finish(self) -> list[Chunk]:
        """The last, possibly short, chunk (when it holds a sentence of its own)."""
        done = self._accumulate(self._joiner.flush())  # a document's last, unfinished line
        if not self._fresh:
            return done
        chunk = self._emit(self._current)
        self._current, self._length, self._fresh = [], 0, 0
        return [*done, chunk]

    def _emit(self, sentences: Sequence[_Placed]) -> Chunk:
        confidences = [self._ocr[page] for page in {s[1] for s in sentences} if page in self._ocr]
        chunk = _chunk(
            sentences,
            self.count,
            self.doc_id,
            self.tenant,
            self.source,
            self.collection,
            min(confidences) if confidences else None,
        )
        self.count += 1
        return chunk


def chunk_document(
    parsed: ParsedDocument,
    *,
    doc_id: str,
    tenant: str,
    source: SourceRef,
    settings: ChunkingSettings,
) -> list[Chunk]:
    """Every chunk of a parsed document (see Chunker)."""
    chunker = Chunker(doc_id=doc_id, tenant=tenant, source=source, settings=settings)
    return chunker.add(parsed.pages) + chunker.finish()


@dataclass(frozen=True, slots=True)
class ChunkBatch:
    """The chunks completed by one batch of pages (pages == 0: the document's last chunk)."""

    pages: int
    chunks: list[Chunk]
    # On the last batch: pages that could not be loaded and why (1-based); the rest were read.
    skipped: dict[int, str] = field(default_factory=dict)
    # On the last batch: pages read by OCR, and their confidence.
    ocr_pages: dict[int, float] = field(default_factory=dict)
    # On the last batch: pages indexed from a text layer that looks wrong, and why.
    doubtful: dict[int, str] = field(default_factory=dict)


def chunk_pdf(
    data: bytes,
    *,
    doc_id: str,
    tenant: str,
    source: SourceRef,
    settings: ChunkingSettings,
    collection: str | None = None,
    ocr: PageOcr | None = None,
) -> Generator[ChunkBatch, None, None]:
    """Parse and chunk PDF bytes as ingestion does, handing on chunks every page_batch pages.

    Each page is chunked as soon as it is parsed and then dropped, so memory stays bounded by
    one batch's chunks whatever the length of the document. Raises IngestionError (see
    parse_pdf) when the bytes cannot be read. The chunks are exactly those of
    chunk_document(parse_pdf(data, max_sentence_chars=settings.target_chars, ocr=ocr)).
    """
    chunker = Chunker(
        doc_id=doc_id, tenant=tenant, source=source, settings=settings, collection=collection
    )
    with open_pdf(data, ocr) as pdf:
        furniture = pdf.furniture()
        for first in range(1, pdf.page_count + 1, settings.page_batch):
            numbers = range(first, min(first + settings.page_batch, pdf.page_count + 1))
            chunks: list[Chunk] = []
            with gc_paused():
                # Page by page: each page is chunked, then dropped, before the next is read.
                for number in numbers:
                    pages = pdf.parse(
                        (number,), furniture=furniture, max_sentence_chars=settings.target_chars
                    )
                    chunks += chunker.add(pages)
            yield ChunkBatch(len(numbers), chunks)
        pdf.require_text()
        skipped, ocr_pages, doubtful = dict(pdf.skipped), dict(pdf.ocr_pages), dict(pdf.doubtful)
    yield ChunkBatch(0, chunker.finish(), skipped, ocr_pages, doubtful)


def _chunk(
    sentences: Sequence[_Placed],
    ordinal: int,
    doc_id: str,
    tenant: str,
    source: SourceRef,
    collection: str | None,
    ocr_confidence: float | None = None,
) -> Chunk:
    # Built without validation (see certiq.ingestion.construct): every field is typed by
    # construction, and validating a few hundred nested boxes per page costs more than pdfium
    # takes to read the page.
    placed: list[Sentence] = []
    offset = 0
    flags = addressing_assistant([sentence[0] for sentence in sentences])
    for (text, page, boxes, cells, section), flagged in zip(sentences, flags, strict=True):
        end = offset + len(text)
        placed.append(
            _new_sentence(
                {
                    "text": text,
                    "start": offset,
                    "end": end,
                    "page": page,
                    "boxes": list(boxes),
                    "addresses_assistant": flagged,
                    "cells": None
                    if cells is None
                    else [_new_cell({"column": column, "text": cell}) for column, cell in cells],
                    "section": section,
                },
            )
        )
        offset = end + 1  # the single space that joins sentences
    pages = [sentence[1] for sentence in sentences]
    return _new_chunk(
        {
            "chunk_id": chunk_id(doc_id, ordinal),
            "doc_id": doc_id,
            "tenant": tenant,
            "ordinal": ordinal,
            "source": source,
            "text": " ".join(sentence[0] for sentence in sentences),
            "sentences": placed,
            "page_start": min(pages),
            "page_end": max(pages),
            "collection": collection,
            "ocr_confidence": ocr_confidence,
            "embedding": None,
        },
    )
