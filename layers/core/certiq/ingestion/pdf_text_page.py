"""Where a PDF page's text is drawn, read from pdfium's text page: its lines with their boxes,
the direction its text runs, and the boxes of pieces of lines (sentences, words) and of the
words a table is looked for in. Part of the page reader (certiq.ingestion.pdf_page), which
loads the page and assembles its text; see certiq.ingestion.pdf for how they fit together."""

from __future__ import annotations

import ctypes
import math
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pypdfium2  # noqa: F401  (importing it initialises the pdfium library)
import pypdfium2.raw as pdfium_c

from certiq.ingestion.pdf_lines import (
    _HYPHEN_MARKERS,
    _LINE,
    _SUSPECT_HEIGHT,
    _WORD,
    Rect,
    _box,
    _normalise,
    _RawLine,
    _reading_rect,
    _text_buffer,
    _union,
)
from certiq.ingestion.tables import LineLayout
from certiq.models import Box

# A font weight at or above this is bold (400 is regular, 700 bold); fonts that give no weight
# say it in their name.
_BOLD = 600
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|cmbx", re.IGNORECASE)
_FONT_NAME_BYTES = 128


class _TextPage:
    """The text of one open page, as pdfium draws it: lines first, then the boxes of their
    pieces. The page reader (certiq.ingestion.pdf_page._PageReader) opens the page and sets
    what is declared here."""

    number: int
    width: float
    height: float
    rotation: int  # degrees clockwise, as the page is displayed
    turned: bool  # the page's text does not read left to right as displayed
    _text: Any  # pdfium's text page
    _rect: Any  # a FS_RECTF reused for every box asked of pdfium
    _doubles: tuple[ctypes.c_double, ...]  # four, reused likewise
    _to_page: Callable[[float, float, float, float], Rect]  # user space -> displayed page
    _origin: tuple[float, float]  # user-space left and top of the visible page
    _plain: bool  # unrotated: the transform is a shift and a flip

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

    # -- boxes ------------------------------------------------------------------------------

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
