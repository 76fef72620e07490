"""Every sentence's boxes contain the words it is made of, where reportlab drew them.

The PDFs are laid out by hand on a reportlab canvas, one line per drawString, so the position of
every word is known: its advance from stringWidth, its ink from Helvetica's ascender (718/1000
em) and descender (207/1000 em). Coordinates are turned from reportlab's bottom-left origin to
the top-left origin certiq's boxes use. Sentences start and end mid-line and wrap over lines;
the two-column layouts fill one column, then the next, as frames do.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

from certiq.ingestion.pdf import ParsedPage, parse_pdf
from certiq.models import Box

FONT, SIZE, LEADING = "Helvetica", 10.0, 13.0
ASCENDER, DESCENDER = 0.718, 0.207  # Helvetica, share of the font size
WIDTH, HEIGHT = A4
TOLERANCE = 0.5  # points

SUBJECTS = ["Backups", "Invoices", "Access logs", "Payroll files", "Support tickets", "Contracts"]
WORDS = "are kept for days weeks after closure and then deleted by the nightly job unless a legal "
WORDS += "hold applies which the owner confirms in writing to the auditors every quarter"


@dataclass(frozen=True)
class Drawn:
    """A word as drawn: its text and its ink box, top-left origin."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Column:
    x: float
    top: float  # baseline of the first line, in reportlab's coordinates (from the bottom)
    width: float
    lines: int


def sentences(count: int, seed: int) -> list[str]:
    """Sentences of 8 to 25 words, each starting with a capital and ending with a period."""
    rng = random.Random(seed)
    vocabulary = WORDS.split()
    made = []
    for index in range(count):
        body = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(6, 23)))
        made.append(f"{rng.choice(SUBJECTS)} {index + 1} {body}.")
    return made


def lay_out(texts: Sequence[str], columns: Sequence[Column]) -> tuple[bytes, list[list[Drawn]]]:
    """One page: the sentences' words flowed into lines and columns, one drawString per line.

    Returns the PDF and, per sentence, its words where they were drawn.
    """
    words = [(index, word) for index, text in enumerate(texts) for word in text.split()]
    drawn: list[list[Drawn]] = [[] for _ in texts]
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=1)
    canvas.setFont(FONT, SIZE)
    space = stringWidth(" ", FONT, SIZE)
    position = 0
    for column in columns:
        for row in range(column.lines):
            if position >= len(words):
                break
            baseline = column.top - row * LEADING
            line: list[str] = []
            x = column.x
            while position < len(words):
                index, word = words[position]
                width = stringWidth(word, FONT, SIZE)
                if line and x + width > column.x + column.width:
                    break
                drawn[index].append(
                    Drawn(
                        word,
                        x,
                        HEIGHT - (baseline + ASCENDER * SIZE),
                        x + width,
                        HEIGHT - (baseline - DESCENDER * SIZE),
                    )
                )
                line.append(word)
                x += width + space
                position += 1
            canvas.drawString(column.x, baseline, " ".join(line))
    assert position == len(words), "the columns are too small for the text"
    canvas.showPage()
    canvas.save()
    return out.getvalue(), drawn


def contains(box: Box, word: Drawn) -> bool:
    return (
        box.x0 - TOLERANCE <= word.x0
        and word.x1 <= box.x1 + TOLERANCE
        and box.y0 - TOLERANCE <= word.y0
        and word.y1 <= box.y1 + TOLERANCE
    )


