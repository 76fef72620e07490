"""Reading a table out of a block of lines certiq.ingestion.tables found: its rows, level by
level, each row's cells column by column, and its header's column labels."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from certiq.ingestion.table_layout import (
    CELL_GAP,
    GAP_WIDTH,
    MAX_HEADER_LINES,
    ROW_GAP,
    ROW_SPACE,
    LineLayout,
    Table,
    _column_of,
    _gaps,
    _layout,
    _level_of,
    _Row,
)

# A caption ("Table 1: ...", "Figure 2.") names a table; it is not its header.
_CAPTION = re.compile(r"(?:table|tab\.|figure|fig\.|exhibit|schedule)\s*[0-9ivxA-Z]", re.IGNORECASE)
_SENTENCE_END = (".", "!", "?")
# A list item's label, set apart from its text by a tab: "4.1", "(b)", "iv.", a bullet.
_LIST_LABEL = re.compile(
    r"\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivxlc]{1,5})[.)]?|[•◦▪▫‣∙●○■□►▶➢✓✔*–-]",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"(?<![\w.])\d")
# No space before a closing mark in a header label built from words on two lines: "(km2 )".
_SPACE_BEFORE_CLOSER = re.compile(r"\s+([)\]},.;:])")


def _table(lines: Sequence[LineLayout | None], start: int, end: int) -> Table | None:
    region = list(range(start, end))
    layouts = {index: lines[index] for index in region}
    present = [layout for layout in layouts.values() if layout is not None]
    gaps = _gaps(present)
    if not gaps:
        return None
    width = len(gaps) + 1
    rows: list[_Row] = []
    # Level by level down the page; on a level, the line starting in the first column first (it
    # starts the row the others on its level belong to).
    level = _level_of([_layout(layouts, i) for i in region])
    placed = {index: _placed(_layout(layouts, index), gaps, width) for index in region}
    new_rows = _rows_under_a_spanned_cell(region, level, placed, layouts, start)
    for index in sorted(
        region,
        key=lambda i: (level[i - start], _column_of(gaps, *_layout(layouts, i).words[0][2:]), i),
    ):
        line = _layout(layouts, index)
        cells = placed[index]
        owner = None if index in new_rows else _owner(rows, cells, line)
        if owner is None:
            rows.append(_Row([index], cells, line.y0))
        else:
            owner.lines.append(index)
            for column, parts in enumerate(cells):
                owner.cells[column].extend(parts)
    while rows and _filled(rows[-1].cells) < 2:  # a note under the table, not a row of it
        rows.pop()
    # A caption, or the line before the table, goes; a cell in lower case stays: the rest of a
    # row a page break cut, which a caption never is.
    while rows and _filled(rows[0].cells) < 2 and not _carries_on(rows[0]):
        rows.pop(0)
    if sum(1 for row in rows if _filled(row.cells) >= 2) < 2:
        return None
    openings = [next(part for parts in row.cells for part in parts) for row in rows]
    if 3 * sum(1 for opening in openings if opening[:1].islower()) > len(openings):
        return None  # most rows continue the line before: prose set in columns
    if width == 2 and _list_like(rows):
        return None
    for row in rows:  # cell by cell, each cell's lines top to bottom
        row.lines.sort(
            key=lambda i: (
                _column_of(gaps, *_layout(layouts, i).words[0][2:]),
                _layout(layouts, i).y0,
            )
        )
    header = (
        tuple(rows.pop(0).lines) if _heads(rows, layouts) else _header_above(lines, start, gaps)
    )
    labels = _labels([_layout(lines, i) for i in header], _extents(rows, layouts, gaps, width))
    _merge_header_only_columns(labels, rows)
    taken = {index for row in rows for index in row.lines} | set(header)
    inside = [index for index in header if index >= start]  # a header above stays where it is
    order = [*inside, *(index for row in rows for index in row.lines)]
    # Lines of the block no row holds stay before it (a caption) or after it (a note).
    before = [index for index in region if index not in taken and index < min(order)]
    after = [index for index in region if index not in taken and index > min(order)]
    order = [*before, *order, *after]
    return Table(
        lines=tuple(order),
        header_lines=header,
        columns=tuple(_SPACE_BEFORE_CLOSER.sub(r"\1", " ".join(words)) for words in labels),
        rows=tuple(
            (tuple(row.lines), tuple(" ".join(parts) for parts in row.cells)) for row in rows
        ),
        gaps=tuple(gaps) if len(gaps) + 1 == len(labels) else (),
    )


def _placed(line: LineLayout, gaps: Sequence[tuple[float, float]], width: int) -> list[list[str]]:
    """The line's words, column by column."""
    cells: list[list[str]] = [[] for _ in range(width)]
    for (word_start, word_end, _, _), column in zip(
        line.words, _word_columns(line, gaps), strict=True
    ):
        cells[column].append(line.text[word_start:word_end])
    return cells


