"""Tables found in a page's line geometry: which lines are a table's rows, and what each cell is.

A PDF has no tables, only words placed on lines. A table shows as lines whose words fall into
columns: gaps that line up from one level of the page to the next. Without this, a table's rows
run together into one long "sentence" ("Austria 8.9 83,879 Vienna German Belgium 11.5 ...") that
answers nothing and highlights the whole table; with it, each row is a passage of its own, its
box is the row, and its cells are named by the table's header ("Capital: Helsinki").

A table starts at a line with a wide gap (CELL_GAP line heights; prose leaves about a third of
one between words) and takes the lines drawn around it, of the same size, that keep to its
columns. Lines come in the order the PDF draws them, which in a table is often cell by cell: a
cell that wraps comes before the next cell of its row, higher up. So rows are found by
position, level by level, not by order, and each row's lines are put together, cell by cell.

Only what reads as a table becomes one: two rows or more of two cells or more; not prose set in
columns (most rows would start in lower case), nor a list set with a tab (numbers, or defined
terms, before sentences). scripts/bench_tables.py measures it on tables drawn at random.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from certiq.ingestion.table_cells import _table
from certiq.ingestion.table_layout import (
    GAP_WIDTH,
    HEIGHT_CHANGE,
    ROW_GAP,
    ROW_REACH,
    SIBLING_WINDOW,
    LineLayout,
    Table,
    _cells,
    _gaps,
)

__all__ = ["LineLayout", "Table", "find_tables"]


def find_tables(lines: Sequence[LineLayout | None], continuing: Table | None = None) -> list[Table]:
    """The tables among a page's lines, in the order the lines come (None: a line with no usable
    geometry, such as turned text, which no table holds).

    `continuing`: the previous page's table when it ran to the foot of that page. A table at
    the top of this page with no header of its own, in the same columns, goes on with it and
    takes its column labels.
    """
    tables: list[Table] = []
    index = 0
    floor = 0  # the first line no table found so far holds
    count = len(lines)
    while index < count:
        line = lines[index]
        if line is None or len(_cells(line)) < 2:
            index += 1
            continue
        start, end = _region(lines, index, floor)
        table = _table(lines, start, end)
        if table is None:
            index += 1
            continue
        if not tables and continuing is not None and _goes_on(continuing, table):
            table = replace(table, columns=continuing.columns)
        tables.append(table)
        index = floor = end
    return tables


def _goes_on(previous: Table, table: Table) -> bool:
    """Is the table the rest of the previous page's: at the top of its page, with no header,
    its columns where the previous one's were?"""
    first_row = table.rows[0][0][0]
    return (
        not table.header_lines
        and table.lines.index(first_row) <= 1  # a "(continued)" line may come first
        and table.lines[0] <= 1
        and any(previous.columns)
        and len(previous.gaps) == len(table.gaps)
        and all(
            low < other_high and other_low < high
            for (low, high), (other_low, other_high) in zip(previous.gaps, table.gaps, strict=True)
        )
    )


def _region(lines: Sequence[LineLayout | None], seed: int, floor: int) -> tuple[int, int]:
    """The block of lines around `seed` (none before `floor`): lines of the same height, none far
    above or below the others, each keeping to the columns the others make (a line of prose
    runs across them) unless it has wide gaps of its own. Lines drawn before the seed count: a
    header cell that wraps may be drawn before the rest of its row."""
    first = lines[seed]
    assert first is not None
    taken = [first]
    extent = [first.y0, first.y1]
    start, end = seed, seed + 1
    # Down, then up, until neither takes a line: a line taken above may bring the next one
    # below within reach (a wrapped header cell drawn before the rest of its row).
    while True:
        grown = False
        while end < len(lines) and _joins(lines[end], first, taken, extent, ROW_GAP):
            end += 1
            grown = True
        while start > floor and _joins(
            lines[start - 1], first, taken, extent, _reach_up(lines, start - 1, floor)
        ):
            start -= 1
            grown = True
        if not grown:
            return start, end


def _reach_up(lines: Sequence[LineLayout | None], index: int, floor: int) -> float:
    """How far above the block a line drawn before it may be, in line heights: far (ROW_REACH)
    when a line drawn before it shares its level, as the first cell of a row drawn cell by cell
    does with its last (drawn at the row's top, just before the next row); else close, as any
    line: a running header drawn before a footer is no row of it."""
    line = lines[index]
    if line is not None:
        for other in lines[max(floor, index - SIBLING_WINDOW) : index]:
            if other is not None and _side_by_side(line, other):
                return ROW_REACH
    return ROW_GAP


def _side_by_side(line: LineLayout, other: LineLayout) -> bool:
    """Do two lines share a level (their vertical extents overlap by half or more)?"""
    overlap = min(line.y1, other.y1) - max(line.y0, other.y0)
    return overlap >= 0.5 * min(line.height, other.height)


def _joins(
    line: LineLayout | None,
    first: LineLayout,
    taken: list[LineLayout],
    extent: list[float],
    reach: float,
) -> bool:
    """Does the line join the block (then taken, the block's top and bottom widened)? It may
    be `reach` line heights above the block's top: far, for a line drawn before the block (the
    top of the row above); close, for one drawn after it (a running header or footer drawn
    last is not a row)."""
    if line is None or not line.words:
        return False
    height = max(first.height, line.height)
    if abs(first.height - line.height) > HEIGHT_CHANGE * height:
        return False
    if line.y1 < extent[0] - reach * height or line.y0 > extent[1] + ROW_GAP * height:
        return False
    if len(_cells(line)) < 2 and _runs_across(line, taken):
        return False
    taken.append(line)
    extent[0], extent[1] = min(extent[0], line.y0), max(extent[1], line.y1)
    return True


def _runs_across(line: LineLayout, taken: Sequence[LineLayout]) -> bool:
    """Is the line prose running across the block's columns: text going on across a gap no
    word of the block is in, with no space of a column gap's width there?

    Text reaching into a gap is not enough (a wrapped cell's longer line may), nor is running
    on across one with a narrow gap of its own there (the cells of a row drawn close together,
    or a row whose first cell is longer than those above it).
    """
    gaps = _gaps(taken, allowed=0)
    spaces = [
        (before[3], after[2])
        for before, after in zip(line.words, line.words[1:], strict=False)
        if after[2] - before[3] >= GAP_WIDTH * line.height
    ]
    for _, _, cell_left, cell_right in _cells(line):
        spanned = [(low, high) for low, high in gaps if cell_left < low and cell_right > high]
        for low, high in spanned:
            if not any(
                space_left <= high and space_right >= low for space_left, space_right in spaces
            ):
                return True
    return False