def assert_boxes_hold_their_words(
    page: ParsedPage, texts: Sequence[str], drawn: Sequence[Sequence[Drawn]]
) -> None:
    found = {span.text: span for span in page.sentences}
    assert sorted(found) == sorted(texts), "the sentences come back whole"
    for text, words in zip(texts, drawn, strict=True):
        boxes = found[text].boxes
        assert all(box.page == page.number for box in boxes)
        # Every word lies inside one of its sentence's boxes (the one of its line) ...
        for word in words:
            assert any(contains(box, word) for box in boxes), (text, word, boxes)
        # ... and every box is tight: no wider or taller than the words it holds on that line.
        for box in boxes:
            held = [word for word in words if contains(box, word)]
            assert held, (text, box)
            assert box.x0 >= min(w.x0 for w in held) - TOLERANCE
            assert box.x1 <= max(w.x1 for w in held) + 1.5  # the last word's advance
            assert box.y1 - box.y0 <= 1.3 * SIZE
        lines = {round(word.y0) for word in words}
        assert len(boxes) == len(lines), "one box per line the sentence covers"


def test_one_column_sentences_are_boxed_around_their_words() -> None:
    # GIVEN 24 sentences flowed over the lines of one wide column
    texts = sentences(24, seed=1)
    data, drawn = lay_out(texts, [Column(x=72, top=HEIGHT - 72, width=WIDTH - 144, lines=60)])

    # WHEN the page is parsed
    page = parse_pdf(data).pages[0]

    # THEN each sentence's boxes contain its words, one tight box per line
    assert_boxes_hold_their_words(page, texts, drawn)
    assert any(len(span.boxes) >= 2 for span in page.sentences)  # sentences do wrap


@pytest.mark.parametrize("seed", [2, 3])
def test_two_column_sentences_are_boxed_in_their_column_and_read_in_order(seed: int) -> None:
    # GIVEN sentences flowed down a left column, then down a right one
    texts = sentences(30, seed=seed)
    left = Column(x=56, top=HEIGHT - 72, width=225, lines=55)
    right = Column(x=WIDTH / 2 + 14, top=HEIGHT - 72, width=225, lines=55)
    data, drawn = lay_out(texts, [left, right])
    assert any(w.x0 >= right.x for words in drawn for w in words), "the text reaches column 2"

    # WHEN the page is parsed
    page = parse_pdf(data).pages[0]

    # THEN the boxes hold the words, and no box straddles the gutter unless its words do
    assert_boxes_hold_their_words(page, texts, drawn)
    for span in page.sentences:
        for box in span.boxes:
            assert box.x1 <= left.x + left.width + 1 or box.x0 >= right.x - 1, box
    # AND the sentences come in reading order: all of column 1 before column 2
    order = [span.text for span in page.sentences]
    assert order == list(texts)


def test_frames_of_a_two_column_template_are_read_column_by_column() -> None:
    # GIVEN a platypus document whose page template has two frames side by side
    out = io.BytesIO()
    gutter = 18
    frame_width = (WIDTH - 144 - gutter) / 2
    frames = [
        Frame(72, 72, frame_width, HEIGHT - 144, id="left"),
        Frame(72 + frame_width + gutter, 72, frame_width, HEIGHT - 144, id="right"),
    ]
    document = BaseDocTemplate(out, pagesize=A4, invariant=1)
    document.addPageTemplates([PageTemplate(id="two", frames=frames)])
    style = getSampleStyleSheet()["BodyText"]
    texts = sentences(40, seed=4)
    document.build([Paragraph(text, style) for text in texts])

    # WHEN parsed
    page = parse_pdf(out.getvalue()).pages[0]

    # THEN the sentences come back in the order they were written, left frame first, and each
    # box lies within one frame
    assert [span.text for span in page.sentences][: len(texts)] == texts[: len(page.sentences)]
    columns = {"left": 0, "right": 0}
    for span in page.sentences:
        for box in span.boxes:
            if box.x1 <= 72 + frame_width + 1:
                columns["left"] += 1
            else:
                assert box.x0 >= 72 + frame_width + gutter - 1, box
                columns["right"] += 1
    assert columns["left"] and columns["right"]
    right_starts = [
        i for i, span in enumerate(page.sentences) if span.boxes[0].x0 > 72 + frame_width
    ]
    left_ends = [i for i, span in enumerate(page.sentences) if span.boxes[-1].x1 < WIDTH / 2]
    assert max(left_ends) <= min(right_starts)
