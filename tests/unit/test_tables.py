"""Tables read from line geometry (certiq.ingestion.tables), and from PDFs the tests make."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from certiq.ingestion.pdf import parse_pdf
from certiq.ingestion.tables import LineLayout, find_tables
from tests.conftest import SCHEDULE_AFTER, SCHEDULE_BEFORE, SCHEDULE_ROWS, build_table_pdf

HEIGHT = 10.0
CHAR = 5.0  # the width of a character in these made-up lines
SPACE = 3.0  # an ordinary gap between words: a third of the line's height


def line(y: float, *cells: tuple[float, str], bold: bool = False) -> LineLayout:
    """A line with each cell's words from x on, ordinary gaps between a cell's words."""
    text = ""
    words: list[tuple[int, int, float, float]] = []
    for x, cell in cells:
        for word in cell.split():
            if text:
                text += " "
            start = len(text)
            text += word
            words.append((start, len(text), x, x + CHAR * len(word)))
            x += CHAR * len(word) + SPACE
    return LineLayout(text, tuple(words), y, y + HEIGHT, bold)


def prose(y: float, text: str, x: float = 50.0) -> LineLayout:
    return line(y, (x, text))


COLUMNS = (50.0, 200.0, 320.0)


def row(y: float, *cells: str, bold: bool = False) -> LineLayout:
    return line(y, *((x, cell) for x, cell in zip(COLUMNS, cells, strict=False) if cell), bold=bold)


def test_rows_of_figures_under_a_header_are_a_table_named_by_its_header() -> None:
    # GIVEN a caption, a header of words and three rows of figures in three columns
    lines = [
        prose(100, "Table 1: Staff"),
        row(112, "Office", "Staff", "Opened"),
        row(124, "Leeds", "40", "2001"),
        row(136, "York", "12", "2015"),
        row(148, "Hull", "7", "2019"),
        prose(172, "Each office has a manager who reports to the board."),
    ]
    # WHEN tables are looked for
    [table] = find_tables(lines)
    # THEN the header names the columns, each row has its cells, caption and prose stay out
    assert table.header_lines == (1,)
    assert table.columns == ("Office", "Staff", "Opened")
    assert [cells for _, cells in table.rows] == [
        ("Leeds", "40", "2001"),
        ("York", "12", "2015"),
        ("Hull", "7", "2019"),
    ]
    assert table.lines == (0, 1, 2, 3, 4)  # the caption stays first, in no row


def test_a_cell_drawn_before_the_rest_of_its_row_is_read_with_that_row() -> None:
    # GIVEN a bold header, then rows drawn cell by cell: the second cell wraps onto a second
    # line, drawn before the third cell, which sits higher up
    lines = [
        row(100, "Record", "Period", "Owner", bold=True),
        row(112, "Invoices", "Seven years after"),
        line(124, (200.0, "the year ends.")),
        line(112, (320.0, "Finance")),
        row(136, "Contracts", "Six years.", "Legal"),
        row(148, "Tickets", "Two years.", "Support"),
    ]
    # WHEN tables are looked for
    [table] = find_tables(lines)
    # THEN the wrapped cell is whole, the row reads cell by cell, and the bold row is the header
    assert table.columns == ("Record", "Period", "Owner")
    first_lines, first_cells = table.rows[0]
    assert first_cells == ("Invoices", "Seven years after the year ends.", "Finance")
    assert first_lines == (1, 2, 3)
    assert len(table.rows) == 3


def test_a_cell_that_nearly_fills_its_column_stays_in_it() -> None:
    # GIVEN a row whose second cell runs up to the third with an ordinary gap between them
    lines = [
        row(100, "System", "Reviewer", "Frequency", bold=True),
        row(112, "Payroll", "Finance head", "Quarterly"),
        row(124, "CRM", "Sales Operations Manager", "Every six months"),
        row(136, "Warehouse", "Data officer", "Monthly"),
    ]
    assert lines[2].words[4][2] - lines[2].words[3][3] < lines[2].height  # an ordinary gap
    # WHEN tables are looked for
    [table] = find_tables(lines)
    # THEN the columns the other rows keep apart part its words too
    assert table.rows[1][1] == ("CRM", "Sales Operations Manager", "Every six months")


def test_figures_set_right_in_their_column_stay_in_it() -> None:
    # GIVEN amounts set flush right, the longest reaching furthest left
    lines = [
        line(100, (50.0, "Breach"), (215.0, "Fine"), (320.0, "Within"), bold=True),
        line(112, (50.0, "Late notice"), (230.0, "10,000"), (320.0, "72 hours")),
        line(124, (50.0, "Lost device"), (235.0, "2,500"), (320.0, "24 hours")),
        line(136, (50.0, "Shared password"), (245.0, "500"), (320.0, "7 days")),
    ]
    # WHEN tables are looked for
    [table] = find_tables(lines)
    # THEN every amount is in the amounts' column, under its label
    assert table.columns == ("Breach", "Fine", "Within")
    assert [cells[1] for _, cells in table.rows] == ["10,000", "2,500", "500"]


def test_a_table_with_no_header_has_rows_with_unnamed_cells() -> None:
    # GIVEN label and value pairs set in two columns, all in the same weight
    lines = [
        row(100, "Owner", "Head of IT"),
        row(112, "Effective", "1 March 2024"),
        row(124, "Review", "Every year"),
    ]
    # WHEN tables are looked for
    [table] = find_tables(lines)
    # THEN it has three rows and no header (the first row is a row, not a header)
    assert table.header_lines == ()
    assert table.columns == ("", "")
    assert table.rows[0][1] == ("Owner", "Head of IT")
    assert len(table.rows) == 3


def test_prose_is_never_a_table() -> None:
    # GIVEN a paragraph whose lines have only ordinary gaps, and prose set in two columns whose
    # lines carry on from each other in lower case
    paragraph = [
        prose(100 + 12 * i, "the policy applies to every employee and contractor") for i in range(4)
    ]
    columns = [
        line(200, (50.0, "Records are kept"), (320.0, "Backups are taken")),
        line(212, (50.0, "for six years and"), (320.0, "every night and")),
        line(224, (50.0, "then deleted by"), (320.0, "kept for a month")),
        line(236, (50.0, "the records team"), (320.0, "by the operations team")),
    ]
    # WHEN tables are looked for
    # THEN none is found
    assert find_tables(paragraph) == []
    assert find_tables(columns) == []


def test_numbered_items_set_after_their_numbers_are_a_list_not_a_table() -> None:
    # GIVEN policy clauses, each number set apart from its text by a tab, one item wrapped
    lines = [
        line(100, (50.0, "4.1"), (90.0, "Passwords must be at least 14 characters long.")),
        line(112, (50.0, "4.2"), (90.0, "Passwords must not be reused across")),
        line(124, (90.0, "services or shared with anyone.")),
        line(136, (50.0, "4.3"), (90.0, "Accounts are locked after ten failed attempts.")),
    ]
    # WHEN tables are looked for / THEN none is found: each clause stays a sentence
    assert find_tables(lines) == []


def test_terms_set_before_the_sentences_defining_them_are_a_list_not_a_table() -> None:
    lines = [
        line(100, (50.0, "Personal data"), (180.0, "Any information about a person.")),
        line(112, (50.0, "Processing"), (180.0, "Anything done with personal data.")),
        line(124, (50.0, "Controller"), (180.0, "Whoever decides why data is processed.")),
    ]
    assert find_tables(lines) == []


def test_a_line_of_prose_across_the_columns_ends_the_table() -> None:
    lines = [
        row(100, "Leeds", "40", "2001"),
        row(112, "York", "12", "2015"),
        prose(124, "Staff numbers are counted at the end of each year by the people team"),
        row(136, "Hull", "7", "2019"),
    ]
    [table] = find_tables(lines)
    assert table.lines == (0, 1)


def test_a_running_header_and_footer_drawn_first_are_no_table() -> None:
    # GIVEN a page drawn header and footer first (each with a wide gap), then its body, which
    # opens with the end of a sentence the page break cut
    lines = [
        line(32, (62.0, "Northwind Analytics Ltd. | Incident Response Plan"), (480.0, "Internal")),
        line(590, (62.0, "Version 2.0"), (508.0, "Page 2")),
        prose(74, "owner and a due date.", x=68.0),
        prose(94, "This plan is tested with a tabletop exercise twice a year.", x=68.0),
    ]
    # WHEN tables are looked for / THEN none is found: the sentence stays whole to be joined
    assert find_tables(lines) == []


def test_lines_without_geometry_hold_no_table() -> None:
    assert find_tables([None, row(100, "Leeds", "40", "2001"), None]) == []


# --- in PDFs ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schedule_page() -> list[tuple[str, tuple[tuple[str, str], ...] | None, int]]:
    [page] = parse_pdf(build_table_pdf()).pages
    return [(sentence.text, sentence.cells, len(sentence.boxes)) for sentence in page.sentences]


def test_each_row_of_a_pdf_table_is_one_passage_with_its_cells_named(
    schedule_page: list[tuple[str, tuple[tuple[str, str], ...] | None, int]],
) -> None:
    # GIVEN a retention schedule drawn as a table, its header in bold, its first row's second
    # cell wrapped onto two lines
    # WHEN the page is parsed
    rows = [(text, cells, boxes) for text, cells, boxes in schedule_page if cells is not None]
    # THEN each row is one passage, its cells named by the header, one box per line it covers
    header, *body = SCHEDULE_ROWS
    assert [text for text, _, _ in rows] == [" ".join(row) for row in body]
    assert [cells for _, cells, _ in rows] == [tuple(zip(header, row, strict=True)) for row in body]
    assert rows[0][2] == 3  # two lines of the wrapped cell, one of the cell drawn after them


def test_the_sentences_around_a_pdf_table_stay_sentences(
    schedule_page: list[tuple[str, tuple[tuple[str, str], ...] | None, int]],
) -> None:
    texts = [text for text, cells, _ in schedule_page if cells is None]
    # (the header is a line of its own: no row, and not run into the sentence above it)
    assert texts == [SCHEDULE_BEFORE, " ".join(SCHEDULE_ROWS[0]), SCHEDULE_AFTER]


def test_a_table_at_the_top_of_a_page_goes_on_with_the_one_that_ended_the_page_before() -> None:
    # GIVEN the table that ran to the foot of the last page, and this page's first lines: rows
    # in the same columns, with no header of their own
    [before] = find_tables(
        [
            row(100, "Office", "Staff", "Opened"),
            row(112, "Leeds", "40", "2001"),
            row(124, "York", "12", "2015"),
            row(136, "Hull", "7", "2019"),
        ]
    )
    page = [
        row(60, "Bath", "9", "2020"),
        row(72, "Ely", "3", "2022"),
        row(84, "Wells", "5", "2023"),
    ]
    # WHEN tables are looked for, knowing the last one
    [table] = find_tables(page, continuing=before)
    # THEN it goes on with it, its columns named as the last page's were
    assert table.columns == ("Office", "Staff", "Opened")
    assert table.rows[0][1] == ("Bath", "9", "2020")
    # AND rows in other columns, or a table further down the page, are a table of their own
    moved = [
        line(60, (50.0, "Bath"), (150.0, "9")),
        line(72, (50.0, "Ely"), (150.0, "3")),
        line(84, (50.0, "Wells"), (150.0, "5")),
    ]
    assert find_tables(moved, continuing=before)[0].columns == ("", "")
    lower = [
        prose(40, "Offices opened since 2020 are listed here."),
        prose(52, "See below."),
        prose(64, "They report to the board."),
        *page,
    ]
    assert find_tables(lower, continuing=before)[0].columns == ("", "", "")


def test_a_pdf_table_running_over_a_page_break_keeps_its_header_on_the_next_page() -> None:
    # GIVEN a schedule of 60 rows under a bold header that is not repeated on page 2
    style = getSampleStyleSheet()["BodyText"]
    rows = [[Paragraph(f"<b>{label}</b>", style) for label in ("Record type", "Period", "Owner")]]
    rows += [
        [
            Paragraph(f"Record class {n}", style),
            Paragraph(f"{n % 9 + 1} years", style),
            Paragraph("Finance" if n % 2 else "Legal", style),
        ]
        for n in range(1, 61)
    ]
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=LETTER, invariant=1).build(
        [Table(rows, colWidths=[150, 200, 100])]
    )
    # WHEN it is parsed
    first, second = parse_pdf(out.getvalue()).pages
    # THEN the rows of page 2 are named by the header of page 1
    named = [sentence.cells for sentence in second.sentences if sentence.cells]
    assert named and all(
        [column for column, _ in cells] == ["Record type", "Period", "Owner"] for cells in named
    )
    assert any(sentence.cells for sentence in first.sentences)


def test_rows_under_a_first_cell_spanning_them_are_rows_of_their_own() -> None:
    # GIVEN a schedule whose department cell spans the records under it
    style = getSampleStyleSheet()["BodyText"]
    drawn = [
        ("Finance", "Invoices", "7 years"),
        ("", "Receipts", "5 years"),
        ("", "Payroll ledgers", "6 years"),
        ("People", "Payslips", "6 years"),
        ("", "Employment contracts", "6 years after leaving"),
    ]
    rows = [[Paragraph(f"<b>{label}</b>", style) for label in ("Department", "Record", "Period")]]
    rows += [[Paragraph(text, style) for text in row] for row in drawn]
    table = Table(rows, colWidths=[120, 200, 120])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, "grey"),
                ("SPAN", (0, 1), (0, 3)),
                ("SPAN", (0, 4), (0, 5)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=LETTER, invariant=1).build([table])
    # WHEN it is parsed
    [page] = parse_pdf(out.getvalue()).pages
    # THEN each record is a row of its own (the spanned cell is blank in those under it), not
    # one row of three records and three periods
    read = [
        tuple(cell for _, cell in sentence.cells) for sentence in page.sentences if sentence.cells
    ]
    assert read == drawn


def test_the_rest_of_a_row_a_page_break_cut_is_not_taken_for_a_header() -> None:
    # GIVEN the table that ended the last page, and this page opening with the rest of its
    # last row's cells (in lower case), then rows of figures
    [before] = find_tables(
        [
            row(100, "Office", "Notes", "Staff", bold=True),
            row(112, "Leeds", "Opened in spring", "40"),
            row(124, "York", "Moved in summer", "12"),
        ]
    )
    page = [
        line(60, (200.0, "and staffed by")),
        line(72, (200.0, "contractors")),
        row(84, "Bath", "Opened last", "9"),
        row(96, "Ely", "Closed", "3"),
        row(108, "Wells", "Opened", "5"),
    ]
    # WHEN tables are looked for, knowing the last one
    [table] = find_tables(page, continuing=before)
    # THEN the rest of the cut row is a row of its own under the same labels, not a header
    assert table.header_lines == ()
    assert table.columns == ("Office", "Notes", "Staff")
    assert table.rows[0][1] == ("", "and staffed by contractors", "")
    assert table.rows[1][1] == ("Bath", "Opened last", "9")
