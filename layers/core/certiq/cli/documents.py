"""`certiq ingest`, `retry` and `documents`: documents in, and their state."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from certiq.errors import CertiqError, DuplicateContent, TransientError

if TYPE_CHECKING:
    from certiq.deps import Deps
    from certiq.models import (
        DocumentRecord,
        DocumentStatus,
        SourceType,
    )

from certiq.cli.app import checked_name, command_deps, main


@main.command("ingest")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--tenant", default=None, help="tenant to ingest into (default: settings)")
@click.option(
    "--collection",
    default=None,
    callback=checked_name,
    help="a named subset questions can be limited to",
)
@click.option(
    "--jsonl",
    "jsonl",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help='a text corpus: one {"_id", "title", "text"} object per line',
)
@click.option(
    "--source-type",
    type=click.Choice(["text", "web"]),
    default="text",
    show_default=True,
    help="source type recorded for --jsonl documents",
)
def ingest_command(
    paths: tuple[Path, ...],
    tenant: str | None,
    collection: str | None,
    jsonl: Path | None,
    source_type: SourceType,
) -> None:
    """Ingest PDF files, every PDF under the given folders, or a JSONL text corpus."""
    from certiq.ingestion.service import Upload, ingest
    from certiq.ingestion.text import ingest_texts, read_jsonl
    from certiq.models import DocumentStatus

    deps = command_deps()
    _end_interrupted(deps, tenant or deps.settings.tenant)
    if jsonl is not None:
        records = ingest_texts(
            read_jsonl(jsonl),
            deps,
            corpus_uri=jsonl.resolve().as_uri(),
            tenant=tenant or deps.settings.tenant,
            source_type=source_type,
            collection=collection,
        )
        indexed = sum(record.status is DocumentStatus.INDEXED for record in records)
        click.echo(f"{indexed} of {len(records)} documents from {jsonl} indexed.")
        if not paths:
            sys.exit(0 if indexed else 1)
    if not paths:
        raise click.UsageError("give PDF files or folders, or --jsonl FILE")
    files = sorted({file for path in paths for file in _pdfs(path)})
    if not files:
        raise click.ClickException("no PDF files found in the given paths")
    results: list[tuple[Path, DocumentStatus | None, str | None]] = []
    # The bar names the file being read; each file's outcome is printed as soon as it is known,
    # so a long run shows what is done and an interrupted one what was not.
    with click.progressbar(
        files,
        label="Ingesting",
        file=sys.stderr,
        item_show_func=lambda file: file.name if file is not None else None,
    ) as bar:
        for file in bar:
            upload = Upload(
                data=file.read_bytes(),
                file_name=file.name,
                uri=file.resolve().as_uri(),
                tenant=tenant or deps.settings.tenant,
                collection=collection,
            )
            result: tuple[Path, DocumentStatus | None, str | None]
            try:
                record = ingest(upload, deps)
                result = (file, record.status, _detail(record))
            except DuplicateContent as error:
                result = (file, None, str(error))
            except Exception as error:  # one bad file must not stop the others
                why = "" if isinstance(error, TransientError) else "internal error: "  # worded
                result = (file, DocumentStatus.FAILED, f"{why}{error}")
            results.append(result)
            label = result[1].value if result[1] is not None else "SAME"
            click.echo(f"{label:<8} {file}  ({result[2]})")
    indexed = sum(status is DocumentStatus.INDEXED for _, status, *_ in results)
    same = sum(status is None for _, status, *_ in results)
    also = f"; {same} already there under another name" if same else ""
    click.echo(f"{indexed} of {len(results)} files indexed{also}.")
    if indexed + same == 0:
        sys.exit(1)


def _detail(record: DocumentRecord) -> str:
    """Why a document is not indexed; for an indexed one, its size and any page left out."""
    from certiq.models import DocumentStatus

    if record.status is not DocumentStatus.INDEXED:
        return record.reason or ""
    notes = "".join(f"; page {s.page} skipped: {s.reason}" for s in record.skipped_pages)
    if record.ocr_pages:
        read = ", ".join(f"{p.page} ({p.confidence:.0%})" for p in record.ocr_pages)
        notes += f"; read by OCR ({record.ocr_pages[0].engine}): page {read}"
    notes += "".join(f"; page {d.page} doubtful: {d.reason}" for d in record.doubtful_pages)
    return f"{_count(record.pages, 'page')}, {_count(record.chunks, 'chunk')}{notes}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _end_interrupted(deps: Deps, tenant: str) -> None:
    from certiq.ingestion.leases import end_interrupted

    for record in end_interrupted(tenant, deps):
        click.echo(f"FAILED   {record.file_name} ({record.doc_id}): {record.reason}", err=True)


@main.command("retry")
@click.argument("doc_id")
@click.option("--tenant", default=None)
def retry_command(doc_id: str, tenant: str | None) -> None:
    """Ingest a FAILED document again from its kept original (an interrupted one, say)."""
    from certiq.ingestion.leases import retry
    from certiq.models import DocumentStatus

    deps = command_deps()
    try:
        record = retry(tenant or deps.settings.tenant, doc_id, deps)
    except CertiqError as error:
        raise click.ClickException(str(error)) from error
    detail = _detail(record)
    click.echo(f"{record.status.value:<8} {record.doc_id}  {record.file_name}  ({detail})")
    if record.status is not DocumentStatus.INDEXED:
        sys.exit(1)


def _pdfs(path: Path) -> list[Path]:
    if path.is_dir():
        return [
            file for file in path.rglob("*") if file.suffix.lower() == ".pdf" and file.is_file()
        ]
    return [path]


@main.command("documents")
@click.option("--json", "as_json", is_flag=True)
@click.option("--tenant", default=None)
def documents_command(as_json: bool, tenant: str | None) -> None:
    """List documents with their status, reason, pages and chunks."""
    from certiq.ingestion.leases import end_interrupted

    deps = command_deps()
    listed = deps.documents.list(tenant or deps.settings.tenant)
    ended = end_interrupted(tenant or deps.settings.tenant, deps, records=listed)
    records = list({record.doc_id: record for record in [*listed, *ended]}.values())
    if as_json:
        click.echo(json.dumps([record.model_dump(mode="json") for record in records], indent=2))
        return
    for record in records:
        detail = _detail(record)
        click.echo(f"{record.status.value:<10} {record.doc_id}  {record.file_name}  ({detail})")
    if not records:
        click.echo("No documents yet: certiq ingest PATH...")
