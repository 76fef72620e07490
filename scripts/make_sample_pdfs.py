"""Writes an answerability set's documents as PDFs: python scripts/make_sample_pdfs.py DIR [SET]

When to run it: `make demo` runs it to write the demo's four PDFs into the demo's folder; run it
by hand to look at a set's PDFs (SET: demo, the default, heldout, heldout-b ... heldout-n, as
scripts/answer_sets.py names them). It is also the one PDF maker the benchmarks import
(write_samples, ingest_samples). The documents are data: tests/data/answerability/documents.

Each document gets a title, a version line, numbered headings, paragraphs and bullets, and a
running header and footer on every page; a document marked scanned (the demo's signed supplier
agreement) is written as an office scanner leaves it (an image of each page, no text layer:
read by OCR on ingest). A text PDF is byte-for-byte deterministic (reportlab invariant mode); a
scan's pages are too (a seeded scan), but PDFium stamps the file with its time and a random ID.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from answer_sets import SampleDocument, Section, documents
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer

if TYPE_CHECKING:
    from certiq.deps import Deps

__all__ = ["DOCUMENTS", "SampleDocument", "Section", "build", "ingest_samples", "write_samples"]

DOCUMENTS = documents("demo")


def build(document: SampleDocument, target: Path) -> None:
    styles = getSampleStyleSheet()
    body = ParagraphStyle("body", parent=styles["BodyText"], fontSize=10.5, leading=14)
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=16, bulletIndent=4)
    heading = ParagraphStyle("heading", parent=styles["Heading2"], spaceBefore=10)
    story: list[Flowable] = [
        Paragraph(document.title, styles["Title"]),
        Paragraph(
            f"Version {document.version}. Effective {document.effective}. Owner: {document.owner}.",
            body,
        ),
        Spacer(1, 6),
    ]
    for section in document.sections:
        story.append(Paragraph(section.heading, heading))
        story.extend(Paragraph(text, body) for text in section.paragraphs)
        story.extend(Paragraph(text, bullet, bulletText="•") for text in section.bullets)
    template = SimpleDocTemplate(
        str(target),
        pagesize=A4,
        leftMargin=22 * mm,
        rightMargin=22 * mm,
        topMargin=24 * mm,
        bottomMargin=22 * mm,
        title=document.title,
        author=document.company,
        invariant=1,
    )
    decorate = _page_decoration(document)
    template.build(story, onFirstPage=decorate, onLaterPages=decorate)
    if document.scanned:
        from certiq.evaluation.scans import scanned_copy

        target.write_bytes(scanned_copy(target.read_bytes(), skew_degrees=0.6, noise=8, seed=1))


def _page_decoration(document: SampleDocument) -> Callable[[Canvas, SimpleDocTemplate], None]:
    def decorate(canvas: Canvas, template: SimpleDocTemplate) -> None:
        width, height = A4
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(22 * mm, height - 14 * mm, f"{document.company} | {document.title}")
        canvas.drawRightString(width - 22 * mm, height - 14 * mm, "Internal")
        canvas.drawString(22 * mm, 12 * mm, f"Version {document.version}")
        canvas.drawRightString(width - 22 * mm, 12 * mm, f"Page {canvas.getPageNumber()}")
        canvas.restoreState()

    return decorate


def write_samples(folder: Path, documents: tuple[SampleDocument, ...] = DOCUMENTS) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for document in documents:
        target = folder / document.file_name
        build(document, target)
        written.append(target)
    return written


def ingest_samples(
    deps: Deps, folder: Path, documents: tuple[SampleDocument, ...] = DOCUMENTS
) -> None:
    """Writes the samples into ``folder`` and ingests each into ``deps`` (tenant "default"), as
    the benchmarks that ask the demo's documents (or another set) need them."""
    from certiq.ingestion.service import Upload, ingest

    for path in write_samples(folder, documents):
        upload = Upload(
            data=path.read_bytes(), file_name=path.name, uri=path.as_uri(), tenant="default"
        )
        ingest(upload, deps)


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: make_sample_pdfs.py OUTPUT_DIR [SET]", file=sys.stderr)
        return 2
    chosen = documents(argv[2]) if len(argv) == 3 else DOCUMENTS
    for target in write_samples(Path(argv[1]), chosen):
        print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
