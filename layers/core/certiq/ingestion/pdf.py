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

import bisect
import ctypes
import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pypdfium2  # noqa: F401  (importing it initialises the pdfium library)
import pypdfium2.raw as pdfium_c

from certiq.errors import IngestionError
from certiq.ingestion.construct import constructor
from certiq.ingestion.furniture import (
    Furniture,
    LineSample,
    PageSample,
    detect_furniture,
    sample_numbers,
)
from certiq.ingestion.gc_pause import gc_paused
from certiq.ingestion.sentences import sentence_spans
from certiq.models import Box

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
class Word:
    """A run of non-space characters on one line; `page.text[start:end] == text`.

    A word hyphenated across a line break is two Words (one per line, so each keeps a true box)
    whose offsets touch: the page text holds the word once, without the break.
    """

    text: str
    start: int
    end: int
    box: Box
    line: int  # index into ParsedPage.lines


@dataclass(frozen=True, slots=True)
class Line:
    """Text sharing a baseline, in pdfium's reading order: page.text[start:end]."""

    start: int
    end: int
    box: Box


@dataclass(frozen=True, slots=True)
class SentenceSpan:
    """A sentence (or a piece of an overlong one) at page.text[start:end], one box per line.

    `text` is that text on one line: page text has single spaces, so only line breaks change.
    """

    start: int
    end: int
    text: str
    boxes: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class ParsedPage:
    number: int
    width: float
    height: float
    rotation: int
    text: str
    # Per line: start and end in text, and its box's x0, y0, x1, y1 (see `lines`).
    line_spans: tuple[tuple[int, int, float, float, float, float], ...]
    sentences: tuple[SentenceSpan, ...]
    words: tuple[Word, ...] = ()  # only when parsed with words=True

    @property
    def lines(self) -> tuple[Line, ...]:
        """The page's lines, in reading order (built on each access: chunking needs none)."""
        return tuple(
            Line(start, end, _box(self.number, self.width, self.height, x0, y0, x1, y1))
            for start, end, x0, y0, x1, y1 in self.line_spans
        )


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    pages: tuple[ParsedPage, ...]

    @property
    def page_count(self) -> int:
        return len(self.pages)


# pdfium is not thread-safe, not even across documents: one open document at a time per process
# (re-entrant, so code holding a document can open another without deadlocking itself).
_PDFIUM_LOCK = threading.RLock()

# pdfium ends a line inside a hyphenated word with U+FFFE (U+0002 in its character list) in
# place of the hyphen and the line break; U+00AD, a soft hyphen, is invisible elsewhere.
_HYPHEN_MARKERS = "\x02\ufffe"
_LINE = re.compile(r"[^\r\n\u2028\u2029\x02\ufffe]+[\x02\ufffe]?|[\x02\ufffe]")
_WORD = re.compile(r"\S+")
# What a line's text cannot copy as it is: anything but printable ASCII, and runs of spaces.
_SPECIAL = re.compile(r"[^\x20-\x7e]+| {2,}")
# Control and invisible characters that would only break matching (ZWJ/ZWNJ stay: scripts
# need them).
_DROP = frozenset(chr(c) for c in [*range(0x20), 0x7F, 0xAD, 0x200B, 0x2060, 0xFEFF, 0xFFFF])

# Loose boxes taller than this (points) are checked against the font size: cheap to skip for
# ordinary text, and rare enough to check one by one.
_SUSPECT_HEIGHT = 30.0

_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD
_SECURITY_ERROR = 5  # FPDF_ERR_SECURITY: an unsupported security handler
_NO_PAGES = "no pages: the PDF has zero pages"
_LOAD_ERRORS = {
    2: "the file cannot be opened",  # FPDF_ERR_FILE
    3: "the file is damaged or not a PDF",  # FPDF_ERR_FORMAT
}

# A gap between lines above this share of the line height is a paragraph break (typical leading
# leaves ~0.2); a line height change above this share is a new block such as a heading.
_PARAGRAPH_GAP = 0.4
_HEIGHT_CHANGE = 0.2

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 on the displayed page


# --- documents -----------------------------------------------------------------------------------


