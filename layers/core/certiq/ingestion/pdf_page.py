"""Reading one PDF page with pdfium: its lines, words and sentences, each with the boxes it is
drawn in (see certiq.ingestion.pdf). Here the page is loaded, its images measured and rendered,
and its text assembled into sentences; certiq.ingestion.pdf_text_page reads its lines and boxes.
"""

from __future__ import annotations

import bisect
import ctypes
import math
from typing import TYPE_CHECKING, Any

import pypdfium2  # noqa: F401  (importing it initialises the pdfium library)
import pypdfium2.raw as pdfium_c

from certiq.errors import IngestionError
from certiq.ingestion.form_fields import FieldLine, FormReader
from certiq.ingestion.furniture import (
    Furniture,
    LineSample,
    PageSample,
)
from certiq.ingestion.pdf_lines import (
    _WORD,
    ParsedPage,
    SentenceSpan,
    Word,
    _paragraph_break,
    _RawLine,
    _transform,
)
from certiq.ingestion.pdf_text_page import _TextPage
from certiq.ingestion.table_text import in_reading_order, whole_rows
from certiq.ingestion.tables import Table, find_tables
from certiq.models import Box
from certiq.sentences import sentence_spans

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# 40 megapixels: an A4 page at 300 dpi is 8.7, A3 17, A0 140.
_MAX_RENDER_PIXELS = 40_000_000


class PageUnreadable(IngestionError):
    """One page pdfium cannot load; the others may still be read."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"not a readable PDF: page {number} {reason}")
        self.number = number
        self.reason = reason


def uncrop_if_empty(page: Any) -> bool:
    """Shows the whole MediaBox of a page whose CropBox misses it (an empty visible area would
    hide all of its text); True when it did. Every reader of the page must call it alike."""
    if pdfium_c.FPDF_GetPageWidthF(page) > 0 and pdfium_c.FPDF_GetPageHeightF(page) > 0:
        return False
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium_c.FPDFPage_GetMediaBox(page, left, bottom, right, top):
        return False
    if right.value - left.value <= 0 or top.value - bottom.value <= 0:
        return False
    pdfium_c.FPDFPage_SetCropBox(page, left.value, bottom.value, right.value, top.value)
    return True


class _PageReader(_TextPage):
    """One open page and its text page: lines first, then text, sentences and their boxes."""

    def __init__(self, document: Any, number: int) -> None:
        self.number = number
        self._page = pdfium_c.FPDF_LoadPage(document, number - 1)
        if not self._page:
            raise PageUnreadable(number, "cannot be loaded")
        self._text: Any = None
        try:
            page = self._page
            uncrop_if_empty(page)
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

    # -- images -----------------------------------------------------------------------------

    def image_share(self) -> float:
        """The share of the page's area that images cover (0..1): near 1 on a scanned page."""
        area = self.width * self.height
        if area <= 0:
            return 0.0
        covered = 0.0
        objects = [
            pdfium_c.FPDFPage_GetObject(self._page, k)
            for k in range(pdfium_c.FPDFPage_CountObjects(self._page))
        ]
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        while objects:
            obj = objects.pop()
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_FORM:  # scanners often wrap the image in a form
                objects.extend(
                    pdfium_c.FPDFFormObj_GetObject(obj, k)
                    for k in range(pdfium_c.FPDFFormObj_CountObjects(obj))
                )
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE and pdfium_c.FPDFPageObj_GetBounds(
                obj, left, bottom, right, top
            ):
                covered += max(right.value - left.value, 0.0) * max(top.value - bottom.value, 0.0)
        return min(covered / area, 1.0)

    def render_gray(self, dpi: int) -> NDArray[np.uint8]:
        """The page as displayed, rendered at `dpi` into 8-bit grayscale (for OCR).

        The resolution is lowered for very large pages so that no image exceeds
        _MAX_RENDER_PIXELS (a poster at 300 dpi would take gigabytes).
        """
        import numpy as np

        scale = dpi / 72
        pixels = self.width * self.height * scale * scale
        if pixels > _MAX_RENDER_PIXELS:
            scale *= math.sqrt(_MAX_RENDER_PIXELS / pixels)
        width = max(1, round(self.width * scale))
        height = max(1, round(self.height * scale))
        bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_Gray, None, 0)
        if not bitmap:
            raise MemoryError(f"pdfium cannot allocate a {width}x{height} bitmap")
        try:
            pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
            flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_GRAYSCALE
            pdfium_c.FPDF_RenderPageBitmap(bitmap, self._page, 0, 0, width, height, 0, flags)
            stride = int(pdfium_c.FPDFBitmap_GetStride(bitmap))
            buffer = ctypes.cast(
                pdfium_c.FPDFBitmap_GetBuffer(bitmap), ctypes.POINTER(ctypes.c_uint8)
            )
            return np.ctypeslib.as_array(buffer, shape=(height, stride))[:, :width].copy()
        finally:
            pdfium_c.FPDFBitmap_Destroy(bitmap)

    def form_lines(self, forms: FormReader) -> list[FieldLine]:
        """The page's filled form fields, as lines (certiq.ingestion.form_fields), each labelled
        by the text printed just left of it on its line when there is some."""
        printed = [(line.text, (line.x0, line.y0, line.x1, line.y1)) for line in self.lines]
        return forms.lines(self._page, self._to_page, printed)

    def sample(self) -> PageSample:
        return PageSample(
            height=self.height,
            lines=tuple(LineSample(line.text, line.y0, line.y1) for line in self.lines),
        )

    # -- page -------------------------------------------------------------------------------

    def parse(
        self,
        furniture: Furniture | None,
        max_sentence_chars: int | None,
        words: bool,
        continuing: Table | None = None,
    ) -> ParsedPage:
        """The page's lines, text, sentences (a table's rows whole, with their cells) and, with
        `words`, its words; `continuing`: the previous page's table when it ran to its foot."""
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
        layouts = [self._layout(line) for line in lines]
        tables = find_tables(layouts, continuing) if count > 1 else []
        if tables:
            lines, tables = in_reading_order(lines, tables)
        # A table's header and each of its rows is a block of its own: a passage to cite.
        block_starts = {
            block[0]
            for table in tables
            for block in (table.header_lines, *(row_lines for row_lines, _ in table.rows))
            if block
        }
        block_starts.update(table.lines[-1] + 1 for table in tables)
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
                elif index + 1 in block_starts or _paragraph_break(line, following, self.turned):
                    separator = "\n\n"
                else:
                    separator = "\n"
                parts.append(separator)
                offset += len(separator)
        page_text = "".join(parts)
        sentences: list[SentenceSpan] = []
        if lines:
            piece_box, line_box = self._piece_box, self._line_box
            spans = sentence_spans(page_text, starts, max_sentence_chars)
            cells: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {}
            if tables:
                spans, cells = whole_rows(spans, tables, starts, ends)
            for start, end in spans:
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
                    SentenceSpan(
                        start,
                        end,
                        page_text[start:end].replace("\n", " "),
                        tuple(boxes),
                        cells.get((start, end)),
                    )
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
            tables=tuple(tables),
        )
