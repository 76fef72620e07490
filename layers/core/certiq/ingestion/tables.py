"""Tables found in a page's line geometry: which lines are a table's rows, and what each cell is.

A PDF has no tables, only words placed on lines. A table shows as lines whose words fall into
columns: wide gaps (twice the line's height or more, where prose leaves a third of it between
words) that line up from one line to the next. Without this, a table's rows run together into
one long "sentence" ("Austria 8.9 83,879 Vienna German Belgium 11.5 ...") that answers nothing
and highlights the whole table; with it, each row is a passage of its own, its box is the row,
and its cells are named by the table's header ("Capital: Helsinki").

Lines come in the order the PDF draws them, which in a table is often cell by cell: a cell that
wraps onto a second line comes before the next cell of its row, higher up. So rows are found by
position, not order, and each row's lines are put together, cell by cell.

Only what reads as a table becomes one: two rows or more of two cells or more, in columns that
most lines keep apart; a run of lines where most rows start in lower case is prose set in
columns, not a table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["LineLayout", "Table", "find_tables", "in_reading_order", "whole_rows"]

# A gap between words of this many line heights or more separates two cells.
CELL_GAP = 2.0
# The next line of a table starts within this many line heights below the lines above it.
ROW_GAP = 1.5
# Lines of one table differ in height by this share at most.
HEIGHT_CHANGE = 0.25
# A line of one cell this wide (a share of the table's width) is prose: the table has ended.
PROSE_WIDTH = 0.6
# A column gap may be crossed by this share of the table's lines (a header cell centred over
# two columns, a long cell); more, and it is no gap.
CROSSING_SHARE = 0.25
# The header's lines above a table that it does not hold, at most.
MAX_HEADER_LINES = 3
# A caption ("Table 1: ...", "Figure 2.") names a table; it is not its header.
_CAPTION = re.compile(r"(?:table|tab\.|figure|fig\.|exhibit|schedule)\s*[0-9ivxA-Z]", re.IGNORECASE)
_SENTENCE_END = (".", "!", "?")
_Line = TypeVar("_Line")
# A list item's label, set apart from its text by a tab: "4.1", "(b)", "iv.", a bullet.
_LIST_LABEL = re.compile(
    r"\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivxlc]{1,5})[.)]?|[•◦▪▫‣∙●○■□►▶➢✓✔*–-]",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"(?<![\w.])\d")
# No space before a closing mark in a header label built from words on two lines: "(km2 )".
_SPACE_BEFORE_CLOSER = re.compile(r"\s+([)\]},.;:])")


@dataclass(frozen=True, slots=True)
class LineLayout:
    """A line's words: (start, end) in the line's text and their left and right edges."""

    text: str
    words: tuple[tuple[int, int, float, float], ...]
    y0: float
    y1: float
    bold: bool = False

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True, slots=True)
class Table:
    """A table: its lines in the order to read them (a contiguous run of the page's lines, put
    row by row), the header's lines (none when no header was found), its column labels ("" where
    there is no header), and each row's lines and cells ("" where a row leaves a column empty).
    """

    lines: tuple[int, ...]
    header_lines: tuple[int, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]


@dataclass(slots=True)
class _Row:
    lines: list[int]
    cells: list[list[str]]
    top: float


def find_tables(lines: Sequence[LineLayout | None]) -> list[Table]:
    """The tables among a page's lines, in the order the lines come (None: a line with no usable
    geometry, such as turned text, which no table holds)."""
    tables: list[Table] = []
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        if line is None or len(_cells(line)) < 2:
            index += 1
            continue
        end = _region_end(lines, index)
        table = _table(lines, index, end)
        if table is None:
            index += 1
            continue
        tables.append(table)
        index = end
    return tables


def _cells(line: LineLayout) -> list[tuple[int, int, float, float]]:
    """The line's words grouped at wide gaps: (first word, last word + 1, left, right)."""
    words = line.words
    if not words:
        return []
    gap = CELL_GAP * line.height
    cells: list[tuple[int, int, float, float]] = []
    first = 0
    for position in range(1, len(words)):
        if words[position][2] - words[position - 1][3] >= gap:
            cells.append((first, position, words[first][2], words[position - 1][3]))
            first = position
    cells.append((first, len(words), words[first][2], words[-1][3]))
    return cells