def _rows_under_a_spanned_cell(
    region: Sequence[int],
    level: Sequence[int],
    placed: dict[int, list[list[str]]],
    layouts: dict[int, LineLayout | None],
    start: int,
) -> set[int]:
    """The first line of each level that starts a row whose first cell is one spanning the rows
    above ("Finance" over "Invoices | 7 years" and "Receipts | 5 years"): a level below the
    first with nothing in the first column, each of its cells starting as a cell does (a
    capital or a figure), in two columns or more or set apart from the level above as rows
    are (a wrapped line follows the one above at its leading). Its line drawn first starts the
    row; without this, the rows under one spanned cell ran together into one.
    """
    by_level: dict[int, list[int]] = {}
    for index in region:
        by_level.setdefault(level[index - start], []).append(index)
    starts: set[int] = set()
    ordered = sorted(by_level)
    for above, number in pairwise(ordered):
        indices = by_level[number]
        openings: dict[int, str] = {}
        for index in indices:
            for column, parts in enumerate(placed[index]):
                if parts and column not in openings:
                    openings[column] = parts[0]
        if 0 in openings or not openings:
            continue
        if not all(word[:1].isupper() or word[:1].isdigit() for word in openings.values()):
            continue
        lines = [_layout(layouts, index) for index in indices]
        bottom = max(_layout(layouts, index).y1 for index in by_level[above])
        apart = min(line.y0 for line in lines) - bottom >= ROW_SPACE * lines[0].height
        if len(openings) >= 2 or apart:
            starts.add(min(indices))
    return starts


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


def _extents(
    rows: Sequence[_Row],
    layouts: dict[int, LineLayout | None],
    gaps: Sequence[tuple[float, float]],
    width: int,
) -> list[tuple[float, float] | None]:
    """Where each column's words lie, across the rows (None: a column no row has words in)."""
    extents: list[tuple[float, float] | None] = [None] * width
    for row in rows:
        for index in row.lines:
            line = _layout(layouts, index)
            for (_, _, left, right), column in zip(
                line.words, _word_columns(line, gaps), strict=True
            ):
                found = extents[column]
                extents[column] = (
                    (left, right) if found is None else (min(found[0], left), max(found[1], right))
                )
    return extents


def _labels(
    header: Sequence[LineLayout], extents: Sequence[tuple[float, float] | None]
) -> list[list[str]]:
    """The header's words over each column, cell by cell (words parted by a column gap's width
    at least), line by line down the header.

    A header cell goes to the column whose words it is nearest, not by a gap's middle: a label
    set left over figures set right sits in the gap before them. A line with as many cells as
    there are columns labels them in order.
    """
    labels: list[list[str]] = [[] for _ in extents]
    for line in sorted(header, key=lambda line: line.y0):
        cells: list[tuple[list[str], float, float]] = []
        for position, (start, end, left, right) in enumerate(line.words):
            word = line.text[start:end]
            if position and left - line.words[position - 1][3] < GAP_WIDTH * line.height:
                cells[-1][0].append(word)
                cells[-1] = (cells[-1][0], cells[-1][1], right)
            else:
                cells.append(([word], left, right))
        if len(cells) == len(extents):
            for column, (words, _, _) in enumerate(cells):
                labels[column].extend(words)
            continue
        for words, left, right in cells:
            labels[_nearest(extents, left, right)].extend(words)
    return labels