class PdfFile:
    """An open PDF (see open_pdf): its page count, samples of its lines, and parsed pages."""

    def __init__(self, raw: Any, data: bytes) -> None:
        self._raw = raw
        self._data = data  # pdfium reads from these bytes while the document is open
        self.page_count = int(pdfium_c.FPDF_GetPageCount(raw))
        self.has_text = False  # a parsed page had visible text (headers and footers count)
        self._readers: dict[int, _PageReader] = {}

    def sample(self, numbers: Sequence[int]) -> list[PageSample]:
        """The lines of the given pages (1-based), for finding headers and footers.

        The pages stay open until they are parsed, so a short document is read once.
        """
        return [self._reader(number).sample() for number in numbers]

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
            reader = self._reader(number)
            try:
                self.has_text = self.has_text or bool(reader.lines)
                parsed.append(reader.parse(drop, max_sentence_chars, words))
            finally:
                reader.close()
                del self._readers[number]
        return tuple(parsed)

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
                raise IngestionError(_NO_PAGES)
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
        if not pdf.has_text:
            raise IngestionError(pdf.no_text_reason())


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


# --- pages ---------------------------------------------------------------------------------------


class _RawLine:
    """A line as pdfium gives it, with its box on the displayed page and in reading order."""

    __slots__ = (
        "char_end",
        "char_start",
        "cmap",
        "direction",
        "first",
        "glued",
        "hyphen",
        "index",
        "last",
        "rx0",
        "rx1",
        "ry0",
        "ry1",
        "size",
        "text",
        "upright",
        "x0",
        "x1",
        "y0",
        "y1",
    )

    index: int  # position among the page's raw lines
    char_start: int  # pdfium character indices [start, end), with the hyphen marker
    char_end: int
    text: str  # normalised, without the line-end hyphen marker
    cmap: list[int] | None  # text index -> character index; None: one to one from char_start
    hyphen: bool  # the line ends in pdfium's hyphen marker
    glued: bool  # ... and the next line starts right after it (no break between)
    direction: int  # of its text, clockwise from left-to-right on the displayed page
    upright: bool  # the text runs horizontally on the displayed page
    x0: float  # the box on the displayed page
    y0: float
    x1: float
    y1: float
    rx0: float  # the box turned so the page's text reads left to right (turned pages only)
    ry0: float
    rx1: float
    ry1: float
    first: Rect | None  # loose boxes of the first and last characters
    last: Rect | None
    size: float  # the first character's loose height across the line: the font size

    def char_at(self, offset: int) -> int:
        """The pdfium character index of text[offset] (len(text) is the hyphen marker)."""
        if self.cmap is None:
            return self.char_start + offset
        return self.cmap[offset] if offset < len(self.cmap) else self.char_end - 1


def _transform(
    bbox: tuple[float, float, float, float], rotation: int
) -> Callable[[float, float, float, float], Rect]:
    """PDF user space -> the displayed page: crop offset, /Rotate (clockwise), top-left origin.

    The returned function takes (left, bottom, right, top) in user space and gives
    (x0, y0, x1, y1) on the displayed page. Matches FPDF_PageToDevice for rotations 0/90/180/270,
    without its rounding to integers.
    """
    left, bottom, right, top = bbox
    if rotation == 90:  # the page's left edge is drawn at the top
        return lambda x0, y0, x1, y1: (y0 - bottom, x0 - left, y1 - bottom, x1 - left)
    if rotation == 180:
        return lambda x0, y0, x1, y1: (right - x1, y0 - bottom, right - x0, y1 - bottom)
    if rotation == 270:  # the page's right edge is drawn at the top
        return lambda x0, y0, x1, y1: (top - y1, right - x1, top - y0, right - x0)
    return lambda x0, y0, x1, y1: (x0 - left, top - y1, x1 - left, top - y0)


def _reading_rect(
    direction: int, width: float, height: float, x0: float, y0: float, x1: float, y1: float
) -> Rect:
    """A displayed-page box turned so its text reads left to right with lines going down."""
    if direction == 90:  # text runs down the page, lines go right to left
        return y0, width - x1, y1, width - x0
    if direction == 180:  # upside down
        return width - x1, height - y1, width - x0, height - y0
    if direction == 270:  # text runs up the page, lines go left to right
        return height - y1, x0, height - y0, x1
    return x0, y0, x1, y1


