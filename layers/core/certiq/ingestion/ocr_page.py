"""A page read by OCR, as a ParsedPage: the same lines, sentences, words and boxes as a page
read from its text layer, so chunks, citations, quotes and highlights work unchanged.

The engine (certiq.ports.OcrEngine) gives words boxed in fractions of the displayed page; here
they become lines (the engine's own grouping), page text (a blank line between paragraphs,
words hyphenated across lines joined), sentences boxed one box per line they cover, and the
page's confidence: the mean of its words'.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from certiq.ingestion.furniture import Furniture
from certiq.ingestion.pdf_lines import ParsedPage, SentenceSpan, Word, _box
from certiq.models import Box
from certiq.ports import OcrWord
from certiq.sentences import sentence_spans

# A line ending in one of these, before a line of the same paragraph starting in lower case,
# ends the first part of a hyphenated word.
_HYPHENS = "-\u2010\u00ad"

# A change of type size over this share starts a new block: a heading (as on text-layer pages,
# certiq.ingestion.pdf_lines). OCR boxes are tight around the letters, so the size is read from
# words whose letters reach the ascender line and not below the baseline.
_HEIGHT_CHANGE = 0.2

_ASCENDING = re.compile(r"[A-Zbdfhklt0-9]")
_DESCENDING = re.compile(r"[gjpqy(){}\[\]|/,;Q]")


@dataclass(frozen=True, slots=True)
class _PlacedWord:
    text: str
    x0: float  # points on the displayed page, rounded as text-layer boxes are
    y0: float
    x1: float
    y1: float
    confidence: float


@dataclass(slots=True)
class _OcrLine:
    paragraph: int
    words: list[_PlacedWord]

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return (
            min(word.x0 for word in self.words),
            min(word.y0 for word in self.words),
            max(word.x1 for word in self.words),
            max(word.y1 for word in self.words),
        )

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)


def page_from_words(
    number: int,
    width: float,
    height: float,
    rotation: int,
    words: Sequence[OcrWord],
    *,
    min_confidence: float,
    furniture: Furniture | None = None,
    max_sentence_chars: int | None = None,
    keep_words: bool = False,
) -> ParsedPage | None:
    """The page built from OCR words, or None when no word is confident enough to keep.

    Running headers and footers found on the document's text pages are dropped here too.
    """
    lines = _lines(words, width, height, min_confidence)
    if furniture is not None and furniture.lines:
        top, bottom = furniture.bands(height)
        lines = [
            line
            for line in lines
            if (line.rect[3] > top and line.rect[1] < bottom)
            or not furniture.drops(line.text, line.rect[1], line.rect[3], height)
        ]
    if not lines:
        return None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    word_spans: list[list[tuple[int, int]]] = []  # per line, each word's [start, end)
    offset = 0
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else None
        joined = (
            following is not None
            and following.paragraph == line.paragraph
            and _ends_hyphenated(line.words[-1].text)
            and following.words[0].text[:1].islower()
        )
        starts.append(offset)
        spans: list[tuple[int, int]] = []
        for position, word in enumerate(line.words):
            if position:
                parts.append(" ")
                offset += 1
            text = word.text[:-1] if joined and position == len(line.words) - 1 else word.text
            parts.append(text)
            spans.append((offset, offset + len(text)))
            offset += len(text)
        ends.append(offset)
        word_spans.append(spans)
        if following is not None:
            separator = "" if joined else "\n" if following.paragraph == line.paragraph else "\n\n"
            parts.append(separator)
            offset += len(separator)
    page_text = "".join(parts)

    def line_box(index: int) -> Box:
        x0, y0, x1, y1 = lines[index].rect
        return _box(number, width, height, x0, y0, x1, y1)

    def piece_box(index: int, low: int, high: int) -> Box:
        covered = [
            word
            for word, (start, end) in zip(lines[index].words, word_spans[index], strict=True)
            if start < high and end > low
        ]
        if not covered:
            return line_box(index)
        return _box(
            number,
            width,
            height,
            min(word.x0 for word in covered),
            min(word.y0 for word in covered),
            max(word.x1 for word in covered),
            max(word.y1 for word in covered),
        )

    sentences: list[SentenceSpan] = []
    for start, end in sentence_spans(page_text, starts, max_sentence_chars):
        index = bisect.bisect_right(starts, start) - 1
        boxes: list[Box] = []
        while index < len(lines) and starts[index] < end:
            low, high = max(start, starts[index]), min(end, ends[index])
            if low < high:
                whole = low == starts[index] and high == ends[index]
                boxes.append(line_box(index) if whole else piece_box(index, low, high))
            index += 1
        sentences.append(
            SentenceSpan(start, end, page_text[start:end].replace("\n", " "), tuple(boxes))
        )
    found_words: tuple[Word, ...] = ()
    if keep_words:
        found_words = tuple(
            Word(
                page_text[start:end],
                start,
                end,
                _box(number, width, height, word.x0, word.y0, word.x1, word.y1),
                index,
            )
            for index, line in enumerate(lines)
            for word, (start, end) in zip(line.words, word_spans[index], strict=True)
        )
    kept = [word for line in lines for word in line.words]
    confidence = sum(word.confidence for word in kept) / len(kept)
    return ParsedPage(
        number=number,
        width=width,
        height=height,
        rotation=rotation,
        text=page_text,
        line_spans=tuple(
            (start, end, *line.rect) for start, end, line in zip(starts, ends, lines, strict=True)
        ),
        sentences=tuple(sentences),
        words=found_words,
        ocr_confidence=round(confidence, 3),
    )


def _lines(
    words: Sequence[OcrWord], width: float, height: float, min_confidence: float
) -> list[_OcrLine]:
    """The confident words, grouped into the engine's lines, in its reading order."""
    lines: dict[int, _OcrLine] = {}
    for word in words:
        if word.confidence < min_confidence:
            continue
        text = _clean(word.text)
        if not text:
            continue
        placed = _PlacedWord(
            text,
            _points(word.left, width),
            _points(word.top, height),
            _points(word.right, width),
            _points(word.bottom, height),
            word.confidence,
        )
        if placed.x1 <= placed.x0 or placed.y1 <= placed.y0:
            continue  # a box with no area cannot be pointed at
        line = lines.get(word.line)
        if line is None:
            lines[word.line] = _OcrLine(word.paragraph, [placed])
        else:
            line.words.append(placed)
    found = list(lines.values())
    _split_blocks(found)
    return found


