"""Fixtures shared by every suite. PDFs are generated with reportlab, deterministically."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import pytest
from PIL import Image
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate

MakePdf = Callable[[Sequence[Sequence[str]]], bytes]


# --- PDFs ---------------------------------------------------------------------------------------


def build_pdf(pages: Sequence[Sequence[str]]) -> bytes:
    """PDF bytes with one page per item of `pages`, each a list of wrapped paragraphs."""
    style = getSampleStyleSheet()["BodyText"]
    story: list[Flowable] = []
    for index, paragraphs in enumerate(pages):
        if index:
            story.append(PageBreak())
        story.extend(Paragraph(text, style) for text in paragraphs)
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=LETTER, invariant=1).build(story)
    return out.getvalue()


@pytest.fixture
def make_pdf() -> MakePdf:
    """Factory: make_pdf([["para 1", "para 2"], ["page 2 para"]]) -> PDF bytes."""
    return build_pdf


@pytest.fixture
def encrypted_pdf() -> bytes:
    """A PDF that opens only with the user password "secret"."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=LETTER, invariant=1, encrypt="secret")
    canvas.drawString(72, 700, "Only for those who know the password.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.fixture
def corrupt_pdf() -> bytes:
    """The first 300 bytes of a real PDF: a header, then nothing a reader can use."""
    return build_pdf([["This document was cut short in transfer."]])[:300]


@pytest.fixture
def image_only_pdf() -> bytes:
    """A scanned-looking page: an image and a drawn rectangle, no text layer at all."""
    scan = Image.new("L", (200, 100), color=255)
    for x in range(20, 180):
        for y in (30, 50, 70):
            scan.putpixel((x, y), 0)  # lines that look like text to a person, not to a parser
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=LETTER, invariant=1)
    canvas.drawImage(ImageReader(scan), 72, 500, width=400, height=200)
    canvas.rect(60, 480, 424, 240)
    canvas.showPage()
    canvas.save()
    return out.getvalue()
