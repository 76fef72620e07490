"""PDF bytes -> pages of words, each word with the box it is drawn in.

pypdfium2 gives every character of a page with its box; pdfium does no layout analysis beyond
ordering characters and inserting generated spaces and line breaks. This module builds words from
those characters (split on whitespace), groups words into lines, marks paragraph breaks with a
blank line, and converts boxes from PDF user space (origin bottom-left, before /Rotate and
/CropBox) to the page as a reader sees it (origin top-left, after rotation and cropping).

Every failure a user can do something about raises IngestionError with the reason they see.
"""

from __future__ import annotations

import ctypes
import math
import re
import statistics
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from certiq.errors import IngestionError
from certiq.models import Box

__all__ = ["Line", "ParsedDocument", "ParsedPage", "Word", "parse_pdf"]


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
    """Words sharing a baseline, left to right in pdfium's reading order."""

    start: int
    end: int
    box: Box
    first_word: int
    word_count: int


@dataclass(frozen=True, slots=True)
class ParsedPage:
    number: int
    width: float
    height: float
    rotation: int
    text: str
    words: tuple[Word, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    pages: tuple[ParsedPage, ...]

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def word_count(self) -> int:
        return sum(len(page.words) for page in self.pages)


# pdfium is not thread-safe, not even across documents: one parse at a time per process.
_PDFIUM_LOCK = threading.Lock()

# A word fragment: non-space characters, ending at (and including) a line-end hyphen marker.
# pdfium reports a hyphen that ends a line inside a word as U+0002 (U+FFFE through GetText);
# U+00AD is a soft hyphen.
_HYPHEN_MARKERS = "\x02\ufffe\xad"
_FRAGMENT = re.compile(rf"[^\s{_HYPHEN_MARKERS}]*[{_HYPHEN_MARKERS}]|[^\s{_HYPHEN_MARKERS}]+")
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029]")
# Control and invisible characters that would only break matching (ZWJ/ZWNJ stay: scripts
# need them).
_DROP = dict.fromkeys([*range(0x20), 0x7F, 0x200B, 0x2060, 0xFEFF, 0xFFFF])

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


