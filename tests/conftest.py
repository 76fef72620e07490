"""Fixtures shared by every suite. PDFs are generated with reportlab, deterministically."""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence

# One BLAS thread, set before numpy loads OpenBLAS: on a shared or busy CPU its worker threads
# spin against each other and made MiniLM's small matrix products 10-100x slower (test_minilm:
# 25 s instead of 2 s). Results do not depend on it; an explicit setting is kept.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pytest
from PIL import Image
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from tests.provider_fakes import ProviderServer
from tests.provider_fakes import serve as serve_provider

# The real OpenSearch node's fixtures: opensearch_node (one per run) and opensearch_url.
pytest_plugins = ["tests.opensearch"]

MakePdf = Callable[[Sequence[Sequence[str]]], bytes]

REAL_EMBEDDER_MARK = "real_embedder"

# Scanned pages are read by Debian's Tesseract, which `make test` installs (as Chromium).
needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="Tesseract is not installed (`make test` installs it with apt-get; here it could not)",
)


# A test's layer is its folder: how much of the system is real (docs/architecture.md, "Tests").
LAYERS = frozenset({"unit", "contract", "pipeline", "infra", "browser"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test with its folder's layer, so `pytest -m unit` is exactly tests/unit."""
    for item in items:
        layer = item.path.parent.name
        if layer in LAYERS:
            item.add_marker(layer)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{REAL_EMBEDDER_MARK}: keep the configured embedding provider (auto: MiniLM) instead of"
        " the suite's default, none",
    )


# --- embeddings ---------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _lexical_only_by_default(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings() builds no embedder unless a test says otherwise.

    MiniLM (the "auto" default when installed) embeds ~10-50 texts/s on numpy: tests that do not
    measure it use lexical-only deps, or tests.fakes.HashingEmbedder. Explicit settings
    (EmbeddingSettings(provider=...)) still win; @pytest.mark.real_embedder opts out.
    """
    if request.node.get_closest_marker(REAL_EMBEDDER_MARK) is None:
        monkeypatch.setenv("CERTIQ_EMBEDDING__PROVIDER", "none")


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


# A retention schedule set as a table: a bold header, a cell that wraps, reportlab drawing it cell
# by cell (so a row's last cell comes after the lines of the wrapped one, higher up the page).
SCHEDULE_ROWS = (
    ("Record type", "Retention period", "Owner"),
    (
        "Invoices",
        "Seven years after the end of the financial year in which they were issued.",
        "Finance",
    ),
    ("Employee records", "Six years after employment ends.", "People team"),
    ("CCTV footage", "30 days, unless an incident is under investigation.", "Facilities"),
)
SCHEDULE_BEFORE = "Every record is kept for the period the schedule below sets, and then deleted."
SCHEDULE_AFTER = "Records not in the schedule are kept for two years."


def build_table_pdf() -> bytes:
    """A page with a sentence, the retention schedule table (SCHEDULE_ROWS), and a sentence."""
    style = getSampleStyleSheet()["BodyText"]
    header, *body = SCHEDULE_ROWS
    rows = [[Paragraph(f"<b>{label}</b>", style) for label in header]]
    rows += [[Paragraph(text, style) for text in row] for row in body]
    table = Table(rows, colWidths=[120, 250, 100])
    table.setStyle(
        TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "grey"), ("VALIGN", (0, 0), (-1, -1), "TOP")])
    )
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=LETTER, invariant=1).build(
        [
            Paragraph(SCHEDULE_BEFORE, style),
            Spacer(1, 12),
            table,
            Spacer(1, 12),
            Paragraph(SCHEDULE_AFTER, style),
        ]
    )
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


@pytest.fixture
def provider_server() -> Iterator[ProviderServer]:
    """A fake Anthropic / OpenAI HTTP server on 127.0.0.1 (tests/provider_fakes.py)."""
    yield from serve_provider()


@pytest.fixture
def provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys in both SDKs' variables, which their clients need; the provider fakes accept any."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def break_page(data: bytes, index: int) -> bytes:
    """The PDF with its ``index``-th page object (0-based) made unreadable: the dictionary's
    delimiters blanked, offsets kept, so pdfium counts the page but cannot load it."""
    import re

    pages = [
        match
        for match in re.finditer(rb"\d+ 0 obj\s*<<(.*?)>>\s*endobj", data, re.S)
        if re.search(rb"/Type /Page\b(?!s)", match.group(1))
    ]
    target = pages[index]
    broken = bytearray(data)
    broken[target.start(1) - 2 : target.start(1)] = b"  "
    broken[target.end(1) : target.end(1) + 2] = b"  "
    return bytes(broken)


def wrong_cmap_pdf(lines: Sequence[str], shift: int = 7) -> bytes:
    """One page of Helvetica text whose font carries a wrong ToUnicode map: the page shows the
    lines, its text layer gives every lower-case letter `shift` places on ("the" -> "aol").

    Written by hand, object by object: reportlab never writes a map for the standard fonts.
    """
    content = "BT /F1 12 Tf 14 TL 72 720 Td " + " ".join(
        "(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") '"
        for line in lines
    )
    content += " ET"
    pairs = "\n".join(
        f"<{code:02X}> <{ord('a') + (code - ord('a') + shift) % 26:04X}>"
        for code in range(ord("a"), ord("z") + 1)
    )
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"26 beginbfchar\n{pairs}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding"
        " /ToUnicode 6 0 R >>",
        f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)
