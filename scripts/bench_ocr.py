"""Benchmark: OCR of scanned pages, how fast and how right, against the text the pages show.

When to run it: `make bench` runs it; run it after changing OCR (its settings, the Tesseract
adapter, page rendering) or the simulated scans.

A generated policy document (scripts/bench_ingest.py's, --pages pages, with a running header and
page numbers) is scanned here (certiq.evaluation.scans: rendered at --scan-dpi, turned, speckled
with noise, laid back into an image-only PDF) under a few scanner conditions. Each scan is
parsed with OCR as ingestion does, and compared page by page with the original's text layer:

  word accuracy  the share of the original's words OCR read, in order (difflib matching blocks)
  confidence     the mean word confidence the engine reported
  pages/s        wall time of parsing with OCR (render at settings.ocr.dpi + Tesseract)

The original's text is what the reader sees printed, so these are measured on text nobody tuned
the OCR for (Tesseract's stock English model; certiq fits nothing here).

    python scripts/bench_ocr.py [--pages 6] [--scan-dpi 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ingest import generated_pdf

from certiq.adapters.local.tesseract_ocr import TesseractOcr
from certiq.config import Settings
from certiq.evaluation.scans import scanned_copy
from certiq.ingestion.pdf import PageOcr, parse_pdf
from certiq.ingestion.text_quality import word_agreement

# (name, skew in degrees, noise standard deviation in grey levels)
CONDITIONS = [
    ("clean", 0.0, 0.0),
    ("office scanner", 0.8, 10.0),
    ("skewed and noisy", 2.0, 25.0),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--scan-dpi", type=int, default=200, help="resolution of the scan")
    args = parser.parse_args()
    settings = Settings().ocr
    engine = TesseractOcr(settings.languages, dpi=settings.dpi)
    ocr = PageOcr(engine, settings)
    original = generated_pdf(args.pages)
    truth = {page.number: page.text for page in parse_pdf(original, furniture=False).pages}
    rows = []
    for name, skew, noise in CONDITIONS:
        scan = scanned_copy(original, dpi=args.scan_dpi, skew_degrees=skew, noise=noise, seed=11)
        started = time.perf_counter()
        read = parse_pdf(scan, ocr=ocr, furniture=False)
        seconds = time.perf_counter() - started
        accuracy = [word_agreement(truth[page.number], page.text) for page in read.pages]
        missing = len(truth) - len(read.pages)
        accuracy += [0.0] * missing  # a page OCR could not read counts as nothing read
        rows.append(
            {
                "condition": name,
                "skew_degrees": skew,
                "noise": noise,
                "pages": len(truth),
                "word_accuracy_mean": round(statistics.mean(accuracy), 4),
                "word_accuracy_min": round(min(accuracy), 4),
                "confidence_mean": round(
                    statistics.mean(page.ocr_confidence or 0.0 for page in read.pages), 3
                ),
                "pages_per_second": round(len(truth) / seconds, 3),
            }
        )
        print(json.dumps(rows[-1]))
    print(
        json.dumps(
            {
                "engine": engine.name,
                "ocr_dpi": settings.dpi,
                "scan_dpi": args.scan_dpi,
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