@dataclass(slots=True)
class _Fragment:
    """A word (or the part of a hyphenated word on one line) while it is being built."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    first_char: int
    last_char: int
    line_break_before: bool
    glued_to_next: bool = False
    angle: int = 0  # of the text on the unrotated page, clockwise, to the nearest 90 degrees


def parse_pdf(data: bytes) -> ParsedDocument:
    """Parse PDF bytes into pages of words with boxes.

    Raises IngestionError when the bytes are not a readable PDF, need a password, have no pages,
    or hold no text layer (scanned images).
    """
    if not data:
        raise IngestionError("not a readable PDF: the file is empty")
    with _PDFIUM_LOCK, _open_document(data) as pdf:
        page_total = len(pdf)
        if page_total == 0:
            raise IngestionError(_NO_PAGES)
        pages = tuple(_parse_page(pdf, index) for index in range(page_total))
        if not any(page.words for page in pages):
            if _has_images(pdf):
                raise IngestionError(
                    "no text layer: the PDF holds only images; OCR is not available"
                )
            raise IngestionError("no text layer: the PDF holds no text; OCR is not available")
    return ParsedDocument(pages=pages)


@contextmanager
def _open_document(data: bytes) -> Iterator[Any]:
    # Loaded through the raw call rather than PdfDocument(data): pypdfium2 reports a document
    # with zero pages as a load failure carrying a stale error code from an earlier call.
    raw = pdfium_c.FPDF_LoadMemDocument64(data, len(data), None)
    if not raw:
        code = pdfium_c.FPDF_GetLastError()
        if code == _PASSWORD_ERROR:
            raise IngestionError("encrypted: a password is required")
        if code == _SECURITY_ERROR:
            raise IngestionError("encrypted: the PDF uses an unsupported security scheme")
        raise IngestionError(f"not a readable PDF: {_LOAD_ERRORS.get(code, 'unknown error')}")
    pdf = pdfium.PdfDocument(raw)  # the caller keeps `data` alive while this is open
    try:
        yield pdf
    finally:
        pdf.close()


def _has_images(pdf: Any) -> bool:
    for index in range(len(pdf)):
        page = pdf[index]
        try:
            if any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])):
                return True
        finally:
            page.close()
    return False


def _parse_page(pdf: Any, index: int) -> ParsedPage:
    try:
        page = pdf[index]
    except pdfium.PdfiumError as exc:
        raise IngestionError(f"not a readable PDF: page {index + 1} cannot be loaded") from exc
    try:
        width, height = (float(v) for v in page.get_size())
        rotation = int(page.get_rotation()) % 360
        bbox = tuple(float(v) for v in page.get_bbox())
        fragments: list[_Fragment] = []
        if width > 0 and height > 0:  # a degenerate page shows nothing a box could point at
            textpage = page.get_textpage()
            try:
                fragments = _read_fragments(textpage.raw)
            finally:
                textpage.close()
    finally:
        page.close()
    to_page = _PageTransform(bbox, rotation, width, height)
    return _assemble_page(index + 1, width, height, rotation, fragments, to_page)


def _page_chars(raw: Any) -> str:
    """The page's characters, one str character per pdfium character index.

    One GetText call instead of a call per character; when its output does not line up with the
    character list (surrogate pairs, rare pdfium insertions), ask character by character.
    """
    count = int(pdfium_c.FPDFText_CountChars(raw))
    if count <= 0:
        return ""
    buffer = ctypes.create_string_buffer(2 * (count + 1))
    written = pdfium_c.FPDFText_GetText(
        raw, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort))
    )
    text = buffer.raw[: 2 * max(written - 1, 0)].decode("utf-16-le", errors="surrogatepass")
    if len(text) == count:
        return text
    get_unicode = pdfium_c.FPDFText_GetUnicode
    return "".join(chr(get_unicode(raw, k)) for k in range(count))


def _read_fragments(raw: Any) -> list[_Fragment]:
    """Cut the page's characters into word fragments and box each from pdfium's loose boxes.

    Loose boxes span the font's ascent to descent, so the words of a line share one height and a
    highlight covers descenders (tight boxes are used only when a font's metrics are absurd).
    A word's box is the union of its first and last characters' boxes: characters advance along
    the baseline, and asking pdfium twice per word rather than once per character is what keeps
    parsing fast.
    """
    chars = _page_chars(raw)
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    rect = pdfium_c.FS_RECTF()
    fragments: list[_Fragment] = []
    previous_end = 0
    hyphen_pending = False  # the last fragment ended in a line-end hyphen: is the word split?
    for match in _FRAGMENT.finditer(chars):
        start, end = match.span()
        gap = chars[previous_end:start]
        previous_end = end
        if hyphen_pending:
            hyphen_pending = False
            last = fragments[-1]
            if gap:  # "pre- and": the hyphen ends the word
                last.text += "-"
                last.glued_to_next = False
            elif chars[start].isupper() or chars[start].isdigit():
                last.text += "-"  # "Two-|Column" keeps its hyphen, "reten-|tion" loses it
        if get_box(raw, start, rect):
            x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
            if end - start > 1 and get_box(raw, end - 1, rect):
                x0, y0 = min(x0, rect.left), min(y0, rect.bottom)
                x1, y1 = max(x1, rect.right), max(y1, rect.top)
        elif end - start > 1 and get_box(raw, end - 1, rect):
            x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
        else:
            continue  # pdfium knows no position for this text
        hyphenated = chars[end - 1] in _HYPHEN_MARKERS
        text = match.group()
        if hyphenated:
            text = text[:-1]
            hyphen_pending = True
        fragments.append(
            _Fragment(
                text=text.translate(_DROP),
                x0=x0,
                y0=y0,
                x1=x1,
                y1=y1,
                first_char=start,
                last_char=end - 1,
                line_break_before=bool(gap) and _LINE_BREAK.search(gap) is not None,
                glued_to_next=hyphenated,
            )
        )
    if hyphen_pending:
        fragments[-1].text += "-"
        fragments[-1].glued_to_next = False
    get_angle = pdfium_c.FPDFText_GetCharAngle
    for fragment in fragments:
        if fragment.y1 - fragment.y0 > _SUSPECT_HEIGHT:
            _fix_absurd_box(raw, fragment)
        radians = get_angle(raw, fragment.first_char)  # clockwise as seen, despite PDF's y-up
        if radians > 0:  # -1 is an error, 0 the usual upright text
            fragment.angle = round(math.degrees(radians) / 90) % 4 * 90
    return fragments


def _fix_absurd_box(raw: Any, fragment: _Fragment) -> None:
    font_size = float(pdfium_c.FPDFText_GetFontSize(raw, fragment.first_char))
    if font_size <= 0 or fragment.y1 - fragment.y0 <= 3 * font_size:
        return
    # Broken font metrics (an ascent of thousands of units): use the glyphs' tight boxes.
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    boxes = [
        (left.value, bottom.value, right.value, top.value)
        for k in range(fragment.first_char, fragment.last_char + 1)
        if pdfium_c.FPDFText_GetCharBox(raw, k, left, right, bottom, top)
    ]
    if boxes:
        fragment.x0 = min(b[0] for b in boxes)
        fragment.y0 = min(b[1] for b in boxes)
        fragment.x1 = max(b[2] for b in boxes)
        fragment.y1 = max(b[3] for b in boxes)


class _PageTransform:
    """PDF user space -> the displayed page: crop offset, /Rotate (clockwise), top-left origin.

    Matches FPDF_PageToDevice for rotations 0/90/180/270, without its rounding to integers.
    """

    def __init__(self, bbox: tuple[float, ...], rotation: int, width: float, height: float) -> None:
        self.left, self.bottom, self.right, self.top = bbox
        self.rotation = rotation
        self.width = width
        self.height = height

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) in user space -> (x0, y0, x1, y1) on the displayed page."""
        left, bottom, right, top = self.left, self.bottom, self.right, self.top
        if self.rotation == 90:  # the page's left edge is drawn at the top
            return y0 - bottom, x0 - left, y1 - bottom, x1 - left
        if self.rotation == 180:
            return right - x1, y0 - bottom, right - x0, y1 - bottom
        if self.rotation == 270:  # the page's right edge is drawn at the top
            return top - y1, right - x1, top - y0, right - x0
        return x0 - left, top - y1, x1 - left, top - y0


@dataclass(slots=True)
class _Placed:
    """A fragment with its final text and its box on the displayed page."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    line_break_before: bool
    glued_to_next: bool
    source_index: int
    # The box turned so the text reads left to right with lines going down: where lines and
    # paragraphs are found, whichever way the page or the text is rotated.
    rx0: float
    ry0: float
    rx1: float
    ry1: float


# A gap between lines above this share of the line height is a paragraph break (typical leading
# leaves ~0.2); a line height change above this share is a new block such as a heading.
_PARAGRAPH_GAP = 0.4
_HEIGHT_CHANGE = 0.2
# Words overlapping vertically by at least this share of the smaller height share a line.
_SAME_LINE_OVERLAP = 0.5


def _assemble_page(
    number: int,
    width: float,
    height: float,
    rotation: int,
    fragments: list[_Fragment],
    to_page: _PageTransform,
) -> ParsedPage:
    placed = _place(fragments, to_page)
    line_groups = _group_lines(placed)
    parts: list[str] = []
    offset = 0
    words: list[Word] = []
    lines: list[Line] = []
    previous: _Placed | None = None
    for line_index, group in enumerate(line_groups):
        if previous is not None:
            if _continues(previous, group[0]):
                separator = ""  # a hyphenated word goes on on this line
            elif _paragraph_break(line_groups[line_index - 1], group):
                separator = "\n\n"
            else:
                separator = "\n"
            parts.append(separator)
            offset += len(separator)
        line_start = offset
        first_word = len(words)
        lx0, ly0, lx1, ly1 = group[0].x0, group[0].y0, group[0].x1, group[0].y1
        for item in group:
            if previous is not None and offset > line_start and not _continues(previous, item):
                parts.append(" ")
                offset += 1
            parts.append(item.text)
            end = offset + len(item.text)
            box = _box(number, item.x0, item.y0, item.x1, item.y1, width, height)
            words.append(Word(item.text, offset, end, box, line_index))
            offset = end
            previous = item
            lx0, ly0 = min(lx0, item.x0), min(ly0, item.y0)
            lx1, ly1 = max(lx1, item.x1), max(ly1, item.y1)
        line_box = _box(number, lx0, ly0, lx1, ly1, width, height)
        lines.append(Line(line_start, offset, line_box, first_word, len(group)))
    return ParsedPage(
        number=number,
        width=width,
        height=height,
        rotation=rotation,
        text="".join(parts),
        words=tuple(words),
        lines=tuple(lines),
    )


def _box(page: int, x0: float, y0: float, x1: float, y1: float, width: float, height: float) -> Box:
    # Two decimals (1/7200 inch) is finer than any viewer draws and keeps state payloads small.
    return Box(
        page=page,
        x0=round(x0, 2),
        y0=round(y0, 2),
        x1=round(x1, 2),
        y1=round(y1, 2),
        page_width=width,
        page_height=height,
    )


def _continues(previous: _Placed, item: _Placed) -> bool:
    """Is `item` the rest of a word hyphenated across a line break?"""
    return previous.glued_to_next and item.source_index == previous.source_index + 1


def _place(fragments: list[_Fragment], to_page: _PageTransform) -> list[_Placed]:
    """Normalise each fragment's text and move its box onto the displayed page.

    Text outside the visible page (off the crop box) is dropped: the reader never sees it, so it
    must not be quoted, and its box could not be drawn.
    """
    placed: list[_Placed] = []
    width, height = to_page.width, to_page.height
    to_reading = _ReadingFrame(_text_direction(fragments, to_page.rotation), width, height)
    pending_break = False
    for index, fragment in enumerate(fragments):
        # NFKC folds ligatures (U+FB01 -> "fi"), full-width and presentation forms, so the
        # indexed text matches what people type.
        text = fragment.text
        if not text.isascii():
            text = "".join(unicodedata.normalize("NFKC", text).split())
        x0, y0, x1, y1 = to_page.rect(fragment.x0, fragment.y0, fragment.x1, fragment.y1)
        visible = x0 < width and x1 > 0 and y0 < height and y1 > 0
        if not text or not visible:
            pending_break = pending_break or fragment.line_break_before
            continue
        x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, width), min(y1, height)
        placed.append(
            _Placed(
                text,
                x0,
                y0,
                x1,
                y1,
                fragment.line_break_before or pending_break,
                fragment.glued_to_next,
                index,
                *to_reading.rect(x0, y0, x1, y1),
            )
        )
        pending_break = False
    return placed


def _text_direction(fragments: list[_Fragment], page_rotation: int) -> int:
    """The way most text on the displayed page runs, in degrees clockwise from left-to-right.

    A page turned by /Rotate turns its text with it, unless the text was drawn counter-rotated
    (as landscape pages often are) so that it reads upright on screen.
    """
    if not fragments:
        return 0
    votes = Counter((page_rotation + fragment.angle) % 360 for fragment in fragments)
    return votes.most_common(1)[0][0]


class _ReadingFrame:
    """Displayed-page boxes -> boxes in which the text reads left to right, lines going down."""

    def __init__(self, direction: int, width: float, height: float) -> None:
        self.direction = direction
        self.width = width
        self.height = height

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        width, height = self.width, self.height
        if self.direction == 90:  # text runs down the page, lines go right to left
            return y0, width - x1, y1, width - x0
        if self.direction == 180:  # upside down
            return width - x1, height - y1, width - x0, height - y0
        if self.direction == 270:  # text runs up the page, lines go left to right
            return height - y1, x0, height - y0, x1
        return x0, y0, x1, y1


def _group_lines(placed: list[_Placed]) -> list[list[_Placed]]:
    """Split the words into lines where pdfium broke the line or the baseline moved."""
    lines: list[list[_Placed]] = []
    for item in placed:
        if lines and not item.line_break_before and _same_line(lines[-1][-1], item):
            lines[-1].append(item)
        else:
            lines.append([item])
    return lines


def _same_line(a: _Placed, b: _Placed) -> bool:
    overlap = min(a.ry1, b.ry1) - max(a.ry0, b.ry0)
    smaller = min(a.ry1 - a.ry0, b.ry1 - b.ry0)
    return overlap > 0 and overlap >= _SAME_LINE_OVERLAP * smaller


def _paragraph_break(above: list[_Placed], below: list[_Placed]) -> bool:
    """Does a new block (paragraph, heading, header, footer) start between these lines?"""
    above_height = statistics.median(w.ry1 - w.ry0 for w in above)
    below_height = statistics.median(w.ry1 - w.ry0 for w in below)
    smaller = min(above_height, below_height)
    larger = max(above_height, below_height)
    if larger <= 0:
        return False
    if larger - smaller > _HEIGHT_CHANGE * larger:
        return True  # the font size changed: a heading, a caption, a footer
    gap = min(w.ry0 for w in below) - max(w.ry1 for w in above)
    if gap < -larger:
        # The text jumped up. Into the next column, to the right, a sentence may go on; back
        # to the left margin (from a footer to the body, say) it is a new block.
        return min(w.rx0 for w in below) < max(w.rx1 for w in above) - larger
    return gap > _PARAGRAPH_GAP * smaller
