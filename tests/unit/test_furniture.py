"""Running headers and page-number footers stay out of the text that is chunked and cited."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate

from certiq.config import ChunkingSettings
from certiq.ingestion.chunking import chunk_document
from certiq.ingestion.furniture import (
    Furniture,
    LineSample,
    PageSample,
    detect_furniture,
    furniture_key,
    sample_numbers,
)
from certiq.ingestion.pdf import parse_pdf
from certiq.models import SourceRef

HEADER = "Northwind Analytics Ltd. - Data Retention Policy v3.2"
HEIGHT = 842.0
BODIES = ["Backups of customer data", "Application logs", "Support tickets", "Invoices"]
OWNERS = ["The security team", "Finance", "The data protection officer"]


def policy_pdf(pages: int, *, header: str = HEADER, footer: bool = True) -> bytes:
    """`pages` pages of body text under a running header and over a "Page N of M" footer."""
    styles = getSampleStyleSheet()

    def furniture(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        if header:
            canvas.drawString(72, A4[1] - 40, header)
        if footer:
            canvas.drawRightString(A4[0] - 72, 30, f"Page {document.page} of {pages}")
        canvas.restoreState()

    story: list[Flowable] = []
    for number in range(1, pages + 1):
        if number > 1:
            story.append(PageBreak())
        subject = BODIES[(number - 1) % len(BODIES)]
        story.append(Paragraph(f"{subject} are kept for {number + 30} days.", styles["BodyText"]))
        story.append(Paragraph(f"{OWNERS[number % len(OWNERS)]} owns them.", styles["BodyText"]))
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4, invariant=1).build(
        story, onFirstPage=furniture, onLaterPages=furniture
    )
    return out.getvalue()


def page(*lines: tuple[str, float, float]) -> PageSample:
    return PageSample(HEIGHT, tuple(LineSample(text, top, bottom) for text, top, bottom in lines))


# --- detection -------------------------------------------------------------------------------


def test_a_line_repeated_at_the_top_of_most_pages_is_furniture() -> None:
    # GIVEN four pages with the same top line and a changing page number at the bottom
    pages = [
        page(("ACME Confidential", 30, 40), (f"Body text {n}", 300, 312), (f"Page {n}", 810, 820))
        for n in range(1, 5)
    ]

    # WHEN furniture is detected
    found = detect_furniture(pages)

    # THEN the header and the footer (digits normalised) are furniture, the body is not
    assert found.drops("ACME Confidential", 30, 40, HEIGHT)
    assert found.drops("Page 17", 810, 820, HEIGHT)
    assert not found.drops("Body text 1", 300, 312, HEIGHT)
    # AND the same text in the middle of a page is kept: only the bands hold furniture
    assert not found.drops("ACME Confidential", 400, 410, HEIGHT)


def test_a_line_on_fewer_than_half_the_pages_or_three_pages_is_kept() -> None:
    # GIVEN a top line on 2 of 5 pages, and a document of 2 pages with a repeated header
    body = ("Body text", 300, 312)
    five = [page(("Draft", 30, 40), body)] * 2 + [page(("Other", 30, 40), body)] * 3
    two = [page(("ACME Confidential", 30, 40), body)] * 2

    # WHEN detected / THEN neither is furniture
    assert detect_furniture(five).lines == frozenset({("top", "other")})
    assert detect_furniture(two) == Furniture()


def test_lines_of_pages_without_body_text_are_never_taken_for_furniture() -> None:
    # GIVEN five short pages, each one numbered rule near the top and nothing else
    pages = [page((f"Rule {n}: records are kept for {n} days.", 72, 84)) for n in range(1, 6)]

    # WHEN detected / THEN the rules are body text, not a header
    assert detect_furniture(pages) == Furniture()


def test_keys_normalise_digits_case_and_spaces() -> None:
    assert furniture_key("Page 3  of 40") == furniture_key("page 12 of 40") == "page # of #"
    assert furniture_key("Version 2.1") == "version #.#"


def test_the_sample_spreads_over_the_document_and_depends_only_on_its_length() -> None:
    # GIVEN a short and a long document
    assert sample_numbers(5) == [1, 2, 3, 4, 5]
    numbers = sample_numbers(1000)

    # THEN a long one is sampled from first to last page, at most 24 pages, in order
    assert numbers[0] == 1 and numbers[-1] == 1000
    assert len(numbers) == 24 and numbers == sorted(set(numbers))


# --- in parsed documents ---------------------------------------------------------------------


def test_running_header_and_page_numbers_are_dropped_from_page_text() -> None:
    # GIVEN a 4-page policy with a running header and a "Page N of 4" footer
    document = parse_pdf(policy_pdf(4))

    # THEN neither appears in any page's text, lines or sentences; the body does
    for parsed in document.pages:
        assert "Northwind" not in parsed.text
        assert "of 4" not in parsed.text
        subject = BODIES[(parsed.number - 1) % len(BODIES)]
        owner = OWNERS[parsed.number % len(OWNERS)]
        assert (
            parsed.text
            == f"{subject} are kept for {parsed.number + 30} days.\n\n{owner} owns them."
        )
        assert all(not s.text.startswith("Page ") for s in parsed.sentences)
    # AND so no chunk quotes them
    source = SourceRef(uri="file:///p.pdf", file_name="p.pdf", sha256="0" * 64, version="1")
    chunks = chunk_document(
        document, doc_id="d1", tenant="t", source=source, settings=ChunkingSettings()
    )
    assert chunks and all("Northwind" not in c.text and "Page 2" not in c.text for c in chunks)


def test_short_documents_and_unrepeated_lines_keep_their_header() -> None:
    # GIVEN a two-page document with a header (too few pages to call it furniture)
    two_pages = parse_pdf(policy_pdf(2))

    # THEN the header is kept as text
    assert all(HEADER in parsed.text for parsed in two_pages.pages)


def test_a_page_of_only_furniture_is_empty_not_a_missing_text_layer() -> None:
    # GIVEN a document whose last pages hold nothing but the header and the footer
    pdf = policy_pdf(3)
    data = _append_blank_pages_with_furniture(pdf, 2)

    # WHEN parsed / THEN it parses: those pages are empty, the others keep their body
    document = parse_pdf(data)
    assert [bool(p.text) for p in document.pages] == [True, True, True, False, False]
    # AND a document of nothing but furniture-like lines keeps them: they are its body
    only_furniture = parse_pdf(furniture_only_pdf(4))
    assert all(HEADER in p.text for p in only_furniture.pages)


def _append_blank_pages_with_furniture(pdf: bytes, count: int) -> bytes:
    """The PDF followed by `count` pages with only the header and a page number drawn."""
    import pypdfium2 as pdfium

    merged = pdfium.PdfDocument(pdf)
    first = len(merged) + 1
    merged.import_pages(pdfium.PdfDocument(furniture_only_pdf(count, first, first + count - 1)))
    out = io.BytesIO()
    merged.save(out)
    return out.getvalue()


def furniture_only_pdf(count: int, first: int = 1, total: int | None = None) -> bytes:
    """`count` pages holding only the running header and "Page N of M"."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=1)
    for index in range(count):
        canvas.setFont("Helvetica", 8)
        canvas.drawString(72, A4[1] - 40, HEADER)
        canvas.drawRightString(A4[0] - 72, 30, f"Page {first + index} of {total or count}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_furniture_can_be_kept_when_asked() -> None:
    document = parse_pdf(policy_pdf(4), furniture=False)
    assert all(HEADER in parsed.text for parsed in document.pages)
    assert "Page 3 of 4" in document.pages[2].text