def _nearest(extents: Sequence[tuple[float, float] | None], left: float, right: float) -> int:
    """The column whose words lie nearest the stretch from left to right (overlap: nearest)."""
    middle = (left + right) / 2

    def distance(column: int) -> tuple[float, float]:
        extent = extents[column]
        if extent is None:
            return (float("inf"), 0.0)
        apart = max(extent[0] - right, left - extent[1], 0.0)
        return (apart, abs((extent[0] + extent[1]) / 2 - middle))

    return min(range(len(extents)), key=distance)


def _merge_header_only_columns(labels: list[list[str]], rows: Sequence[_Row]) -> None:
    """Columns no row has words in go. One with a label, beside one with words and no label, is
    that one: a label set left over figures set right ("Contract employee" over "25,274") leaves
    a gap between them on the header's levels alone. One with nothing (a gap found inside a
    header word that wraps) is dropped."""

    def drop(column: int) -> None:
        del labels[column]
        for row in rows:
            del row.cells[column]

    def has_words(column: int) -> bool:
        return any(row.cells[column] for row in rows)

    column = 0
    while column < len(labels):
        if has_words(column):
            column += 1
        elif not labels[column]:
            drop(column)
        else:
            beside = [
                other
                for other in (column + 1, column - 1)
                if 0 <= other < len(labels) and not labels[other] and has_words(other)
            ]
            if not beside:
                column += 1
                continue
            labels[beside[0]] = labels[column]
            drop(column)


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
    A word close after another stays in that word's column unless it starts past the middle of
    a gap ("Manager" reaching into the gap stays; "Every" moves on); a word after a wide gap goes
    to the column under its middle (a figure set right of its column's start).
    """
    columns: list[int] = []
    close = CELL_GAP * line.height
    previous_right = None
    for _, _, left, right in line.words:
        if previous_right is not None and left - previous_right < close:
            past = sum(1 for gap_left, gap_right in gaps if left >= (gap_left + gap_right) / 2)
            columns.append(max(columns[-1], past))
        else:
            columns.append(_column_of(gaps, left, right))
        previous_right = right
    return columns


def _carries_on(row: _Row) -> bool:
    """Does the row start in lower case, the rest of a sentence begun above it?"""
    return next(part for parts in row.cells for part in parts)[:1].islower()


def _filled(cells: Sequence[Sequence[str]]) -> int:
    return sum(1 for parts in cells if parts)


def _has_figure(cells: Sequence[Sequence[str]]) -> bool:
    """Does a cell hold a figure (a word starting with a digit: "8.9", "30 days", not "km2")?"""
    return any(_FIGURE.search(part) for parts in cells for part in parts)


def _heads(rows: Sequence[_Row], layouts: dict[int, LineLayout | None]) -> bool:
    """Is the first row the table's header: set in bold over rows that are not, or labels over
    rows of figures ("Country Population ..." over "Austria 8.9 83,879 ...")? Labels start as
    labels do: cells all in lower case at the top of a page are the rest of a row the page
    break cut, not a header."""
    if len(rows) < 3:
        return False
    first, rest = rows[0], rows[1:]

    def bold(row: _Row) -> bool:
        return all(_layout(layouts, index).bold for index in row.lines)

    if bold(first) and not any(bold(row) for row in rest):
        return True
    if _has_figure(first.cells) or all(parts[0][:1].islower() for parts in first.cells if parts):
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