class _PageReader:
    """One open page and its text page: lines first, then text, sentences and their boxes."""

    def __init__(self, document: Any, number: int) -> None:
        self.number = number
        self._page = pdfium_c.FPDF_LoadPage(document, number - 1)
        if not self._page:
            raise IngestionError(f"not a readable PDF: page {number} cannot be loaded")
        self._text: Any = None
        try:
            page = self._page
            self.width = float(pdfium_c.FPDF_GetPageWidthF(page))
            self.height = float(pdfium_c.FPDF_GetPageHeightF(page))
            raw_rotation = int(pdfium_c.FPDFPage_GetRotation(page))
            self.rotation = raw_rotation * 90 if raw_rotation in (0, 1, 2, 3) else 0
            rect = pdfium_c.FS_RECTF()
            if pdfium_c.FPDF_GetPageBoundingBox(page, rect):
                bbox = (rect.left, rect.bottom, rect.right, rect.top)
            else:
                bbox = (0.0, 0.0, self.width, self.height)
            self._to_page = _transform(bbox, self.rotation)
            self._origin = (bbox[0], bbox[3])  # user-space left and top of the visible page
            self._plain = self.rotation == 0
            self._rect = rect
            self._doubles = tuple(ctypes.c_double() for _ in range(4))
            self.lines: list[_RawLine] = []
            self.turned = False  # the page's text does not read left to right as displayed
            if self.width > 0 and self.height > 0:  # a degenerate page shows nothing to point at
                self._text = pdfium_c.FPDFText_LoadPage(page)
                if self._text:
                    self.lines = self._read_lines()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._text:
            pdfium_c.FPDFText_ClosePage(self._text)
            self._text = None
        if self._page:
            pdfium_c.FPDF_ClosePage(self._page)
            self._page = None

    # -- lines ------------------------------------------------------------------------------

    def _chars(self) -> str:
        """The page's characters, one str character per pdfium character index.

        One GetText call instead of a call per character; when its output does not line up with
        the character list (surrogate pairs, rare pdfium insertions), ask character by character.
        """
        textpage = self._text
        count = int(pdfium_c.FPDFText_CountChars(textpage))
        if count <= 0:
            return ""
        buffer = _text_buffer(count + 1)
        written = pdfium_c.FPDFText_GetText(textpage, 0, count, buffer)
        size = 2 * max(written - 1, 0)
        text = ctypes.string_at(buffer, size).decode("utf-16-le", errors="surrogatepass")
        if len(text) == count:
            return text
        get_unicode = pdfium_c.FPDFText_GetUnicode
        return "".join(chr(get_unicode(textpage, k)) for k in range(count))

    def _read_lines(self) -> list[_RawLine]:
        """The page's visible lines, each boxed from the loose boxes of its two ends.

        Loose boxes span the font's ascent to descent, so the lines of a paragraph share one
        height and a highlight covers descenders. Where the two ends disagree on the height
        (mixed sizes on one line) or have no usable box, the glyphs' tight boxes join in. Text
        outside the visible page (off the crop box) is dropped: the reader never sees it, so it
        must not be quoted, and its box could not be drawn.
        """
        chars = self._chars()
        textpage, rect = self._text, self._rect
        get_loose = pdfium_c.FPDFText_GetLooseCharBox
        get_angle = pdfium_c.FPDFText_GetCharAngle
        to_page, checked_loose = self._to_page, self._loose
        width, height, rotation = self.width, self.height, self.rotation
        # On an unrotated page the transform is a shift and a flip, done inline below.
        plain = self._plain
        origin_x, origin_y = self._origin
        suspect = _SUSPECT_HEIGHT
        lines: list[_RawLine] = []
        matches = list(_LINE.finditer(chars))
        last_match = len(matches) - 1
        for position, match in enumerate(matches):
            start, end = match.span()
            hyphen = chars[end - 1] in _HYPHEN_MARKERS
            content_end = end - 1 if hyphen else end
            raw = chars[start:content_end]
            stripped = raw.strip()
            if stripped:
                if len(stripped) != len(raw):
                    start += len(raw) - len(raw.lstrip())
                    content_end = start + len(stripped)
            elif not hyphen:
                continue
            if stripped.isascii() and stripped.isprintable() and "  " not in stripped:
                text, cmap = stripped, None
            else:
                text, cmap = _normalise(stripped, start)
                if not text and not hyphen:
                    continue
            char_end = end if hyphen else content_end
            last_index = char_end - 1
            # The loose boxes of the two ends (inlined _loose: this loop runs for every line).
            first = last = None
            if get_loose(textpage, start, rect):
                left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
                if right - left > suspect and top - bottom > suspect:
                    first = checked_loose(start)
                elif plain:
                    first = (left - origin_x, origin_y - top, right - origin_x, origin_y - bottom)
                else:
                    first = to_page(left, bottom, right, top)
            if last_index == start:
                last = first
            elif get_loose(textpage, last_index, rect):
                left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
                if right - left > suspect and top - bottom > suspect:
                    last = checked_loose(last_index)
                elif plain:
                    last = (left - origin_x, origin_y - top, right - origin_x, origin_y - bottom)
                else:
                    last = to_page(left, bottom, right, top)
            if first is None or last is None or first[3] - first[1] != last[3] - last[1]:
                box = self._tight(start, last_index)
                for part in (first, last):
                    if part is not None:
                        box = part if box is None else _union(box, part)
                if box is None:
                    continue  # pdfium knows no position for this text
                x0, y0, x1, y1 = box
            else:
                x0, y0, x1, y1 = first
                if last[0] < x0:
                    x0 = last[0]
                if last[1] < y0:
                    y0 = last[1]
                if last[2] > x1:
                    x1 = last[2]
                if last[3] > y1:
                    y1 = last[3]
            if x0 >= width or x1 <= 0 or y0 >= height or y1 <= 0:
                continue  # off the visible page
            if (
                first is not None
                and last is not None
                and last is not first
                and last[0] > first[0]
                and last[1] == first[1] == y0
            ):
                direction = 0  # its ends share a baseline left to right: upright as displayed
            else:
                radians = get_angle(textpage, start)
                if radians > 0:  # -1 is an error, 0 the usual upright text
                    direction = (rotation + round(math.degrees(radians) / 90) % 4 * 90) % 360
                else:
                    direction = rotation
            line = _RawLine()
            line.index = len(lines)
            line.char_start = start
            line.char_end = char_end
            line.text = text
            line.cmap = cmap
            line.hyphen = hyphen
            line.glued = hyphen and position < last_match and matches[position + 1].start() == end
            # Two decimals (1/7200 inch) is finer than any viewer draws and keeps state
            # payloads small (rounded by hand: round(x, 2) costs four times as much).
            line.x0 = int(x0 * 100 + 0.5) / 100 if x0 > 0 else 0.0
            line.y0 = int(y0 * 100 + 0.5) / 100 if y0 > 0 else 0.0
            line.x1 = int(x1 * 100 + 0.5) / 100 if x1 < width else width
            line.y1 = int(y1 * 100 + 0.5) / 100 if y1 < height else height
            line.first = first
            line.last = last
            line.direction = direction
            line.upright = upright = direction == 0 or direction == 180
            if first is None:
                line.size = 0.0
            else:
                line.size = first[3] - first[1] if upright else first[2] - first[0]
            lines.append(line)
        if lines:
            self._orient(lines)
        return lines

    def _loose(self, index: int) -> Rect | None:
        """The loose box of one character on the displayed page: its advance along the line,
        the font's ascent to descent across it.
        """
        rect = self._rect
        if not pdfium_c.FPDFText_GetLooseCharBox(self._text, index, rect):
            return None
        left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
        if right - left > _SUSPECT_HEIGHT and top - bottom > _SUSPECT_HEIGHT:
            font_size = float(pdfium_c.FPDFText_GetFontSize(self._text, index))
            if font_size > 0 and min(right - left, top - bottom) > 3 * font_size:
                return None  # broken font metrics (an ascent of thousands): not a usable box
        return self._to_page(left, bottom, right, top)

    def _tight(self, first: int, last: int) -> Rect | None:
        """The union of the glyph boxes of characters first..last on the displayed page."""
        textpage = self._text
        count = pdfium_c.FPDFText_CountRects(textpage, first, last - first + 1)
        t_left, t_top, t_right, t_bottom = self._doubles
        get_rect = pdfium_c.FPDFText_GetRect
        found: Rect | None = None
        for index in range(count):
            if not get_rect(textpage, index, t_left, t_top, t_right, t_bottom):
                continue
            lo, hi = sorted((t_bottom.value, t_top.value))
            box = self._to_page(t_left.value, lo, t_right.value, hi)
            found = box if found is None else _union(found, box)
        return found

    def _orient(self, lines: list[_RawLine]) -> None:
        """Reading-frame boxes, in the direction most of the page's text runs.

        A page turned by /Rotate turns its text with it, unless the text was drawn
        counter-rotated (as landscape pages often are) so that it reads upright on screen. On
        the usual page, whose text reads left to right, the displayed boxes are the frame.
        """
        direction = 0
        if any(line.direction for line in lines):
            votes = Counter[int]()
            for line in lines:
                votes[line.direction] += len(line.text) + 1
            direction = votes.most_common(1)[0][0]
        self.turned = direction != 0
        width, height = self.width, self.height
        for line in lines:
            if self.turned:
                line.rx0, line.ry0, line.rx1, line.ry1 = _reading_rect(
                    direction, width, height, line.x0, line.y0, line.x1, line.y1
                )
                if line.size <= 0:
                    line.size = line.ry1 - line.ry0
            elif line.size <= 0:
                line.size = line.y1 - line.y0

    def sample(self) -> PageSample:
        return PageSample(
            height=self.height,
            lines=tuple(LineSample(line.text, line.y0, line.y1) for line in self.lines),
        )

    # -- page -------------------------------------------------------------------------------

    def parse(
        self, furniture: Furniture | None, max_sentence_chars: int | None, words: bool
    ) -> ParsedPage:
        number, width, height = self.number, self.width, self.height
        lines = self.lines
        if furniture is not None:
            top, bottom = furniture.bands(height)
            lines = [
                line
                for line in lines
                if (line.y1 > top and line.y0 < bottom)  # the body: most lines, never furniture
                or not furniture.drops(line.text, line.y0, line.y1, height)
            ]
        parts: list[str] = []
        starts: list[int] = []  # where each line starts and ends in the page's text
        ends: list[int] = []
        offset = 0
        count = len(lines)
        for index, line in enumerate(lines):
            following = lines[index + 1] if index + 1 < count else None
            text = line.text
            joined = False
            if line.hyphen:
                joined = (
                    following is not None
                    and line.glued
                    and following.index == line.index + 1
                    and bool(following.text)
                )
                first = following.text[0] if joined and following is not None else ""
                if not joined or first.isupper() or first.isdigit():
                    text += "-"  # "Two-|Column" and "pre-| and" keep it, "reten-|tion" does not
            parts.append(text)
            starts.append(offset)
            offset += len(text)
            ends.append(offset)
            if following is not None:
                if joined:
                    separator = ""
                elif _paragraph_break(line, following, self.turned):
                    separator = "\n\n"
                else:
                    separator = "\n"
                parts.append(separator)
                offset += len(separator)
        page_text = "".join(parts)
        sentences: list[SentenceSpan] = []
        if lines:
            piece_box, line_box = self._piece_box, self._line_box
            for start, end in sentence_spans(page_text, starts, max_sentence_chars):
                # One box per line the sentence covers: the line's own box where it covers the
                # whole line, else the box of its piece of the line.
                index = bisect.bisect_right(starts, start) - 1  # >= 0: text starts with a line
                boxes: list[Box] = []
                while True:
                    line_start, line_end = starts[index], ends[index]
                    low = start if start > line_start else line_start
                    high = end if end < line_end else line_end
                    if low < high:
                        if low == line_start and high == line_end:
                            boxes.append(line_box(lines[index]))
                        else:
                            boxes.append(
                                piece_box(
                                    lines[index],
                                    low - line_start,
                                    high - line_start,
                                    line_end - line_start,
                                )
                            )
                    index += 1
                    if index == count or starts[index] >= end:
                        break
                sentences.append(
                    SentenceSpan(start, end, page_text[start:end].replace("\n", " "), tuple(boxes))
                )
        found_words: tuple[Word, ...] = ()
        if words:
            found_words = tuple(
                Word(
                    match.group(),
                    match.start(),
                    match.end(),
                    self._piece_box(
                        line,
                        match.start() - starts[index],
                        match.end() - starts[index],
                        ends[index] - starts[index],
                    ),
                    index,
                )
                for index, line in enumerate(lines)
                for match in _WORD.finditer(page_text, starts[index], ends[index])
            )
        return ParsedPage(
            number=number,
            width=width,
            height=height,
            rotation=self.rotation,
            text=page_text,
            line_spans=tuple(
                (start, end, line.x0, line.y0, line.x1, line.y1)
                for start, end, line in zip(starts, ends, lines, strict=True)
            ),
            sentences=tuple(sentences),
            words=found_words,
        )

    def _line_box(self, line: _RawLine) -> Box:
        return _box(self.number, self.width, self.height, line.x0, line.y0, line.x1, line.y1)

    def _plain_piece_box(self, line: _RawLine, start: int, end: int, length: int) -> Box | None:
        """_piece_box for the usual line: left to right on an unrotated page, plain text.

        Only the piece's left and right edges are asked of pdfium, from the loose boxes of its
        first and last characters; None when a box is missing or suspect (the general path
        then decides).
        """
        textpage, rect, origin_x = self._text, self._rect, self._origin[0]
        get_loose = pdfium_c.FPDFText_GetLooseCharBox
        first, last = line.first, line.last
        if first is None or last is None:
            return None
        if start == 0:
            x0 = first[0]
        elif get_loose(textpage, line.char_start + start, rect) and (
            rect.right - rect.left <= _SUSPECT_HEIGHT or rect.top - rect.bottom <= _SUSPECT_HEIGHT
        ):
            x0 = rect.left - origin_x
        else:
            return None
        if end == length:
            x1 = last[2]
        elif get_loose(textpage, line.char_start + end - 1, rect) and (
            rect.right - rect.left <= _SUSPECT_HEIGHT or rect.top - rect.bottom <= _SUSPECT_HEIGHT
        ):
            x1 = rect.right - origin_x
        else:
            return None
        # Clamped to the line (so inside the page), then rounded as the line's box is.
        x0 = line.x0 if x0 < line.x0 else int(x0 * 100 + 0.5) / 100
        x1 = line.x1 if x1 > line.x1 else int(x1 * 100 + 0.5) / 100
        return _box(self.number, self.width, self.height, x0, line.y0, x1, line.y1)

    def _piece_box(self, line: _RawLine, start: int, end: int, length: int) -> Box:
        """The box of a piece [start, end) of a line of `length` characters: along the line from
        its first character's loose box to its last one's, across it the line's own extent.
        """
        if self._plain and line.direction == 0 and line.cmap is None:
            fast = self._plain_piece_box(line, start, end, length)
            if fast is not None:
                return fast
        loose = self._loose
        first = line.first if start == 0 else loose(line.char_at(start))
        last = line.last if end == length else loose(line.char_at(end - 1))
        if first is None or last is None:
            return self._line_box(line)
        # Clamped to the line (so inside the page), then rounded as the line's box is.
        if line.upright:
            x0 = first[0] if first[0] < last[0] else last[0]
            x1 = first[2] if first[2] > last[2] else last[2]
            x0 = line.x0 if x0 < line.x0 else int(x0 * 100 + 0.5) / 100
            x1 = line.x1 if x1 > line.x1 else int(x1 * 100 + 0.5) / 100
            y0, y1 = line.y0, line.y1
        else:
            y0 = first[1] if first[1] < last[1] else last[1]
            y1 = first[3] if first[3] > last[3] else last[3]
            y0 = line.y0 if y0 < line.y0 else int(y0 * 100 + 0.5) / 100
            y1 = line.y1 if y1 > line.y1 else int(y1 * 100 + 0.5) / 100
            x0, x1 = line.x0, line.x1
        return _box(self.number, self.width, self.height, x0, y0, x1, y1)