def _split_blocks(lines: list[_OcrLine]) -> None:
    """Starts a new paragraph where the engine's grouping runs a heading into its text: at a
    change of type size (engines group by layout, not by size)."""
    engine = [line.paragraph for line in lines]
    heights = [_height(line) for line in lines]
    paragraph = 0
    for index, line in enumerate(lines):
        if index and (
            engine[index] != engine[index - 1]
            or abs(heights[index] - heights[index - 1])
            > _HEIGHT_CHANGE * max(heights[index], heights[index - 1])
        ):
            paragraph += 1
        line.paragraph = paragraph


def _height(line: _OcrLine) -> float:
    """The line's type size, as the height of its words that reach from the baseline to the
    ascender line (a capital or b, d, f, h, k, l, t) and not below it (no g, j, p, q, y, no
    brackets): the same for every line set in one size, whatever the letters."""
    sized = [
        word.y1 - word.y0
        for word in line.words
        if _ASCENDING.search(word.text) and not _DESCENDING.search(word.text)
    ]
    if not sized:
        return max(word.y1 - word.y0 for word in line.words)
    sized.sort()
    return sized[len(sized) // 2]


def _clean(text: str) -> str:
    """NFKC (as text layers are folded), no control characters, no inner whitespace."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(
        char for char in folded if not char.isspace() and unicodedata.category(char) != "Cc"
    )


def _points(fraction: float, size: float) -> float:
    """A fraction of the page's width or height in points, inside the page, two decimals."""
    return min(max(int(fraction * size * 100 + 0.5) / 100, 0.0), size)


def _ends_hyphenated(text: str) -> bool:
    return len(text) > 2 and text[-1] in _HYPHENS and text[-2].isalpha()
