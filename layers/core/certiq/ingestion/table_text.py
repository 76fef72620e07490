"""A page's text laid out around its tables (see certiq.ingestion.tables): each table's lines
put row by row, and each row one span of the text whatever its punctuation."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from certiq.ingestion.tables import Table

__all__ = ["in_reading_order", "whole_rows"]

_Line = TypeVar("_Line")


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
        replace(
            table,
            lines=moved(table.lines),
            header_lines=moved(table.header_lines),
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
