"""The pieces a PDF page is read into (words, lines, sentences, boxes) and the line and text
helpers of certiq.ingestion.pdf_page; see certiq.ingestion.pdf for how they fit together."""

from __future__ import annotations

import ctypes
import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from certiq.ingestion.construct import constructor
from certiq.ingestion.tables import Table
from certiq.models import Box


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
    # A table's row: (column label, cell) for each column ("" for a table with no header).
    cells: tuple[tuple[str, str], ...] | None = None


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
    # Read by OCR (the text layer was missing or garbage): the mean confidence of its words.
    ocr_confidence: float | None = None
    # The tables found on it, their line numbers those of `line_spans` (text layers only).
    tables: tuple[Table, ...] = ()

    @property
    def lines(self) -> tuple[Line, ...]:
        """The page's lines, in reading order (built on each access: chunking needs none)."""
        return tuple(
            Line(start, end, _box(self.number, self.width, self.height, x0, y0, x1, y1))
            for start, end, x0, y0, x1, y1 in self.line_spans
        )


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

# A gap between lines above this share of the line height is a paragraph break (typical leading
# leaves ~0.2); a line height change above this share is a new block such as a heading.
_PARAGRAPH_GAP = 0.4

_HEIGHT_CHANGE = 0.2

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 on the displayed page


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