def _box(page: int, width: float, height: float, x0: float, y0: float, x1: float, y1: float) -> Box:
    """A Box from coordinates already rounded and inside the page (not validated again)."""
    return _new_box(
        {
            "page": page,
            "x0": x0,
            "y0": y0,
            "x1": x1,
            "y1": y1,
            "page_width": width,
            "page_height": height,
        },
    )


_new_box = constructor(Box)
_BUFFERS = threading.local()


def _text_buffer(units: int) -> Any:
    """A UTF-16 buffer of at least `units` code units for FPDFText_GetText, reused per thread
    (allocating and zeroing one per page showed in profiles)."""
    buffer = getattr(_BUFFERS, "buffer", None)
    if buffer is None or len(buffer) < units:
        buffer = (ctypes.c_ushort * max(units, 8192))()
        _BUFFERS.buffer = buffer
    return buffer


def _union(a: Rect, b: Rect) -> Rect:
    return (
        a[0] if a[0] < b[0] else b[0],
        a[1] if a[1] < b[1] else b[1],
        a[2] if a[2] > b[2] else b[2],
        a[3] if a[3] > b[3] else b[3],
    )


def _normalise(raw: str, start: int) -> tuple[str, list[int]]:
    """Text for a line that is not plain printable ASCII, and the character index of each char.

    NFKC folds ligatures (U+FB01 -> "fi"), full-width and presentation forms, so the indexed
    text matches what people type; a character and the combining marks after it are folded
    together. Control and invisible characters go, whitespace runs become one space. Runs of
    plain ASCII between the special characters are copied whole.
    """
    out: list[str] = []
    cmap: list[int] = []
    position = 0
    for match in _SPECIAL.finditer(raw):
        special_start, special_end = match.span()
        if special_start > position:
            out.append(raw[position:special_start])
            cmap.extend(range(start + position, start + special_start))
        _fold(raw, special_start, special_end, start, out, cmap)
        position = special_end
    if position < len(raw):
        out.append(raw[position:])
        cmap.extend(range(start + position, start + len(raw)))
    text = "".join(out)
    if text[:1] == " " or text[-1:] == " ":  # a dropped character left a space at an end
        lead = len(text) - len(text.lstrip(" "))
        text = text.strip(" ")
        cmap = cmap[lead : lead + len(text)]
    return text, cmap


