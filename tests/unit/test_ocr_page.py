"""A page read by OCR becomes a ParsedPage with the same lines, sentences, words and boxes as a
page read from its text layer (certiq.ingestion.ocr_page)."""

from __future__ import annotations

from certiq.ingestion.furniture import Furniture, furniture_key
from certiq.ingestion.ocr_page import page_from_words
from certiq.ports import OcrWord

WIDTH, HEIGHT = 600.0, 800.0


def words(*lines: tuple[int, str], confidence: float = 0.9, top: float = 0.1) -> list[OcrWord]:
    """OCR words laid out left to right, one line per (paragraph, text), 20 pt apart."""
    found = []
    for number, (paragraph, text) in enumerate(lines):
        y0 = top + number * 20 / HEIGHT
        x = 0.1
        for word in text.split():
            right = x + len(word) * 6 / WIDTH
            found.append(
                OcrWord(word, x, y0, right, y0 + 12 / HEIGHT, confidence, number, paragraph)
            )
            x = right + 4 / WIDTH
    return found


def test_lines_paragraphs_and_sentences_come_from_the_engines_grouping() -> None:
    # GIVEN two lines of one paragraph and a line of another
    read = words(
        (0, "Backups of customer data are"),
        (0, "kept for 35 days. Logs"),
        (1, "Incidents are reported within 4 hours."),
    )

    # WHEN they become a page
    page = page_from_words(1, WIDTH, HEIGHT, 0, read, min_confidence=0.4, keep_words=True)

    # THEN lines join with a line break, paragraphs with a blank line
    assert page is not None
    assert page.text == (
        "Backups of customer data are\nkept for 35 days. Logs\n\n"
        "Incidents are reported within 4 hours."
    )
    # AND sentences span lines, one box per line, each box around its own words
    first = page.sentences[0]
    assert first.text == "Backups of customer data are kept for 35 days."
    assert len(first.boxes) == 2
    line_one, line_two = first.boxes
    assert line_one.x0 == 60.0 and line_one.y0 == 80.0 and line_one.y1 == 92.0
    assert line_two.y0 == 100.0
    # the second line's box stops before "Logs", which belongs to the next sentence
    logs = next(word for word in page.words if word.text == "Logs")
    assert line_two.x1 < logs.box.x0
    # AND every word is where the engine saw it, at its offsets in the page text
    for word in page.words:
        assert page.text[word.start : word.end] == word.text
    assert page.ocr_confidence == 0.9


def test_a_word_hyphenated_across_lines_is_joined_and_keeps_both_boxes() -> None:
    read = words((0, "The retention pe-"), (0, "riod is five years."))
    page = page_from_words(1, WIDTH, HEIGHT, 0, read, min_confidence=0.4, keep_words=True)
    assert page is not None
    assert page.text == "The retention period is five years."
    halves = [word for word in page.words if word.text in ("pe", "riod")]
    assert [word.text for word in halves] == ["pe", "riod"]
    assert halves[0].box.y0 < halves[1].box.y0  # one on each line
    assert halves[0].end == halves[1].start


def test_words_read_without_confidence_are_left_out_and_none_left_is_no_page() -> None:
    sure = words((0, "Backups are kept for 35 days."), confidence=0.95)
    unsure = words((1, "~~ ,, :: ;;"), confidence=0.2, top=0.5)
    page = page_from_words(1, WIDTH, HEIGHT, 0, sure + unsure, min_confidence=0.4)
    assert page is not None and page.text == "Backups are kept for 35 days."
    assert page_from_words(1, WIDTH, HEIGHT, 0, unsure, min_confidence=0.4) is None


def test_running_headers_found_on_text_pages_are_dropped_from_scanned_ones() -> None:
    # GIVEN a header the document's text pages repeat, at the top of a scanned page
    header = "Northwind Analytics Ltd. | Data Retention Policy"
    read = words((0, header), (1, "Backups are kept for 35 days."), top=0.02)
    furniture = Furniture(lines=frozenset({("top", furniture_key(header))}))

    page = page_from_words(3, WIDTH, HEIGHT, 0, read, min_confidence=0.4, furniture=furniture)

    assert page is not None and page.text == "Backups are kept for 35 days."


def line_words(
    text: str, line: int, top: float, height: float, paragraph: int = 0
) -> list[OcrWord]:
    found, x = [], 0.1
    for word in text.split():
        right = x + len(word) * 6 / WIDTH
        found.append(OcrWord(word, x, top, right, top + height / HEIGHT, 0.9, line, paragraph))
        x = right + 4 / WIDTH
    return found


def test_a_heading_the_engine_grouped_with_its_text_starts_its_own_paragraph() -> None:
    # GIVEN one engine paragraph: a heading in a larger type, then two lines of body text, one
    # with brackets and descenders that make its boxes taller than its type size
    read = [
        *line_words("4. Liability", 0, 0.10, 14),
        *line_words("The liability of each party is capped at the fees", 1, 0.13, 10),
        *line_words("paid (in the 12 months) before the claim.", 2, 0.15, 10),
    ]
    # make the bracketed and descending words as tall as such boxes are
    read = [
        word
        if word.text.isalpha() or word.line != 2
        else OcrWord(
            word.text,
            word.left,
            word.top,
            word.right,
            word.bottom + 3 / HEIGHT,
            word.confidence,
            word.line,
            word.paragraph,
        )
        for word in read
    ]

    page = page_from_words(1, WIDTH, HEIGHT, 0, read, min_confidence=0.4)

    # THEN the heading is a block of its own, and the body stays one sentence
    assert page is not None
    assert page.text.split("\n\n") == [
        "4. Liability",
        "The liability of each party is capped at the fees\n"
        "paid (in the 12 months) before the claim.",
    ]
    assert [s.text for s in page.sentences][-1].startswith("The liability of each party")
