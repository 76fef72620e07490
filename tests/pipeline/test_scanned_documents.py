"""Scanned pages through the whole pipeline: read by Tesseract, indexed, asked about, cited with
boxes on the scan, and recorded as read by OCR (the `certiq` command, the real stores)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner, Result

from certiq.cli import main
from certiq.evaluation.scans import scanned_copy
from certiq.ingestion.pdf import parse_pdf
from tests.conftest import build_pdf, needs_tesseract

PAGES = [
    ["Data retention policy.", "Backups of customer data are kept for 35 days and then deleted."],
    [
        "Incident reporting.",
        "Incidents of severity one are reported to the regulator within 4 hours.",
        "Incidents of severity two are reported within 3 days.",
    ],
]


def run(home: Path, *args: str, **env: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"CERTIQ_HOME": str(home), **env})


def first_page_typed_second_scanned() -> bytes:
    """PAGES as one PDF: page 1 with its text layer, page 2 a scanned image of itself."""
    typed = build_pdf(PAGES)
    scanned = scanned_copy(typed, dpi=200, seed=3)
    merged = pdfium.PdfDocument.new()
    merged.import_pages(pdfium.PdfDocument(typed), [0])
    merged.import_pages(pdfium.PdfDocument(scanned), [1])
    out = io.BytesIO()
    merged.save(out)
    return out.getvalue()


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "policy.pdf").write_bytes(first_page_typed_second_scanned())
    return folder


@needs_tesseract
def test_a_scanned_page_is_answered_from_with_a_box_on_the_scan(
    tmp_path: Path, inbox: Path
) -> None:
    home = tmp_path / "home"
    # GIVEN a policy whose second page is a scan, ingested
    assert run(home, "ingest", str(inbox)).exit_code == 0

    # THEN its record says page 2 was read by Tesseract, confidently, and nothing was skipped
    (record,) = json.loads(run(home, "documents", "--json").output)
    assert record["status"] == "INDEXED" and record["skipped_pages"] == []
    (ocr_page,) = record["ocr_pages"]
    assert ocr_page["page"] == 2 and ocr_page["engine"] == "tesseract"
    assert ocr_page["confidence"] > 0.8

    # WHEN a question only the scanned page answers is asked
    result = run(home, "ask", "How quickly are severity one incidents reported?", "--json")
    assert result.exit_code == 0, result.output
    response = json.loads(result.output)

    # THEN the answer quotes the scan's sentence, VERIFIED, cited on page 2
    fact = PAGES[1][1]
    verified = [c for c in response["claims"] if c["decision"]["state"] == "VERIFIED"]
    assert any("within 4 hours" in claim["text"] for claim in verified), response["answer"]
    cited = [c for c in response["citations"] if c["quote"] == fact]
    assert cited and cited[0]["page"] == 2
    # AND its box sits where the sentence is printed on the original page (within a few points)
    (printed,) = [s for s in parse_pdf(build_pdf(PAGES)).pages[1].sentences if s.text == fact]
    (box,) = cited[0]["boxes"]
    (expected,) = printed.boxes
    for side in ("x0", "y0", "x1", "y1"):
        assert abs(box[side] - getattr(expected, side)) < 8, (side, box, expected)


def test_with_ocr_off_the_scanned_page_is_skipped_saying_why(tmp_path: Path, inbox: Path) -> None:
    home = tmp_path / "home"
    assert run(home, "ingest", str(inbox), CERTIQ_OCR__ENGINE="none").exit_code == 0
    (record,) = json.loads(run(home, "documents", "--json").output)
    assert record["status"] == "INDEXED"
    assert record["skipped_pages"] == [
        {
            "page": 2,
            "reason": "no text layer: the page is an image, and OCR is off"
            " (CERTIQ_OCR__ENGINE=none)",
        }
    ]
    assert record["ocr_pages"] == []
