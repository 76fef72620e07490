"""Reading one PDF page with pdfium: its lines, words and sentences, each with the boxes it is
drawn in (see certiq.ingestion.pdf)."""

from __future__ import annotations

import bisect
import ctypes
import math
import re
from collections import Counter
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
    _HYPHEN_MARKERS,
    _LINE,
    _SUSPECT_HEIGHT,
    _WORD,
    ParsedPage,
    Rect,
    SentenceSpan,
    Word,
    _box,
    _normalise,
    _paragraph_break,
    _RawLine,
    _reading_rect,
    _text_buffer,
    _transform,
    _union,
)
from certiq.ingestion.sentences import sentence_spans
from certiq.ingestion.table_text import in_reading_order, whole_rows
from certiq.ingestion.tables import LineLayout, Table, find_tables
from certiq.models import Box

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# A font weight at or above this is bold (400 is regular, 700 bold); fonts that give no weight
# say it in their name.
_BOLD = 600
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|cmbx", re.IGNORECASE)
_FONT_NAME_BYTES = 128

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


class _PageReader:
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

    def _layout(self, line: _RawLine) -> LineLayout | None:
        """The line's words and their left and right edges, for finding tables; None on a turned
        page or for text that does not run left to right, where no table is looked for."""
        if self.turned or line.direction != 0 or line.first is None:
            return None
        bold = self._bold(line.char_at(0))  # the first character's stands for the line's
        loose = self._loose
        words: list[tuple[int, int, float, float]] = []
        for match in _WORD.finditer(line.text):
            start, end = match.span()
            first = line.first if start == 0 else loose(line.char_at(start))
            last = loose(line.char_at(end - 1))
            if first is None or last is None:
                return None
            words.append((start, end, first[0], last[2]))
        return LineLayout(line.text, tuple(words), line.y0, line.y1, bold)

    def _bold(self, index: int) -> bool:
        """Is the character set in bold: by its font's weight, or, where the font gives none (the
        standard 14 fonts give 0), by its name ("Helvetica-Bold", "Arial-BoldMT", "CMBX10")?"""
        if pdfium_c.FPDFText_GetFontWeight(self._text, index) >= _BOLD:
            return True
        name = ctypes.create_string_buffer(_FONT_NAME_BYTES)
        flags = ctypes.c_int()
        pdfium_c.FPDFText_GetFontInfo(
            self._text, index, name, _FONT_NAME_BYTES, ctypes.byref(flags)
        )
        return _BOLD_NAME.search(name.value.decode("latin-1")) is not None

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
