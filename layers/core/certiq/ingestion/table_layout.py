"""What finding and reading tables work on (see certiq.ingestion.tables): a line's layout, a
Table, a row being read, the tunables, and the geometry both use: a line's cells, the levels of
lines, the column gaps across them, and the column a word falls in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# A gap between words of this many line heights or more separates two cells.
CELL_GAP = 1.0
# The next line of a table starts within this many line heights below the lines above it.
ROW_GAP = 1.5
# Going up, the line before the block may be the last cell of the row above, drawn at that
# row's top: as many line heights above the block's top as a row of wrapped cells is tall,
# which may be most of a page.
ROW_REACH = 60.0
# Rows set apart by this many line heights or more (a cell's padding); a wrapped line follows
# the one above at its leading, closer.
ROW_SPACE = 0.4
# How many lines back the first cell of a row drawn cell by cell is looked for.
SIBLING_WINDOW = 100
# Lines of one table differ in height by this share at most.
HEIGHT_CHANGE = 0.25
# A column gap is this many line heights wide at least: wider than a space between words, as
# narrow as the padding of a cell whose text fills it.
GAP_WIDTH = 0.6
# A column gap may be crossed on this many levels of a table of four or more (a header cell
# centred over two columns, a long cell, the longest of figures set right); more, and it is no
# gap. A column's own words are on a level of each row: two at least.
CROSSING = 1
# The header's lines above a table that it does not hold, at most.
MAX_HEADER_LINES = 3


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
    gaps: tuple[tuple[float, float], ...] = ()  # where its columns part, left to right


@dataclass(slots=True)
class _Row:
    lines: list[int]
    cells: list[list[str]]
    top: float


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


def _level_of(layouts: Sequence[LineLayout]) -> list[int]:
    """Each line's level, counted down the page: lines side by side share one."""
    levels = [0] * len(layouts)
    current = -1
    bottom = float("-inf")
    for index in sorted(range(len(layouts)), key=lambda i: layouts[i].y0):
        line = layouts[index]
        if line.y0 >= bottom - 0.5 * line.height:
            current += 1
            bottom = line.y1
        else:
            bottom = max(bottom, line.y1)
        levels[index] = current
    return levels


def _gaps(layouts: Sequence[LineLayout], allowed: int | None = None) -> list[tuple[float, float]]:
    """The column gaps: stretches across the lines, GAP_WIDTH line heights wide or more, that
    words on no more than CROSSING levels reach into, with text on both sides."""
    extents = [(left, right) for line in layouts for _, _, left, right in line.words]
    # Counted by level, not by line: a row drawn cell by cell is several lines on one level, so
    # a column holds words on few of the lines but on a level of every row.
    if allowed is None:
        levels = max(_level_of(layouts), default=-1) + 1  # lines side by side share one
        allowed = CROSSING if levels >= 4 else 0
    # Sweep the words' edges left to right, counting the lines whose words cover each stretch.
    edges = sorted([(left, 1) for left, _ in extents] + [(right, -1) for _, right in extents])
    minimum = GAP_WIDTH * min(line.height for line in layouts)
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


def _layout(
    lines: Sequence[LineLayout | None] | dict[int, LineLayout | None], index: int
) -> LineLayout:
    line = lines[index]
    assert line is not None  # a table's lines all have geometry
    return line
