"""The `certiq` command: ingest, ask, documents, verify and serve, on the local runtime."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from certiq.errors import CertiqError, ConfigurationError, DuplicateContent, TransientError
from certiq.evaluation.commands import eval_group

if TYPE_CHECKING:
    from certiq.deps import Deps
    from certiq.models import (
        Certificate,
        CertificateCheck,
        DocumentRecord,
        DocumentStatus,
        QAResponse,
        RetrievalMode,
        SourceType,
        Statement,
    )


@click.group()
@click.pass_context
def main(ctx: click.Context) -> None:
    """certiq: answers questions over your documents and proves what it says.

    Data lives under CERTIQ_HOME (default ~/.certiq).
    """
    from certiq.config import load_settings

    try:
        ctx.obj = load_settings()
    except ConfigurationError as error:
        # One line naming the variable, not a traceback; 2 as click uses for usage errors.
        click.echo(f"certiq: {error}", err=True)
        sys.exit(2)


def _a_name(_context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """A collection or conversation name, checked as the API checks it (certiq.models.api.Name)."""
    from pydantic import TypeAdapter, ValidationError

    from certiq.models.api import NAME_MAX_LENGTH, Name

    try:
        return TypeAdapter(Name | None).validate_python(value)
    except ValidationError as error:
        raise click.BadParameter(f"must be 1 to {NAME_MAX_LENGTH} characters, not blank") from error


def _deps() -> Deps:
    from certiq.bootstrap import build_deps
    from certiq.config import Settings

    try:
        return build_deps(click.get_current_context().find_object(Settings) or Settings())
    except CertiqError as error:
        raise click.ClickException(str(error)) from error


@main.command("ingest")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--tenant", default=None, help="tenant to ingest into (default: settings)")
@click.option(
    "--collection",
    default=None,
    callback=_a_name,
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

    deps = _deps()
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

    deps = _deps()
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


@main.command("ask")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="print the QAResponse as JSON")
@click.option(
    "--mode",
    type=click.Choice(["bm25", "dense", "hybrid"]),
    default=None,
    help="retrieval mode for this question (default: CERTIQ_RETRIEVAL__MODE, hybrid)",
)
@click.option("--collection", default=None, callback=_a_name, help="search this collection only")
@click.option(
    "--conversation",
    default=None,
    callback=_a_name,
    help="a conversation id: follow-ups are read with its turns",
)
def ask_command(
    question: str, as_json: bool, mode: str | None, collection: str | None, conversation: str | None
) -> None:
    """Ask a question; the answer comes with citations and a certificate."""
    from certiq.models import QuestionStatus
    from certiq.questions import receive
    from certiq.runtime.local import LocalRuntime

    deps = _deps()
    runtime = LocalRuntime(deps)
    state = receive(
        question,
        deps,
        collection=collection,
        conversation_id=conversation,
        retrieval_mode=cast("RetrievalMode | None", mode),
    )
    runtime.run(state)
    record = deps.questions.get(state.question_id)
    if record is None or record.response is None:
        raise click.ClickException(f"question {state.question_id} ended without a response")
    response = record.response
    if as_json:
        click.echo(response.model_dump_json(indent=2))
    else:
        click.echo(_readable(response))
    if response.status is QuestionStatus.FAILED:
        sys.exit(1)


# Offline, every shown sentence is quoted: VERIFIED says the document states it, and only the
# reader (then certiq's reader, per statement) can say whether it answers the question.
QUOTED_OFFLINE = (
    "Quoted offline: VERIFIED means each sentence is the documents' own words."
    " Whether it answers your question is for you to judge."
)
# certiq's judgement, not a proof: the closest passages, none of which it found to answer.
RELATED_READING = "Related reading (closest passages; none was found to state the answer):"
# NOT_FOUND_AS_WRITTEN: the question was searched untranslated, so nothing was checked against it.
UNCHECKED_READING = (
    "Closest passages, in the documents' language (not checked against the question:"
    " it was not translated):"
)


def _readable(response: QAResponse) -> str:
    from certiq.models.documents import named_cells

    lines = [f"Question: {response.question}", f"Status:   {response.status.value}"]
    if response.outcome is not None:
        lines.append(f"Outcome:  {response.outcome.value}")
    refusal = response.validation
    if refusal is not None and not refusal.ok and refusal.reason_code:
        refused_by = f" (refused by {refusal.detector})" if refusal.detector else ""
        lines.append(f"Reason:   {refusal.reason_code}{refused_by}")
    if response.answer:
        lines += ["", "Answer:", f"  {response.answer}"]
        if response.answerer == "extractive" and any(s.shown for s in response.statements):
            lines.append(f"  ({QUOTED_OFFLINE})")
        if judged := [s for s in response.statements if s.shown and s.answers_question is not None]:
            lines.append("  certiq's reader, how likely each sentence answers your question:")
            lines += [f"    {s.answers_question:.2f}  {s.text[:60]}" for s in judged]
    if response.message:
        lines += ["", f"Note: {response.message}"]
    if response.related:
        unchecked = response.outcome == "NOT_FOUND_AS_WRITTEN"
        lines += ["", UNCHECKED_READING if unchecked else RELATED_READING]
        for passage in response.related:
            lines.append(f'  {passage.file_name}, page {passage.page}: "{passage.text}"')
            if passage.cells and any(cell.column for cell in passage.cells):
                lines.append(f"    a table's row: {named_cells(passage.cells)}")
    if response.search is not None and response.search.note:
        lines += ["", f"Search: {response.search.note}"]
    if response.search is not None and response.search.original_query is not None:
        lines += ["", f"Searched as: {response.search.query}  ({response.search.rewriter})"]
    if (reused := response.reused_from) is not None:
        lines += [
            "",
            f"Reused: the verified answer to {reused.question!r}, certificate"
            f" {reused.certificate_id} (its documents are unchanged)",
        ]
    withheld = [statement for statement in response.statements if not statement.shown]
    if withheld:
        lines += ["", f"Withheld: {_withheld_summary(withheld)}"]
        for statement in withheld:
            cited = "".join(f" [{cid}]" for cid in statement.citation_ids)
            lines.append(f"  {statement.state.value}: {statement.text}{cited}")
            lines.append(f"    why: {statement.reason}")
    if response.claims:
        lines += ["", "Claims:"]
        for claim in response.claims:
            decision = claim.decision
            if decision is not None:
                lines.append(
                    f"  {claim.id} {decision.state.value} ({decision.verifier}, "
                    f"entail {decision.entail:.2f}): {decision.reason}"
                )
    if response.citations:
        lines += ["", "Citations:"]
        for citation in response.citations:
            # A wrapped sentence has a box per line: the region they cover on the first page.
            on_first = [b for b in citation.boxes if b.page == citation.boxes[0].page]
            where = (
                f"box ({min(b.x0 for b in on_first):.1f}, {min(b.y0 for b in on_first):.1f})-"
                f"({max(b.x1 for b in on_first):.1f}, {max(b.y1 for b in on_first):.1f}) pt"
                f" of {on_first[0].page_width:.0f}x{on_first[0].page_height:.0f}"
                + (f", {len(on_first)} lines" if len(on_first) > 1 else "")
                if on_first
                else "no box"
            )
            # A sentence a page break cut is cited on both pages: "pages 1-2", the first's box.
            last = max((b.page for b in citation.boxes), default=citation.page)
            pages = (
                f"pages {citation.page}-{last}" if last > citation.page else f"page {citation.page}"
            )
            under = f', under "{citation.section}"' if citation.section else ""
            lines.append(f"  [{citation.id}] {citation.file_name}, {pages}{under}, {where}")
            lines.append(f'       "{citation.quote}"')
    lines += _answered_by(response)
    if response.certificate_id:
        lines += [
            "",
            f"Certificate: {response.certificate_id}  (certiq verify {response.certificate_id})",
        ]
    return "\n".join(lines)


def _withheld_summary(withheld: list[Statement]) -> str:
    """The count and why, as the page says it: "1 statement withheld: its source says otherwise"."""
    from certiq.models import RenderState

    one = len(withheld) == 1
    count = f"{len(withheld)} statement{'' if one else 's'} withheld"
    if all(statement.state is RenderState.BLOCKED for statement in withheld):
        return f"{count}: {'its source says' if one else 'their sources say'} otherwise"
    if all(statement.state is RenderState.UNVERIFIED for statement in withheld):
        return f"{count}: {'its source does' if one else 'their sources do'} not state it"
    return f"{count}: their sources say otherwise or do not state them"


def _answered_by(response: QAResponse) -> list[str]:
    """Who drafted the answer, which providers failed first, and what the model calls cost."""
    lines: list[str] = []
    if response.provider_failures:
        lines += ["", f"Answered by: {response.answerer} (fallback)"]
        lines += [
            f"  {failure.provider} did not answer: {failure.error}: {failure.message}"
            for failure in response.provider_failures
        ]
    usage = response.usage
    if usage is not None and usage.calls:
        lines += [
            "",
            f"Model usage: {usage.input_tokens} input tokens ({usage.cache_read_input_tokens}"
            f" from cache), {usage.output_tokens} output, {usage.latency_ms:.0f} ms in"
            f" {len(usage.calls)} call(s)",
        ]
    return lines


@main.command("documents")
@click.option("--json", "as_json", is_flag=True)
@click.option("--tenant", default=None)
def documents_command(as_json: bool, tenant: str | None) -> None:
    """List documents with their status, reason, pages and chunks."""
    from certiq.ingestion.leases import end_interrupted

    deps = _deps()
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


@main.command("verify")
@click.argument("certificate_id", required=False)
@click.option("--all", "walk", is_flag=True, help="check every certificate and the chain")
@click.option(
    "--file",
    "exported",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="an exported certificate (JSON), checked with --public-key alone",
)
@click.option(
    "--public-key",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="the published public key (PEM) to check --file with",
)
@click.option("--tenant", default=None, help="tenant whose chain --all walks (default: settings)")
@click.option("--json", "as_json", is_flag=True)
def verify_command(
    certificate_id: str | None,
    walk: bool,
    exported: Path | None,
    public_key: Path | None,
    tenant: str | None,
    as_json: bool,
) -> None:
    """Recompute a certificate's seal and check its signature.

    With --all, check every certificate of the tenant and that each seals the one before it.
    With --file and --public-key, check an exported certificate with nothing but the public key:
    no data folder, no secret.
    """
    from certiq.trust.certificate import check

    chosen = sum([certificate_id is not None, walk, exported is not None])
    if chosen != 1:
        raise click.UsageError("give one of CERTIFICATE_ID, --all or --file")
    if exported is not None:
        _verify_exported(exported, public_key, as_json)
        return
    if public_key is not None:
        raise click.UsageError("--public-key goes with --file")
    deps = _deps()
    if walk:
        _verify_chain(deps, tenant or deps.settings.tenant, as_json)
        return
    assert certificate_id is not None
    certificate = deps.certificates.get(certificate_id)
    if certificate is None:
        raise click.ClickException(f"no certificate {certificate_id}")
    _report_check(certificate, check(certificate, deps.signer), as_json)


def _verify_exported(exported: Path, public_key: Path | None, as_json: bool) -> None:
    from pydantic import ValidationError

    from certiq.models import Certificate
    from certiq.trust.certificate import check_with_public_key
    from certiq.trust.signatures import load_public_key

    if public_key is None:
        raise click.UsageError("--file needs --public-key (the PEM `certiq public-key` prints)")
    try:
        key = load_public_key(public_key.read_bytes())
        certificate = Certificate.model_validate_json(exported.read_bytes())
    except CertiqError as error:
        raise click.ClickException(f"{public_key}: {error}") from error
    except ValidationError as error:
        raise click.ClickException(
            f"{exported} is not a certiq certificate: {error.error_count()} fields do not fit"
        ) from error
    _report_check(certificate, check_with_public_key(certificate, key), as_json)


def _report_check(certificate: Certificate, result: CertificateCheck, as_json: bool) -> None:
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    elif result.valid:
        click.echo(
            f"VALID  {certificate.certificate_id}: seal and signature"
            f" ({certificate.signing_key_id}) match"
        )
    else:
        click.echo(
            f"INVALID  {certificate.certificate_id}: first difference in"
            f" '{result.first_difference}'"
        )
    if not result.valid:
        sys.exit(1)


def _verify_chain(deps: Deps, tenant: str, as_json: bool) -> None:
    from certiq.trust.certificate import walk_chain

    links = list(walk_chain(deps.certificates.history(tenant), deps.signer))
    broken = [link for link in links if not link.sound]
    head = links[-1].certificate.seal if links else None
    if as_json:
        report = {
            "tenant": tenant,
            "certificates": len(links),
            "head_seal": head,
            "problems": [
                {
                    "certificate_id": link.certificate.certificate_id,
                    "valid": link.check.valid,
                    "first_difference": link.check.first_difference,
                    "linked": link.linked,
                    "previous_certificate_id": link.previous_id,
                }
                for link in broken
            ],
        }
        click.echo(json.dumps(report, indent=2))
    else:
        for link in broken:
            certificate_id = link.certificate.certificate_id
            if not link.check.valid:
                click.echo(
                    f"INVALID  {certificate_id}: first difference in"
                    f" '{link.check.first_difference}'"
                )
            if not link.linked:
                before = link.previous_id or "nothing"
                click.echo(
                    f"BROKEN   {certificate_id}: does not seal the certificate before it"
                    f" ({before}): that one was rewritten, re-sealed or removed"
                )
        summary = "all valid, chain intact" if not broken else f"{len(broken)} not sound"
        click.echo(f"{len(links)} certificates of tenant {tenant!r} checked: {summary}.")
        if head is not None:
            click.echo(f"Head seal: {head} (record it elsewhere to detect a rewritten chain)")
    if broken:
        sys.exit(1)


@main.command("public-key")
@click.option("--json", "as_json", is_flag=True, help="key id, algorithm and fingerprint too")
def public_key_command(as_json: bool) -> None:
    """Print the public key certificates are checked with (PEM): publish it to auditors."""
    key = _deps().signer.public_key()
    if as_json:
        click.echo(key.model_dump_json(indent=2))
    else:
        click.echo(key.public_key_pem, nl=False)


@main.command("export")
@click.argument("certificate_id")
def export_command(certificate_id: str) -> None:
    """Print a certificate as JSON, for `certiq verify --file` on any machine."""
    certificate = _deps().certificates.get(certificate_id)
    if certificate is None:
        raise click.ClickException(f"no certificate {certificate_id}")
    click.echo(certificate.model_dump_json(indent=2))


main.add_command(eval_group)


@main.command("guard")
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="print the decision as JSON")
def guard_command(text: str, as_json: bool) -> None:
    """Show what validate, redact and translate decide for TEXT (nothing is stored)."""
    from certiq.bootstrap import guard_adapters
    from certiq.config import Settings
    from certiq.guardrails.inspect import inspect_text

    settings = click.get_current_context().find_object(Settings) or Settings()
    try:
        adapters = guard_adapters(settings)
        report = inspect_text(
            text, settings, adapters["language"], adapters["name_finder"], adapters["injection"]
        )
    except CertiqError as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        return
    reason = (
        f"  {report.reason} (rule {report.rule})"
        if report.rule
        else (f"  {report.reason}" if report.reason else "")
    )
    click.echo(f"Status:   {report.status}{reason}")
    if report.message:
        click.echo(f"Message:  {report.message}")
    click.echo(f"Redacted: {report.redacted}")
    for entity in report.entities:
        click.echo(f"  {entity['type']:<10} characters {entity['start']}-{entity['end']}")
    click.echo(f"Language: {report.language} (confidence {report.confidence:.2f})")


@main.command("check-url")
@click.argument("url")
@click.option("--json", "as_json", is_flag=True, help="print the verdict as JSON")
def check_url_command(url: str, as_json: bool) -> None:
    """Check URL as answers' links are checked: SSRF guard on every hop, then reachability.

    Exit code 1 when the URL is refused or dead.
    """
    from certiq.config import Settings
    from certiq.guardrails.urls import GuardedUrlChecker

    settings = click.get_current_context().find_object(Settings) or Settings()
    checker = GuardedUrlChecker(settings.urls)
    try:
        verdict = checker.check(url)
    finally:
        checker.close()
    fields = {
        "allowed": verdict.allowed,
        "reachable": verdict.reachable,
        "status": verdict.status,
        "final_url": verdict.final_url,
        "reason": verdict.reason,
    }
    if as_json:
        click.echo(json.dumps(fields, indent=2))
    else:
        state = "REACHABLE" if verdict.reachable else ("DEAD" if verdict.allowed else "REFUSED")
        status = f" HTTP {verdict.status}" if verdict.status is not None else ""
        click.echo(f"{state}{status}  {url}")
        if verdict.final_url and verdict.final_url != url:
            click.echo(f"  final URL: {verdict.final_url}")
        click.echo(f"  {verdict.reason}")
    if not verdict.reachable:
        sys.exit(1)


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
def serve_command(host: str, port: int) -> None:
    """Serve the HTTPS API's routes locally over HTTP."""
    from certiq.bootstrap import build_orchestrator
    from certiq.runtime.server import serve

    deps = _deps()
    serve(deps, build_orchestrator(deps), host=host, port=port)


if __name__ == "__main__":
    main()