def _region_end(lines: Sequence[LineLayout | None], start: int) -> int:
    """One past the last line of the block that starts at `start`: lines of the same height,
    none far above or below the others, up to a line of prose across the block."""
    first = lines[start]
    assert first is not None
    top, bottom = first.y0, first.y1
    left, right = first.words[0][2], first.words[-1][3]
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if line is None or not line.words:
            break
        height = max(first.height, line.height)
        if abs(first.height - line.height) > HEIGHT_CHANGE * height:
            break
        if line.y0 < top - 0.5 * height or line.y0 > bottom + ROW_GAP * height:
            break
        cells = _cells(line)
        line_left, line_right = line.words[0][2], line.words[-1][3]
        span = max(right, line_right) - min(left, line_left)
        if len(cells) == 1 and line_right - line_left >= PROSE_WIDTH * span:
            break
        top, bottom = min(top, line.y0), max(bottom, line.y1)
        left, right = min(left, line_left), max(right, line_right)
        end += 1
    return end


def _gaps(layouts: Sequence[LineLayout]) -> list[tuple[float, float]]:
    """The column gaps: stretches across the lines, a line height wide or more, that no more than
    CROSSING_SHARE of the lines reach into, with text on both sides."""
    extents = [(left, right) for line in layouts for _, _, left, right in _cells(line)]
    allowed = int(CROSSING_SHARE * len(layouts))
    # Sweep the cells' edges left to right, counting how many cells cover each stretch.
    edges = sorted([(left, 1) for left, _ in extents] + [(right, -1) for _, right in extents])
    minimum = min(line.height for line in layouts)
    gaps: list[tuple[float, float]] = []
    covering = 0
    opened: float | None = None
    for position, step in edges:
        before = covering
        covering += step
        if before > allowed >= covering:
            opened = position
        elif covering > allowed >= before and opened is not None:
            if position - opened >= minimum:
                gaps.append((opened, position))
            opened = None
    return gaps


def _column_of(gaps: Sequence[tuple[float, float]], left: float, right: float) -> int:
    """The column (0 = left of the first gap) a cell or a word from left to right falls in, by
    its middle."""
    middle = (left + right) / 2
    return sum(1 for gap_left, gap_right in gaps if middle >= (gap_left + gap_right) / 2)


def _table(lines: Sequence[LineLayout | None], start: int, end: int) -> Table | None:
    region = list(range(start, end))
    layouts = {index: lines[index] for index in region}
    present = [layout for layout in layouts.values() if layout is not None]
    gaps = _gaps(present)
    if not gaps:
        return None
    width = len(gaps) + 1
    rows: list[_Row] = []
    for index in sorted(region, key=lambda i: (_layout(layouts, i).y0, i)):
        line = _layout(layouts, index)
        cells: list[list[str]] = [[] for _ in range(width)]
        for (word_start, word_end, _, _), column in zip(
            line.words, _word_columns(line, gaps), strict=True
        ):
            cells[column].append(line.text[word_start:word_end])
        owner = _owner(rows, cells, line)
        if owner is None:
            rows.append(_Row([index], cells, line.y0))
        else:
            owner.lines.append(index)
            for column, parts in enumerate(cells):
                owner.cells[column].extend(parts)
    while rows and _filled(rows[-1].cells) < 2:  # a note under the table, not a row of it
        rows.pop()
    if sum(1 for row in rows if _filled(row.cells) >= 2) < 2:
        return None
    openings = [next(part for parts in row.cells for part in parts) for row in rows]
    if 3 * sum(1 for opening in openings if opening[:1].islower()) > len(openings):
        return None  # most rows continue the line before: prose set in columns
    if width == 2 and _list_like(rows):
        return None
    for row in rows:  # cell by cell, each cell's lines top to bottom
        row.lines.sort(
            key=lambda i: (_first_column(gaps, _layout(layouts, i)), _layout(layouts, i).y0)
        )
    # Header words go to columns one by one: a header cell may be centred across a gap.
    header = (
        tuple(rows.pop(0).lines) if _heads(rows, layouts) else _header_above(lines, start, gaps)
    )
    labels: list[list[str]] = [[] for _ in range(width)]
    for index in sorted(header, key=lambda i: (_layout(lines, i).y0, i)):
        line = _layout(lines, index)
        for word_start, word_end, left, right in line.words:
            labels[_column_of(gaps, left, right)].append(line.text[word_start:word_end])
    taken = {index for row in rows for index in row.lines} | set(header)
    inside = [index for index in header if index >= start]  # a header above stays where it is
    order = [*inside, *(index for row in rows for index in row.lines)]
    order += [index for index in region if index not in taken]  # notes under it, as they came
    return Table(
        lines=tuple(order),
        header_lines=header,
        columns=tuple(_SPACE_BEFORE_CLOSER.sub(r"\1", " ".join(words)) for words in labels),
        rows=tuple(
            (tuple(row.lines), tuple(" ".join(parts) for parts in row.cells)) for row in rows
        ),
    )


