"""PDF bytes -> pages of lines and sentences, each with the boxes it is drawn in.

pypdfium2 gives a page's characters in reading order, with generated spaces and line breaks,
and the box of any character or run of characters; pdfium does no layout analysis beyond that.
This module cuts the characters into lines, joins words hyphenated across lines, marks paragraph
breaks with a blank line, drops running headers and footers (certiq.ingestion.furniture), splits
the text into sentences (certiq.ingestion.sentences) and boxes every sentence, one box per line
it covers, converted from PDF user space (origin bottom-left, before /Rotate and /CropBox) to
the page as a reader sees it (origin top-left, after rotation and cropping).

Speed comes from asking pdfium per line and per sentence boundary, never per character or per
word: a page of 600 words costs about 150 calls. Word boxes are available (words=True) for
viewers and tests; they cost a few calls per word.

Every failure a user can do something about raises IngestionError with the reason they see.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pypdfium2  # noqa: F401  (importing it initialises the pdfium library)
import pypdfium2.raw as pdfium_c

from certiq.errors import IngestionError
from certiq.ingestion.furniture import (
    Furniture,
    PageSample,
    detect_furniture,
    sample_numbers,
)
from certiq.ingestion.gc_pause import gc_paused
from certiq.ingestion.pdf_lines import Line, ParsedPage, SentenceSpan, Word
from certiq.ingestion.pdf_page import PageUnreadable, _PageReader
from certiq.ingestion.text_quality import garbage_reason

__all__ = [
    "Line",
    "ParsedDocument",
    "ParsedPage",
    "PdfFile",
    "SentenceSpan",
    "Word",
    "iter_page_batches",
    "open_pdf",
    "parse_pdf",
]

NO_TEXT_IMAGES = "no text layer: the PDF holds only images; OCR is not configured"

NO_TEXT = "no text layer: the PDF holds no text; OCR is not configured"


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    pages: tuple[ParsedPage, ...]

    @property
    def page_count(self) -> int:
        return len(self.pages)


# pdfium is not thread-safe, not even across documents: one open document at a time per process
# (re-entrant, so code holding a document can open another without deadlocking itself).
_PDFIUM_LOCK = threading.RLock()

_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD

_SECURITY_ERROR = 5  # FPDF_ERR_SECURITY: an unsupported security handler

_NO_PAGES = "no pages: the PDF has zero pages"
# Stream filters pdfium cannot decode: a document compressed with one reads as zero pages or no
# text, and the reason must name the filter, not blame the file's content.
UNSUPPORTED_FILTERS = (b"BrotliDecode",)

_LOAD_ERRORS = {
    2: "the file cannot be opened",  # FPDF_ERR_FILE
    3: "the file is damaged or not a PDF",  # FPDF_ERR_FORMAT
}


class PdfFile:
    """An open PDF (see open_pdf): its page count, samples of its lines, and parsed pages."""

    def __init__(self, raw: Any, data: bytes) -> None:
        self._raw = raw
        self._data = data  # pdfium reads from these bytes while the document is open
        self.page_count = int(pdfium_c.FPDF_GetPageCount(raw))
        self.has_text = False  # a parsed page had visible text (headers and footers count)
        # Pages pdfium cannot load, with why: left out, the others still read (1-based).
        self.skipped: dict[int, str] = {}
        self._readers: dict[int, _PageReader] = {}

    def sample(self, numbers: Sequence[int]) -> list[PageSample]:
        """The lines of the given pages (1-based), for finding headers and footers.

        The pages stay open until they are parsed, so a short document is read once.
        """
        samples = []
        for number in numbers:
            reader = self._readable(number)
            if reader is not None:
                samples.append(reader.sample())
        return samples

    def furniture(self) -> Furniture:
        """Headers and footers, found on a sample of pages spread over the whole document."""
        return detect_furniture(self.sample(sample_numbers(self.page_count)))

    def parse(
        self,
        numbers: Sequence[int],
        *,
        furniture: Furniture | None = None,
        max_sentence_chars: int | None = None,
        words: bool = False,
    ) -> tuple[ParsedPage, ...]:
        """Parse the given pages (1-based) and close them."""
        drop = furniture if furniture is not None and furniture.lines else None
        parsed = []
        for number in numbers:
            reader = self._readable(number)
            if reader is None:
                continue
            try:
                page = reader.parse(drop, max_sentence_chars, words)
                garbage = garbage_reason(page.text)
                if garbage is not None:
                    # Never indexed silently: left out, with the reason, as an unreadable page.
                    self.skipped[number] = garbage
                    continue
                self.has_text = self.has_text or bool(reader.lines)
                parsed.append(page)
            finally:
                reader.close()
                del self._readers[number]
        return tuple(parsed)

    def _readable(self, number: int) -> _PageReader | None:
        """The page's reader, or None for a page that cannot be loaded (recorded in skipped)."""
        if number in self.skipped:
            return None
        try:
            return self._reader(number)
        except PageUnreadable as error:
            self.skipped[number] = error.reason
            return None

    def require_text(self) -> None:
        """Raises IngestionError when nothing was read: no page could be loaded, or no page has
        a text layer (a scan)."""
        if self.has_text:
            return
        unsupported = unsupported_filter(self._data)
        if unsupported:
            raise IngestionError(unsupported)
        if self.page_count and len(self.skipped) == self.page_count:
            reasons = sorted(set(self.skipped.values()))
            if reasons == ["cannot be loaded"]:
                raise IngestionError("not a readable PDF: no page can be loaded")
            raise IngestionError(f"no readable page: page 1 {self.skipped.get(1, reasons[0])}")
        raise IngestionError(self.no_text_reason())

    def no_text_reason(self) -> str:
        """Why no page has text: only images (a scan) or nothing at all."""
        for index in range(self.page_count):
            page = pdfium_c.FPDF_LoadPage(self._raw, index)
            if not page:
                continue
            try:
                for k in range(pdfium_c.FPDFPage_CountObjects(page)):
                    kind = pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(page, k))
                    if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                        return NO_TEXT_IMAGES
            finally:
                pdfium_c.FPDF_ClosePage(page)
        return NO_TEXT

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()

    def _reader(self, number: int) -> _PageReader:
        if not 1 <= number <= self.page_count:
            raise ValueError(f"page {number} is not in 1..{self.page_count}")
        reader = self._readers.get(number)
        if reader is None:
            reader = self._readers[number] = _PageReader(self._raw, number)
        return reader


