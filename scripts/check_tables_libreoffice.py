"""A check outside `make bench`: tables laid out by another program than the bench's reportlab.

When to run it: by hand, with a fresh --seed, after changing table reading
(certiq.ingestion.tables): the README's figure for tables LibreOffice laid out comes from it. Not in
`make bench`: it needs python-docx and LibreOffice, which certiq does not.

Word-style tables (python-docx writes them, at random, as scripts/bench_tables.py draws its
own) are laid out by LibreOffice Writer and read back as certiq reads a PDF. Neither program is
a dependency of certiq, so this script installs nothing: it says what is missing.

    pip install python-docx            # into any environment this script runs in
    apt-get install libreoffice-writer-nogui
    .venv/bin/python scripts/check_tables_libreoffice.py [--tables 100] [--seed 53]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_tables import Drawn, Tally, cell_text, phrase


def word_table(rng: random.Random, path: Path) -> Drawn:
    """A .docx with a sentence, one table and a sentence; the table as drawn."""
    from docx import Document  # type: ignore[import-not-found]

    document = Document()
    document.add_paragraph("Each entry below is reviewed by its owner once a year.")
    columns = rng.randint(2, 5)
    choices = ("short", "figure", "period", "long")
    kinds = ["short"] + [rng.choice(choices) for _ in range(columns - 1)]
    if columns == 2 and kinds[1] == "long":
        kinds[1] = "short"  # a term and a sentence are a list (by design)
    header_kind = rng.choice(("bold", "bold", "regular", "none"))
    header = None if header_kind == "none" else [phrase(rng, 1, 2) for _ in range(columns)]
    rows = [[cell_text(rng, kind) for kind in kinds] for _ in range(rng.randint(3, 9))]
    if header is not None and header_kind == "regular":
        for row in rows:
            row[-1] = cell_text(rng, "figure")
    style = rng.choice(("Table Grid", None))
    table = document.add_table(rows=0, cols=columns)
    if style:
        table.style = style
    if header is not None:
        for cell, text in zip(table.add_row().cells, header, strict=True):
            cell.paragraphs[0].add_run(text).bold = header_kind == "bold"
    for row in rows:
        for cell, text in zip(table.add_row().cells, row, strict=True):
            cell.paragraphs[0].add_run(text)
    document.add_paragraph("Entries not listed above are kept for two years and then deleted.")
    document.save(str(path))
    return Drawn(None if header is None else tuple(header), tuple(tuple(row) for row in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args()
    soffice = shutil.which("soffice")
    try:
        import docx  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.exit("python-docx is not installed here: pip install python-docx")
    if soffice is None:
        sys.exit("LibreOffice is not installed: apt-get install libreoffice-writer-nogui")
    rng = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        drawn = [word_table(rng, Path(folder) / f"t{n:04d}.docx") for n in range(args.tables)]
        subprocess.run(
            [soffice, "--headless", "--convert-to", "pdf", "--outdir", folder]
            + [str(Path(folder) / f"t{n:04d}.docx") for n in range(args.tables)],
            check=True,
            capture_output=True,
            timeout=1800,
        )
        for number, table in enumerate(drawn):
            tally.add((Path(folder) / f"t{number:04d}.pdf").read_bytes(), table)
    tally.report(f"tables laid out by LibreOffice: {args.tables} (seed {args.seed})")


if __name__ == "__main__":
    main()