def _layout(
    lines: Sequence[LineLayout | None] | dict[int, LineLayout | None], index: int
) -> LineLayout:
    line = lines[index]
    assert line is not None  # a table's lines all have geometry
    return line


def _owner(rows: Sequence[_Row], cells: Sequence[Sequence[str]], line: LineLayout) -> _Row | None:
    """The row a line belongs to, or None when it starts a row.

    A line with text in the first column starts a row, unless it only carries on the first
    column's text (lower case, after text that did not end a sentence); any other line belongs
    to the last row that started at or above it.
    """
    if not rows:
        return None
    last = rows[-1]
    if cells[0]:
        carries_on = (
            _filled(cells) == 1
            and bool(last.cells[0])
            and cells[0][0][:1].islower()
            and not last.cells[0][-1].endswith(_SENTENCE_END)
        )
        return last if carries_on else None
    for row in reversed(rows):
        if row.top <= line.y0 + 0.5 * line.height:
            return row
    return rows[0]


def _list_like(rows: Sequence[_Row]) -> bool:
    """Are two columns a list set with a tab: items after their numbers ("4.1  Passwords must
    ..."), or sentences after the term they define ("Personal data  Any information ...")? Each
    item is a statement a reader may be answered with, not a row of a table."""
    labelled = sum(1 for row in rows if _LIST_LABEL.fullmatch(" ".join(row.cells[0])))
    sentences = sum(
        1
        for row in rows
        if len(" ".join(row.cells[1]).split()) >= 4
        and " ".join(row.cells[1]).endswith(_SENTENCE_END)
    )
    return 2 * max(labelled, sentences) >= len(rows)


def _word_columns(line: LineLayout, gaps: Sequence[tuple[float, float]]) -> list[int]:
    """The column of each of a row's words.

    Word by word, not cell by cell: a cell that nearly fills its column leaves too narrow a gap
    to the next one for the line alone to show it ("Sales Operations Manager Every six months").
    A word close after another stays in that word's column unless it starts where a later
    column's text starts ("Manager" reaching into the gap stays; "Every" moves on); a word after
    a wide gap goes to the column under its middle (a figure set right of its column's start).
    """
    columns: list[int] = []
    close = CELL_GAP * line.height
    previous_right = None
    for _, _, left, right in line.words:
        if previous_right is not None and left - previous_right < close:
            starts_at = sum(1 for _, gap_right in gaps if left >= gap_right - 1.0)
            columns.append(max(columns[-1], starts_at))
        else:
            columns.append(_column_of(gaps, left, right))
        previous_right = right
    return columns


def _first_column(gaps: Sequence[tuple[float, float]], line: LineLayout) -> int:
    _, _, left, right = line.words[0]
    return _column_of(gaps, left, right)