def unsupported_filter(data: bytes) -> str | None:
    """The reason, when the PDF's streams use a compression filter pdfium cannot decode."""
    for name in UNSUPPORTED_FILTERS:
        if b"/" + name in data:
            return (
                f"unsupported compression: the PDF's streams use /{name.decode()}, which this"
                " reader cannot decode; save it again without it (most PDF tools write"
                " /FlateDecode)"
            )
    return None


@contextmanager
def open_pdf(data: bytes) -> Iterator[PdfFile]:
    """Open PDF bytes; raises IngestionError when they are not a readable PDF or have no pages.

    Holds the process's pdfium lock until the block ends.
    """
    if not data:
        raise IngestionError("not a readable PDF: the file is empty")
    with _PDFIUM_LOCK:
        # The raw call rather than PdfDocument(data): pypdfium2 reports a document with zero
        # pages as a load failure carrying a stale error code from an earlier call.
        raw = pdfium_c.FPDF_LoadMemDocument64(data, len(data), None)
        if not raw:
            code = pdfium_c.FPDF_GetLastError()
            if code == _PASSWORD_ERROR:
                raise IngestionError("encrypted: a password is required")
            if code == _SECURITY_ERROR:
                raise IngestionError("encrypted: the PDF uses an unsupported security scheme")
            raise IngestionError(f"not a readable PDF: {_LOAD_ERRORS.get(code, 'unknown error')}")
        pdf = PdfFile(raw, data)
        try:
            if pdf.page_count <= 0:
                raise IngestionError(unsupported_filter(data) or _NO_PAGES)
            yield pdf
        finally:
            pdf.close()
            pdfium_c.FPDF_CloseDocument(raw)


def iter_page_batches(
    data: bytes,
    *,
    batch_pages: int,
    max_sentence_chars: int | None = None,
    furniture: bool = True,
    words: bool = False,
) -> Generator[tuple[ParsedPage, ...], None, None]:
    """Parse a document `batch_pages` pages at a time, so no more are held at once.

    Headers and footers are found first, on a sample of pages chosen from the page count alone,
    so every batch size gives the same pages. Raises IngestionError (after the last batch) when
    no page has text. Close the iterator (or exhaust it) to release the document.
    """
    if batch_pages < 1:
        raise ValueError("batch_pages must be at least 1")
    with open_pdf(data) as pdf:
        found = pdf.furniture() if furniture else None
        for first in range(1, pdf.page_count + 1, batch_pages):
            numbers = range(first, min(first + batch_pages, pdf.page_count + 1))
            with gc_paused():
                pages = pdf.parse(
                    numbers, furniture=found, max_sentence_chars=max_sentence_chars, words=words
                )
            yield pages
        pdf.require_text()


def parse_pdf(
    data: bytes,
    *,
    max_sentence_chars: int | None = None,
    furniture: bool = True,
    words: bool = False,
) -> ParsedDocument:
    """Parse PDF bytes into pages of lines and sentences with boxes, in one pass.

    Raises IngestionError when the bytes are not a readable PDF, need a password, have no pages,
    or hold no text layer (scanned images).
    """
    pages: list[ParsedPage] = []
    for batch in iter_page_batches(
        data,
        batch_pages=1 << 30,
        max_sentence_chars=max_sentence_chars,
        furniture=furniture,
        words=words,
    ):
        pages.extend(batch)
    return ParsedDocument(pages=tuple(pages))
