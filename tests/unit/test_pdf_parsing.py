"""parse_pdf: words come back with the boxes they are drawn in, and unreadable PDFs say why."""

from __future__ import annotations

import io
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from certiq.adapters.local.tesseract_ocr import TesseractOcr
from certiq.api.pages import render_page
from certiq.errors import IngestionError
from certiq.ingestion.pdf import PageOcr, ParsedDocument, ParsedPage, Word, parse_pdf
from certiq.models import Box
from tests.conftest import MakePdf

SHARED_PDFS = Path("/work/shared/data/pdfs")
PAGE_W, PAGE_H = 612.0, 792.0
TOLERANCE = 2.0  # points


def draw_pdf(*pages: Callable[[Canvas], None]) -> bytes:
    """One page per drawing function, on US Letter, deterministic."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=1)
    for draw in pages:
        draw(canvas)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def text_at(x: float, y: float, text: str, size: float = 12) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", size)
        canvas.drawString(x, y, text)

    return draw


def drawn(*steps: Callable[[Canvas], None]) -> Callable[[Canvas], None]:
    """Several drawing steps as one page."""

    def draw(canvas: Canvas) -> None:
        for step in steps:
            step(canvas)

    return draw


def transformed(data: bytes, *, rotation: int = 0, crop: tuple[float, ...] | None = None) -> bytes:
    """The same PDF with its first page rotated (clockwise) and/or cropped, as viewers show it."""
    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[0]
        if crop is not None:
            page.set_cropbox(*crop)
        page.set_rotation(rotation)
        page.close()
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()
    finally:
        pdf.close()


def word(page: ParsedPage, text: str) -> Word:
    matches = [w for w in page.words if w.text == text]
    assert len(matches) == 1, f"{text!r} found {len(matches)} times in {page.text!r}"
    return matches[0]


def assert_expected_box(box: Box, x0: float, x1: float, baseline: float, size: float) -> None:
    """The box spans the drawn advance and the glyphs above (and descenders below) the baseline."""
    assert box.x0 == pytest.approx(x0, abs=TOLERANCE)
    assert box.x1 == pytest.approx(x1, abs=TOLERANCE)
    # Helvetica's capitals reach 0.72 em above the baseline, descenders 0.21 em below it.
    assert baseline - 1.0 * size - TOLERANCE <= box.y0 <= baseline - 0.72 * size + TOLERANCE
    assert baseline - TOLERANCE <= box.y1 <= baseline + 0.25 * size + TOLERANCE


def assert_boxes_inside_pages(document: ParsedDocument) -> None:
    for page in document.pages:
        for w in page.words:
            box = w.box
            assert box.page == page.number
            assert (box.page_width, box.page_height) == (page.width, page.height)
            assert 0 <= box.x0 <= box.x1 <= page.width, (w.text, box)
            assert 0 <= box.y0 <= box.y1 <= page.height, (w.text, box)


def ink_outside_boxes(data: bytes, page: ParsedPage, margin: float = 1.5) -> int:
    """Dark pixels of the rendered page that fall outside every word box (scale 1: 1 px = 1 pt)."""
    pdf = pdfium.PdfDocument(data)
    try:
        image = pdf[page.number - 1].render(scale=1, grayscale=True).to_pil()
    finally:
        pdf.close()
    assert image.size == (round(page.width), round(page.height))  # rendered as displayed
    pixels = image.load()
    stray = 0
    for y in range(image.size[1]):
        for x in range(image.size[0]):
            if pixels[x, y] < 128 and not any(
                w.box.x0 - margin <= x + 0.5 <= w.box.x1 + margin
                and w.box.y0 - margin <= y + 0.5 <= w.box.y1 + margin
                for w in page.words
            ):
                stray += 1
    return stray


# --- boxes are where the words are drawn ---------------------------------------------------------


def test_word_drawn_at_a_known_point_comes_back_with_a_box_around_it() -> None:
    # GIVEN "Retention" drawn in 12 pt Helvetica with its baseline starting at (100, 700)
    data = draw_pdf(text_at(100, 700, "Retention policy", size=12))

    # WHEN the PDF is parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN the word's box sits at that point in top-left coordinates (y = 792 - 700 = 92)
    width = stringWidth("Retention", "Helvetica", 12)
    assert_expected_box(word(page, "Retention").box, 100, 100 + width, PAGE_H - 700, 12)
    assert (page.width, page.height) == (PAGE_W, PAGE_H)


@pytest.mark.parametrize(("x", "y", "size"), [(72, 72, 10), (300, 400, 18), (450, 760, 8)])
def test_boxes_follow_position_and_font_size(x: float, y: float, size: float) -> None:
    # GIVEN one word drawn at various places and sizes
    data = draw_pdf(text_at(x, y, "Backups", size=size))

    # WHEN parsed
    box = word(parse_pdf(data, words=True).pages[0], "Backups").box

    # THEN its box moves and scales with it
    width = stringWidth("Backups", "Helvetica", size)
    assert_expected_box(box, x, x + width, PAGE_H - y, size)


def test_every_dark_pixel_of_a_page_lies_inside_some_word_box(make_pdf: MakePdf) -> None:
    # GIVEN a page of wrapped paragraphs
    data = make_pdf(
        [
            [
                "Backups of customer data are kept for 35 days and then deleted. " * 3,
                "Invoices are kept for 7 years; support tickets for 3 years after closure.",
            ]
        ]
    )

    # WHEN parsed and rendered
    page = parse_pdf(data, words=True).pages[0]

    # THEN the boxes cover all the ink: none of the drawn text is outside them
    assert len(page.words) > 40
    assert ink_outside_boxes(data, page) == 0


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rotated_pages_give_boxes_on_the_page_as_displayed(rotation: int) -> None:
    # GIVEN a page with /Rotate set, so viewers show it turned
    data = transformed(
        draw_pdf(text_at(100, 600, "Escalate within 15 minutes.")), rotation=rotation
    )

    # WHEN parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN width and height are the displayed ones, and the boxes cover the rendered text
    expected_size = (PAGE_H, PAGE_W) if rotation in (90, 270) else (PAGE_W, PAGE_H)
    assert (page.width, page.height) == expected_size
    assert page.text == "Escalate within 15 minutes."
    assert ink_outside_boxes(data, page) == 0
    box = word(page, "Escalate").box
    if rotation == 90:  # the page's left edge is at the top: y in user space becomes x
        assert box.y0 == pytest.approx(100, abs=TOLERANCE)
        assert box.x0 < 600 < box.x1


def test_text_drawn_against_the_page_rotation_reads_upright() -> None:
    # GIVEN a page with /Rotate 90 whose text is drawn turned the other way, as landscape
    # pages are, so it reads left to right on screen
    def draw(canvas: Canvas) -> None:
        canvas.translate(300, 100)
        canvas.rotate(90)
        canvas.setFont("Helvetica", 12)
        canvas.drawString(0, 0, "First line here")
        canvas.drawString(0, -16, "Second line here")

    data = transformed(draw_pdf(draw), rotation=90)

    # WHEN parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN the words form two horizontal lines on the displayed page, boxes over the ink
    assert page.text == "First line here\nSecond line here"
    assert [w.line for w in page.words] == [0, 0, 0, 1, 1, 1]
    first, second = page.lines
    assert first.box.x1 - first.box.x0 > first.box.y1 - first.box.y0  # wide, not tall
    assert first.box.y1 <= second.box.y0 + TOLERANCE
    assert ink_outside_boxes(data, page) == 0


def test_cropped_page_boxes_are_relative_to_the_crop_box() -> None:
    # GIVEN a word at (100, 700) on a page cropped to (50, 50)-(562, 742)
    data = transformed(draw_pdf(text_at(100, 700, "Archive")), crop=(50, 50, 562, 742))

    # WHEN parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN the page is the crop box and the word sits 50 pt further left and up
    assert (page.width, page.height) == (512, 692)
    width = stringWidth("Archive", "Helvetica", 12)
    assert_expected_box(word(page, "Archive").box, 50, 50 + width, 742 - 700, 12)


def test_text_outside_the_visible_page_is_ignored() -> None:
    # GIVEN one visible word and one drawn beyond the page's top edge
    data = draw_pdf(drawn(text_at(72, 700, "Visible"), text_at(72, 900, "Hidden")))

    # WHEN parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN only what a reader can see is kept
    assert page.text == "Visible"


# --- text, words and lines --------------------------------------------------------------------


def test_words_split_on_whitespace_and_offsets_point_into_page_text(make_pdf: MakePdf) -> None:
    # GIVEN two paragraphs on page 1 and one on page 2
    data = make_pdf(
        [
            ["Dr. Smith approved version 3.5 of the policy.", "It applies to all staff."],
            ["Page two holds the appendix."],
        ]
    )

    # WHEN parsed
    document = parse_pdf(data, words=True)

    # THEN every word is a run of non-space characters found at its offsets in the page text
    assert [p.number for p in document.pages] == [1, 2]
    first = document.pages[0]
    joined = " ".join(w.text for w in first.words)
    assert joined == "Dr. Smith approved version 3.5 of the policy. It applies to all staff."
    for page in document.pages:
        for w in page.words:
            assert page.text[w.start : w.end] == w.text
            assert not any(ch.isspace() for ch in w.text)
    # AND the paragraphs are separated by a blank line, the pages keep their own text
    assert first.text == "Dr. Smith approved version 3.5 of the policy.\n\nIt applies to all staff."
    assert document.pages[1].text == "Page two holds the appendix."
    assert_boxes_inside_pages(document)


def test_words_are_grouped_into_lines_by_baseline() -> None:
    # GIVEN two words on one baseline and two on a line below
    data = draw_pdf(
        text_at(72, 700, "First line"),
        drawn(text_at(72, 700, "First line"), text_at(72, 686, "Second line")),
    )

    # WHEN parsed
    single, double = parse_pdf(data, words=True).pages

    # THEN words share a line index per baseline, and lines carry their span and box
    assert [w.line for w in double.words] == [0, 0, 1, 1]
    assert double.text == "First line\nSecond line"
    first_line, second_line = double.lines
    assert double.text[first_line.start : first_line.end] == "First line"
    assert double.text[second_line.start : second_line.end] == "Second line"
    assert first_line.box.y1 <= second_line.box.y0 + TOLERANCE
    assert first_line.box.x0 == pytest.approx(72, abs=TOLERANCE)
    assert len(single.lines) == 1


def test_a_word_hyphenated_across_lines_is_one_word_with_a_box_per_line() -> None:
    # GIVEN "reten-" ending one line and "tion" starting the next, and a real "Two-Column"
    data = draw_pdf(
        drawn(
            text_at(72, 700, "Backups have a reten-"),
            text_at(72, 685, "tion period. The Two-"),
            text_at(72, 670, "Column layout stays."),
        )
    )

    # WHEN parsed
    page = parse_pdf(data, words=True).pages[0]

    # THEN the text reads the words whole, and each part keeps its own line and box
    assert "a retention period. The Two-Column layout stays." in page.text
    head, tail = word(page, "reten"), word(page, "tion")
    assert head.end == tail.start
    assert (head.line, tail.line) == (0, 1)
    assert head.box.x0 > 150 > tail.box.x0


def test_parsing_is_deterministic(make_pdf: MakePdf) -> None:
    # GIVEN the same bytes twice
    data = make_pdf([["Retention is 35 days."], ["Deletion is automatic."]])

    # WHEN parsed twice
    # THEN the results are equal, down to every box
    assert parse_pdf(data) == parse_pdf(data)


def test_a_hundred_dense_pages_all_parse_with_their_words(make_pdf: MakePdf) -> None:
    # GIVEN a 100-page PDF of dense paragraphs (~700 words per page); how fast is a benchmark's
    # business (`make bench`, scripts/bench_ingest.py), not a test's
    paragraph = "Backups of customer data are kept for 35 days and then deleted. " * 14
    data = make_pdf([[paragraph] * 5 for _ in range(100)])

    # WHEN parsed with word boxes
    document = parse_pdf(data, words=True)

    # THEN every page is there, each with its words
    assert document.page_count == 100
    assert all(len(page.words) > 500 for page in document.pages)


# --- documents that cannot be read -----------------------------------------------------------


def test_encrypted_pdf_says_a_password_is_required(encrypted_pdf: bytes) -> None:
    with pytest.raises(IngestionError, match=r"^encrypted: a password is required$"):
        parse_pdf(encrypted_pdf)


@pytest.mark.parametrize("data", [b"", b"Hello, this is a text file.", b"%PDF-1.7\n%%EOF"])
def test_bytes_that_are_not_a_pdf_are_refused(data: bytes) -> None:
    with pytest.raises(IngestionError, match=r"^not a readable PDF: "):
        parse_pdf(data)


def test_truncated_pdf_is_refused(corrupt_pdf: bytes) -> None:
    assert corrupt_pdf.startswith(b"%PDF")
    with pytest.raises(IngestionError, match=r"^not a readable PDF: \w"):
        parse_pdf(corrupt_pdf)


def test_image_only_pdf_read_without_ocr_says_ocr_is_off(image_only_pdf: bytes) -> None:
    with pytest.raises(IngestionError) as raised:
        parse_pdf(image_only_pdf)
    assert str(raised.value) == (
        "no text layer: the page is an image, and OCR is off (CERTIQ_OCR__ENGINE=none)"
    )


def test_blank_pdf_has_no_text() -> None:
    data = draw_pdf(lambda c: c.rect(72, 72, 100, 100))
    with pytest.raises(IngestionError) as raised:
        parse_pdf(data)
    assert str(raised.value) == "no text: the PDF's pages hold neither text nor images"


def test_pdf_with_zero_pages_is_refused() -> None:
    empty = pdfium.PdfDocument.new()
    out = io.BytesIO()
    empty.save(out)
    empty.close()
    with pytest.raises(IngestionError, match=r"^no pages: "):
        parse_pdf(out.getvalue())


# --- real-world files ------------------------------------------------------------------------

SHARED_FILES = sorted(SHARED_PDFS.glob("*.pdf")) if SHARED_PDFS.is_dir() else []


@pytest.mark.skipif(not SHARED_FILES, reason=f"{SHARED_PDFS} is not available")
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name)
def test_shared_pdfs_parse_or_fail_with_a_reason(path: Path) -> None:
    # GIVEN a PDF from the wild
    data = path.read_bytes()

    # WHEN parsed, with OCR where Tesseract is installed
    tesseract = shutil.which("tesseract") is not None
    ocr = PageOcr(TesseractOcr(["eng"])) if tesseract else None
    try:
        document = parse_pdf(data, words=True, ocr=ocr)
    except IngestionError as error:
        # THEN a failure is one a user can act on, and the known unreadable files say why
        reason = str(error)
        if "password" in path.name:
            assert reason.startswith("encrypted:")
        elif "imagemagick" in path.name:  # six 16-pixel pictures: nothing to read
            if tesseract:
                assert reason == "no text found, even by OCR"
            else:
                assert reason.startswith("no text layer:")
        else:
            assert reason.split(":")[0] in {"encrypted", "not a readable PDF", "no text layer"}
        return

    # THEN, when it parses, it has text, and every box lies inside its page
    assert "password" not in path.name and "imagemagick" not in path.name
    assert document.page_count >= 1
    assert any(page.text.strip() for page in document.pages)
    assert_boxes_inside_pages(document)
    for page in document.pages:
        for w in page.words:
            assert page.text[w.start : w.end] == w.text


# --- text normalisation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "text", "cmap"),
    [
        # a ligature becomes its letters, both pointing at the ligature's character
        ("e\ufb03cient  file", "efficient file", [0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12]),
        # control and invisible characters go; full-width forms fold to ASCII
        ("a\u200bb\x01 \uff21", "ab A", [0, 2, 4, 5]),
        # a trailing invisible character leaves no trailing space
        ("end \u200b", "end", [0, 1, 2]),
        # Arabic presentation forms fold to the letters people type
        ("\ufe8d\ufedf", "\u0627\u0644", [0, 1]),
    ],
)
def test_line_text_is_folded_and_mapped_back_to_its_characters(
    raw: str, text: str, cmap: list[int]
) -> None:
    from certiq.ingestion.pdf_lines import _normalise

    folded, mapping = _normalise(raw, 0)
    assert folded == text
    assert mapping == cmap
    assert len(mapping) == len(folded)


def test_ligatures_in_a_pdf_read_as_letters_with_true_boxes() -> None:
    # GIVEN a line drawn with a ligature character (as typesetting systems emit them)
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    fonts = sorted(Path("/usr/share/fonts").rglob("DejaVuSans.ttf"))
    if not fonts:
        pytest.skip("no TrueType font with ligature glyphs installed")
    pdfmetrics.registerFont(TTFont("DejaVu", str(fonts[0])))

    def draw(canvas: Canvas) -> None:
        canvas.setFont("DejaVu", 12)
        canvas.drawString(72, 700, "An e\ufb03cient \ufb01ling system.")

    # WHEN parsed
    page = parse_pdf(draw_pdf(draw), words=True).pages[0]

    # THEN the text has plain letters, and the words' boxes still cover the ink
    assert page.text == "An efficient filing system."
    assert [s.text for s in page.sentences] == ["An efficient filing system."]
    assert ink_outside_boxes(draw_pdf(draw), page) == 0


# --- form fields -------------------------------------------------------------------------------


def filled_form() -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    form = canvas.acroForm
    canvas.drawString(72, 720, "Employee name:")
    form.textfield(name="emp_name", tooltip="Employee name", value="Jane Smith", x=180, y=712)
    canvas.drawString(72, 680, "Manager:")
    form.textfield(name="form1[0].manager_name[0]", value="Omar Haddad", x=180, y=672)
    form.textfield(name="notes", value="", x=180, y=632)  # left empty
    form.checkbox(name="remote_work", tooltip="", checked=True, x=180, y=600)
    form.checkbox(name="relocation", checked=False, x=180, y=570)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_filled_form_fields_are_read_as_text_of_their_page_boxed_where_drawn() -> None:
    # GIVEN a form whose values live only in its fields (the page draws just the labels)
    page = parse_pdf(filled_form()).pages[0]

    # THEN the filled fields read as one sentence after the page's text, "<label>: <value>"
    # each, labelled by the text printed beside it, else by its tooltip, else by its name
    sentences = [sentence.text for sentence in page.sentences]
    assert sentences == [
        "Employee name:",
        "Manager:",
        "Employee name: Jane Smith; Manager: Omar Haddad; remote work: Yes.",
    ]
    # AND each field's line is boxed where the field is drawn (origin top-left)
    name, manager, remote = page.sentences[2].boxes
    assert (name.x0, name.x1) == (180.0, 300.0)  # reportlab's default width is 120
    assert name.page_height - name.y1 == pytest.approx(712, abs=0.01)
    assert name.y0 < manager.y0 < remote.y0
    # AND empty fields and unticked boxes add nothing
    assert "notes" not in page.text and "relocation" not in page.text


def test_a_page_whose_crop_box_misses_its_media_box_is_read_within_the_media_box() -> None:
    # GIVEN a page cropped to an area outside its MediaBox: nothing would be visible
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792), invariant=1)
    canvas.setCropBox((700, 900, 1300, 1700))
    canvas.drawString(72, 700, "Backups of customer data are kept for 35 days.")
    canvas.showPage()
    canvas.save()

    # WHEN parsed, and rendered as the page viewer renders it
    page = parse_pdf(out.getvalue()).pages[0]
    png = render_page(out.getvalue(), 1, 72)

    # THEN its text is read, boxed on the MediaBox, the same size as the rendered image
    assert page.text == "Backups of customer data are kept for 35 days."
    assert (page.width, page.height) == (612, 792)
    (box,) = page.sentences[0].boxes
    assert 792 - 700 - 12 < box.y0 < 792 - 700 < box.y1  # around the baseline at y=700
    assert struct.unpack(">II", png[16:24]) == (612, 792)
