"""PDF bytes -> pages of lines and sentences, each with the boxes it is drawn in.

pypdfium2 gives a page's characters in reading order, with generated spaces and line breaks,
and the box of any character or run of characters; pdfium does no layout analysis beyond that.
This module cuts the characters into lines, joins words hyphenated across lines, marks paragraph
breaks with a blank line, drops running headers and footers (certiq.ingestion.furniture), splits
the text into sentences (certiq.sentences) and boxes every sentence, one box per line
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
from dataclasses import dataclass, field
from typing import Any

import pypdfium2  # noqa: F401  (importing it initialises the pdfium library)
import pypdfium2.raw as pdfium_c

from certiq.config import OcrSettings
from certiq.errors import IngestionError, OcrUnavailable
from certiq.ingestion.form_fields import FieldLine, FormReader, with_field_lines
from certiq.ingestion.furniture import (
    Furniture,
    PageSample,
    detect_furniture,
    sample_numbers,
)
from certiq.ingestion.gc_pause import gc_paused
from certiq.ingestion.ocr_page import page_from_words
from certiq.ingestion.pdf_lines import Line, ParsedPage, SentenceSpan, Word
from certiq.ingestion.pdf_page import PageUnreadable, _PageReader
from certiq.ingestion.tables import Table
from certiq.ingestion.text_quality import (
    AGREEING,
    garbage_reason,
    unlikely_reason,
    word_agreement,
)
from certiq.ports import OcrEngine, OcrRequest

__all__ = [
    "Line",
    "PageOcr",
    "ParsedDocument",
    "ParsedPage",
    "PdfFile",
    "SentenceSpan",
    "Word",
    "iter_page_batches",
    "open_pdf",
    "parse_pdf",
]

NO_TEXT = "no text: the PDF's pages hold neither text nor images"

NO_TEXT_FOUND = "no text found, even by OCR"

OCR_OFF = "OCR is off (CERTIQ_OCR__ENGINE=none)"

IMAGE_ONLY = "no text layer: the page is an image, and {why}"

# A page with less text than this whose images cover most of it is a scan (a stamp or a Bates
# number may be all its text layer holds).
SCAN_MAX_TEXT_CHARS = 50


@dataclass(frozen=True)
class PageOcr:
    """How pages without a usable text layer are read: the engine (None: OCR is off), its
    thresholds, and where the document is stored, for an engine that reads it there."""

    engine: OcrEngine | None
    settings: OcrSettings = field(default_factory=OcrSettings)
    uri: str | None = None
    version: str | None = None


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

_NO_FORM = 0  # FORMTYPE_NONE

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

    def __init__(self, raw: Any, data: bytes, ocr: PageOcr | None = None) -> None:
        self._raw = raw
        self._data = data  # pdfium reads from these bytes while the document is open
        self.ocr = ocr
        self.ocr_pages: dict[int, float] = {}  # pages read by OCR: their confidence (1-based)
        self.page_count = int(pdfium_c.FPDF_GetPageCount(raw))
        self.has_text = False  # a parsed page had visible text (headers and footers count)
        # Pages pdfium cannot load, with why: left out, the others still read (1-based).
        self.skipped: dict[int, str] = {}
        # Pages indexed from a text layer that looked wrong, which OCR could not check, and why.
        self.doubtful: dict[int, str] = {}
        self._readers: dict[int, _PageReader] = {}
        # The last page's table, when it ran to the foot of the page: the next page's may go on.
        self._continuing: Table | None = None
        # Filled-in form fields are read as text of their page (AcroForm documents only).
        self._forms = FormReader(raw) if pdfium_c.FPDF_GetFormType(raw) != _NO_FORM else None

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
        """Parse the given pages (1-based) and close them.

        A page without a usable text layer (none, or garbage) is read by OCR; a page that still
        has no text is left out, with why, in `skipped`. Filled-in form fields are read as lines
        after the page's text.
        """
        drop = furniture if furniture is not None and furniture.lines else None
        parsed = []
        for number in numbers:
            reader = self._readable(number)
            if reader is None:
                continue
            try:
                page = reader.parse(drop, max_sentence_chars, words, self._continuing)
                fields = reader.form_lines(self._forms) if self._forms is not None else []
                settled = self._settle(
                    number, reader, page, fields, drop, max_sentence_chars, words
                )
                if settled is None:
                    continue
                page = with_field_lines(settled, fields, max_sentence_chars)
                self._continuing = _at_the_foot(page)
                self.has_text = self.has_text or bool(page.text)
                parsed.append(page)
            finally:
                reader.close()
                del self._readers[number]
        return tuple(parsed)

    def _settle(
        self,
        number: int,
        reader: _PageReader,
        page: ParsedPage,
        fields: Sequence[FieldLine],
        furniture: Furniture | None,
        max_sentence_chars: int | None,
        words: bool,
    ) -> ParsedPage | None:
        """The page to index: its text layer, or what OCR reads where the layer is missing or
        wrong; None when it is left out (`skipped` says why)."""
        garbage = garbage_reason(page.text)
        suspect = unlikely_reason(page.text) if garbage is None else None
        wrong = garbage or suspect
        if wrong is None and not self._scanned(reader, page):
            return page
        read, why = self._ocr_page(reader, furniture, max_sentence_chars, words)
        if read is not None and wrong and word_agreement(page.text, read.text) >= AGREEING:
            return page  # what OCR sees printed is the text layer: it was right after all
        # OCR replaces a wrong text layer, and a stamp on a scan when it reads more.
        if read is not None and (wrong or len(read.text) > len(page.text)):
            self.ocr_pages[number] = read.ocr_confidence or 0.0
            return read
        if suspect is not None:
            # Letters that spell no common word may be a table of names: kept, saying so.
            self.doubtful[number] = f"{suspect}; indexed as it is: {why}"
            return page
        if garbage is not None:
            self.skipped[number] = f"{garbage}; {why}"  # never indexed silently
            return None
        if not page.text and not fields:
            self.skipped[number] = why if why == NO_TEXT_FOUND else IMAGE_ONLY.format(why=why)
            return None
        return page

    def _scanned(self, reader: _PageReader, page: ParsedPage) -> bool:
        """A page whose text is (almost) all in images: nothing but a stamp in its text layer."""
        if len(page.text) >= SCAN_MAX_TEXT_CHARS:
            return False
        share = reader.image_share()
        if not page.text:
            return share > 0
        return self.ocr is not None and share >= self.ocr.settings.min_image_share

    def _ocr_page(
        self,
        reader: _PageReader,
        furniture: Furniture | None,
        max_sentence_chars: int | None,
        words: bool,
    ) -> tuple[ParsedPage | None, str]:
        """The page read by OCR, or None and why not."""
        ocr = self.ocr
        if ocr is None or ocr.engine is None:
            return None, OCR_OFF
        request = OcrRequest(
            page=reader.number, render=reader.render_gray, uri=ocr.uri, version=ocr.version
        )
        try:
            found = ocr.engine.read(request)
        except OcrUnavailable as error:
            return None, str(error)
        page = page_from_words(
            reader.number,
            reader.width,
            reader.height,
            reader.rotation,
            found,
            min_confidence=ocr.settings.min_word_confidence,
            furniture=furniture,
            max_sentence_chars=max_sentence_chars,
            keep_words=words,
        )
        if (
            page is None
            or (page.ocr_confidence or 0.0) < ocr.settings.min_page_confidence
            or garbage_reason(page.text) is not None
        ):
            return None, NO_TEXT_FOUND
        return page, ""

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
        text, even by OCR."""
        if self.has_text:
            return
        unsupported = unsupported_filter(self._data)
        if unsupported:
            raise IngestionError(unsupported)
        if self.page_count and len(self.skipped) == self.page_count:
            reasons = sorted(set(self.skipped.values()))
            if reasons == ["cannot be loaded"]:
                raise IngestionError("not a readable PDF: no page can be loaded")
            first = self.skipped.get(1, reasons[0])
            if len(reasons) == 1 and first.startswith("no text"):
                raise IngestionError(first)  # the same for every page, and says it all
            raise IngestionError(f"no readable page: page 1 {first}")
        raise IngestionError(NO_TEXT)

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()
        if self._forms is not None:
            self._forms.close()
            self._forms = None

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
def open_pdf(data: bytes, ocr: PageOcr | None = None) -> Iterator[PdfFile]:
    """Open PDF bytes; raises IngestionError when they are not a readable PDF or have no pages.

    Without `ocr`, a page without a text layer is read as having no text (and so skipped).

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
        pdf = PdfFile(raw, data, ocr)
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
    ocr: PageOcr | None = None,
) -> Generator[tuple[ParsedPage, ...], None, None]:
    """Parse a document `batch_pages` pages at a time, so no more are held at once.

    Headers and footers are found first, on a sample of pages chosen from the page count alone,
    so every batch size gives the same pages. Raises IngestionError (after the last batch) when
    no page has text. Close the iterator (or exhaust it) to release the document.
    """
    if batch_pages < 1:
        raise ValueError("batch_pages must be at least 1")
    with open_pdf(data, ocr) as pdf:
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
    ocr: PageOcr | None = None,
) -> ParsedDocument:
    """Parse PDF bytes into pages of lines and sentences with boxes, in one pass.

    Raises IngestionError when the bytes are not a readable PDF, need a password, have no pages,
    or have no page with text (scanned images are read by `ocr`, when given).
    """
    pages: list[ParsedPage] = []
    for batch in iter_page_batches(
        data,
        batch_pages=1 << 30,
        max_sentence_chars=max_sentence_chars,
        furniture=furniture,
        words=words,
        ocr=ocr,
    ):
        pages.extend(batch)
    return ParsedDocument(pages=tuple(pages))


def _at_the_foot(page: ParsedPage) -> Table | None:
    """The page's last table when nothing follows it on the page (it may go on overleaf)."""
    if not page.tables:
        return None
    last = page.tables[-1]
    in_rows = {index for row_lines, _ in last.rows for index in row_lines}
    return last if len(page.line_spans) - 1 in in_rows else None