def _filled(cells: Sequence[Sequence[str]]) -> int:
    return sum(1 for parts in cells if parts)


def _has_figure(cells: Sequence[Sequence[str]]) -> bool:
    """Does a cell hold a figure (a word starting with a digit: "8.9", "30 days", not "km2")?"""
    return any(_FIGURE.search(part) for parts in cells for part in parts)


def _heads(rows: Sequence[_Row], layouts: dict[int, LineLayout | None]) -> bool:
    """Is the first row the table's header: set in bold over rows that are not, or words over
    rows of figures ("Country Population ..." over "Austria 8.9 83,879 ...")?"""
    if len(rows) < 3:
        return False
    first, rest = rows[0], rows[1:]

    def bold(row: _Row) -> bool:
        return all(_layout(layouts, index).bold for index in row.lines)

    if bold(first) and not any(bold(row) for row in rest):
        return True
    if _has_figure(first.cells):
        return False
    with_figures = sum(1 for row in rest if _has_figure(row.cells))
    return with_figures >= 2 and 3 * with_figures >= 2 * len(rest)


def _header_above(
    lines: Sequence[LineLayout | None], start: int, gaps: Sequence[tuple[float, float]]
) -> tuple[int, ...]:
    """A header the table's block did not hold: the lines right above it whose words head two
    columns or more; never a caption nor a sentence."""
    taken: list[int] = []
    below = lines[start]
    index = start - 1
    while index >= 0 and len(taken) < MAX_HEADER_LINES and below is not None:
        line = lines[index]
        if line is None or not line.words:
            break
        gap = below.y0 - line.y1
        if not 0 <= gap <= ROW_GAP * max(line.height, below.height):
            break
        text = line.text.strip()
        if _CAPTION.match(text) or text.endswith(_SENTENCE_END):
            break
        if len({_column_of(gaps, left, right) for _, _, left, right in line.words}) < 2:
            break
        taken.append(index)
        below = line
        index -= 1
    return tuple(sorted(taken))


def in_reading_order(lines: list[_Line], tables: list[Table]) -> tuple[list[_Line], list[Table]]:
    """The page's lines with each table's put row by row (see certiq.ingestion.tables), and the
    tables with their line numbers in that order."""
    position: dict[int, int] = {}
    for table in tables:
        first = min(table.lines)
        for offset, index in enumerate(table.lines):
            position[index] = first + offset
    reordered = list(lines)
    for index, new in position.items():
        reordered[new] = lines[index]

    def moved(indices: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(position.get(index, index) for index in indices)

    return reordered, [
        Table(
            lines=moved(table.lines),
            header_lines=moved(table.header_lines),
            columns=table.columns,
            rows=tuple((moved(row_lines), cells) for row_lines, cells in table.rows),
        )
        for table in tables
    ]


def whole_rows(
    spans: list[tuple[int, int]],
    tables: list[Table],
    starts: list[int],
    ends: list[int],
) -> tuple[list[tuple[int, int]], dict[tuple[int, int], tuple[tuple[str, str], ...]]]:
    """Each table row as one span, whatever its punctuation, with its cells named by column.

    A row is a block of its own in the page's text, so no sentence runs across its ends; the
    sentences found inside one ("Kept 7 years. Then deleted.") give way to the whole row.
    """
    rows: dict[int, tuple[int, tuple[tuple[str, str], ...]]] = {}
    for table in tables:
        for row_lines, row_cells in table.rows:
            rows[starts[row_lines[0]]] = (
                ends[row_lines[-1]],
                tuple((label, cell) for label, cell in zip(table.columns, row_cells, strict=True)),
            )
    whole: list[tuple[int, int]] = []
    cells: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {}
    row_end = -1
    for start, end in spans:
        if start < row_end:
            continue  # inside the row just taken whole
        found = rows.get(start)
        if found is None:
            whole.append((start, end))
            continue
        row_end, named = found
        whole.append((start, row_end))
        cells[(start, row_end)] = named
    return whole, cells
