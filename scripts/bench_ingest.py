"""Benchmark: ingestion throughput in pages per second, against raw pypdfium2 text extraction.

When to run it: `make bench` runs it; run it after changing PDF parsing, chunking or embedding on
ingest.

For a generated document (reportlab, --pages pages of policy-like prose with a running header and
a page-number footer) and for every PDF under --pdfs that parses, in the same run and with the
stages interleaved so that machine load hits them alike:

  raw          pypdfium2 alone: open, then get_textpage + get_text_range on every page
  parse        certiq's parser: lines, hyphenation, furniture, sentences and their boxes
  parse+chunk  the above and chunking (certiq.ingestion.chunking.chunk_pdf, as ingestion runs it)
  +embed       the above and embedding every chunk, when bootstrap builds an embedder

Each stage runs --repeat times per file; the table gives min and median pages/s, and the ratio
parse+chunk / raw (on the min times, the least disturbed). Times are the process's CPU time
(time.process_time), which other processes on a busy machine disturb far less than wall time;
--wall measures wall time. +embed is always wall time (its numeric library runs threads). The
product target is >= 0.5.

    python scripts/bench_ingest.py [--pages 200] [--repeat 7] [--pdfs DIR]
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from certiq.config import ChunkingSettings, Settings
from certiq.errors import IngestionError
from certiq.ingestion.chunking import chunk_pdf
from certiq.ingestion.pdf import iter_page_batches
from certiq.models import SourceRef
from certiq.ports import Embedder

SHARED_PDFS = Path("/work/shared/data/pdfs")
# CPU time of this process: on a shared machine, wall time also counts the other processes'
# turns on the CPU. --wall measures wall time instead.
clock = time.process_time
SOURCE = SourceRef(uri="file:///bench.pdf", file_name="bench.pdf", sha256="0" * 64, version="1")

SUBJECTS = [
    "Backups of customer data",
    "Application logs",
    "Invoices and credit notes",
    "Support tickets",
    "Access reviews",
    "Security incidents",
    "Laptop disk images",
    "Payroll records",
    "Vendor contracts",
    "Applicant data",
]
VERBS = ["are kept for", "are retained for", "must be reviewed every", "are archived after"]
PERIODS = ["35 days", "13 months", "7 years", "90 days", "6 months", "3 years", "12 weeks"]
TAILS = [
    "and then deleted by the nightly job.",
    "unless a legal hold applies to them.",
    "as required by the applicable tax law.",
    "i.e. long enough for investigations by the security team.",
    "after which the owner confirms the deletion in writing.",
]


def generated_pdf(pages: int, seed: int = 7) -> bytes:
    """A policy-like document: headings, dense paragraphs, a running header, page numbers."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate

    rng = random.Random(seed)
    styles = getSampleStyleSheet()

    def sentence() -> str:
        return (
            f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(PERIODS)} {rng.choice(TAILS)}"
        )

    def furniture(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(72, A4[1] - 40, "Northwind Analytics Ltd. - Data Retention Policy v3.2")
        canvas.drawRightString(A4[0] - 72, 30, f"Page {document.page} of {pages}")
        canvas.restoreState()

    story: list[Flowable] = []
    for number in range(1, pages + 1):
        if number > 1:
            story.append(PageBreak())
        story.append(Paragraph(f"{number}. Section {number}", styles["Heading2"]))
        for _ in range(4):
            story.append(Paragraph(" ".join(sentence() for _ in range(6)), styles["BodyText"]))
    out = io.BytesIO()
    template = SimpleDocTemplate(out, pagesize=A4, invariant=1)
    template.build(story, onFirstPage=furniture, onLaterPages=furniture)
    return out.getvalue()


def raw_extraction(data: bytes) -> int:
    pdf = pdfium.PdfDocument(data)
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        return len(pdf)
    finally:
        pdf.close()


def parse_only(data: bytes, *, settings: ChunkingSettings) -> int:
    pages = 0
    for batch in iter_page_batches(
        data, batch_pages=settings.page_batch, max_sentence_chars=settings.target_chars
    ):
        pages += len(batch)
    return pages


def parse_and_chunk(data: bytes, *, settings: ChunkingSettings) -> int:
    pages = 0
    for batch in chunk_pdf(data, doc_id="dbench", tenant="t", source=SOURCE, settings=settings):
        pages += batch.pages
    return pages


def embed_stage(data: bytes, *, settings: ChunkingSettings, model: Embedder) -> int:
    return parse_chunk_embed(data, settings, model)


def parse_chunk_embed(data: bytes, settings: ChunkingSettings, embedder: Embedder) -> int:
    pages = 0
    for batch in chunk_pdf(data, doc_id="dbench", tenant="t", source=SOURCE, settings=settings):
        pages += batch.pages
        if batch.chunks:
            embedder.embed([chunk.text for chunk in batch.chunks])
    return pages


@dataclass
class Stage:
    name: str
    run: Callable[[bytes], int]
    seconds: list[float] = field(default_factory=list)


def build_embedder(home: Path) -> tuple[Embedder | None, str]:
    """bootstrap's embedder as the Lambda runtime builds it: without the local SQLite cache,
    which would turn every repetition after the first into cache hits."""
    try:
        from certiq.bootstrap import build_embedder as bootstrap_embedder

        embedder = bootstrap_embedder(Settings(home=home))
    except Exception as error:  # the benchmark reports, it does not fail on a missing extra
        return None, f"no embedder: bootstrap failed ({error}); +embed skipped"
    if embedder is None:
        return None, "no embedder: bootstrap built none (lexical-only); +embed skipped"
    return embedder, f"embedder: {embedder.name} (uncached; +embed measured after the others)"


def bench_file(
    label: str, data: bytes, stages: list[Stage], repeat: int
) -> tuple[str, int, list[Stage]] | None:
    try:
        pages = parse_only(data, settings=ChunkingSettings())
    except IngestionError as error:
        print(f"  skipped {label}: {error}", file=sys.stderr)
        return None
    for stage in stages:
        stage.run(data)  # warm up: imports, caches, the page tree
        stage.seconds = []
    for _ in range(repeat):
        for stage in stages:  # interleaved, so a busy moment hits every stage alike
            started = clock()
            stage.run(data)
            stage.seconds.append(clock() - started)
    return label, pages, stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200, help="pages of the generated document")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each stage per file")
    parser.add_argument("--embed-repeat", type=int, default=2, help="runs of +embed per file")
    parser.add_argument("--pdfs", type=Path, default=SHARED_PDFS, help="more PDFs to measure")
    parser.add_argument("--no-embed", action="store_true", help="skip the +embed stage")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    args = parser.parse_args()
    if args.wall:
        global clock
        clock = time.perf_counter

    settings = ChunkingSettings()
    with tempfile.TemporaryDirectory(prefix="certiq-bench-ingest-") as scratch:
        folder = Path(scratch)
        generated = folder / f"generated-{args.pages}-pages.pdf"
        generated.write_bytes(generated_pdf(args.pages))
        files = [generated]
        if args.pdfs.is_dir():
            files += sorted(args.pdfs.glob("*.pdf"))

        rows = []
        for path in files:
            stages = [
                Stage("raw", raw_extraction),
                Stage("parse", functools.partial(parse_only, settings=settings)),
                Stage("parse+chunk", functools.partial(parse_and_chunk, settings=settings)),
            ]
            result = bench_file(path.name, path.read_bytes(), stages, args.repeat)
            if result is not None:
                rows.append(result)

        # Embedding runs last, on its own: its numeric threads would disturb the other stages.
        embedder, note = (None, "embedding skipped (--no-embed)")
        if not args.no_embed:
            embedder, note = build_embedder(folder / "home")
        if embedder is not None:
            by_name = {path.name: path for path in files}
            for label, _pages, stages in rows:
                stage = Stage(
                    "+embed", functools.partial(embed_stage, settings=settings, model=embedder)
                )
                data = by_name[label].read_bytes()
                for _ in range(args.embed_repeat):
                    # Wall time: the embedder's numeric library runs threads, whose CPU time
                    # would add up to more than the stage takes.
                    started = time.perf_counter()
                    stage.run(data)
                    stage.seconds.append(time.perf_counter() - started)
                stages.append(stage)

    print(note)
    names = ["raw", "parse", "parse+chunk"] + (["+embed"] if embedder is not None else [])
    header = f"{'file':<44} {'pages':>5}  " + "  ".join(f"{n + ' min/med':>20}" for n in names)
    print(header + f"  {'p+c/raw':>8}")
    for label, pages, stages in rows:
        cells = []
        for stage in stages:
            best, middle = min(stage.seconds), statistics.median(stage.seconds)
            cells.append(f"{pages / best:>9.1f}/{pages / middle:<9.1f}  ")
        ratio = min(stages[0].seconds) / min(stages[2].seconds)
        print(f"{label[:44]:<44} {pages:>5}  " + " ".join(cells) + f"  {ratio:>8.2f}")
    print("pages/s (min time / median time); p+c/raw = raw min time / parse+chunk min time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