def _fold(raw: str, index: int, end: int, start: int, out: list[str], cmap: list[int]) -> None:
    """Append raw[index:end], character by character, folded (see _normalise)."""
    while index < end:
        char = raw[index]
        cluster_end = index + 1
        while cluster_end < len(raw) and unicodedata.combining(raw[cluster_end]):
            cluster_end += 1
        if char in _DROP:
            index += 1
            continue
        cluster = raw[index:cluster_end]
        folded = cluster if cluster.isascii() else unicodedata.normalize("NFKC", cluster)
        for folded_char in folded:
            if folded_char.isspace():
                if out and not out[-1].endswith(" "):
                    out.append(" ")
                    cmap.append(start + index)
            elif folded_char not in _DROP:
                out.append(folded_char)
                cmap.append(start + index)
        index = cluster_end


def _paragraph_break(above: _RawLine, below: _RawLine, turned: bool) -> bool:
    """Does a new block (paragraph, heading, header, footer) start between these lines?

    Measured in the reading frame (`turned`: the rx/ry boxes), where lines go down the page.
    """
    smaller = min(above.size, below.size)
    larger = max(above.size, below.size)
    if larger <= 0:
        return False
    if larger - smaller > _HEIGHT_CHANGE * larger:
        return True  # the font size changed: a heading, a caption, a footer
    if turned:
        gap = below.ry0 - above.ry1
        back_left = below.rx0 < above.rx1 - larger
    else:
        gap = below.y0 - above.y1
        back_left = below.x0 < above.x1 - larger
    if gap < -larger:
        # The text jumped up. Into the next column, to the right, a sentence may go on; back
        # to the left margin (from a footer to the body, say) it is a new block.
        return back_left
    return gap > _PARAGRAPH_GAP * smaller
