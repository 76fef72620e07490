"""`certiq verify`, `recheck`, `public-key` and `export`: certificates checked and shared."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from certiq.errors import CertiqError

if TYPE_CHECKING:
    from certiq.deps import Deps
    from certiq.models import (
        Certificate,
        CertificateCheck,
        Recheck,
    )

from certiq.cli.app import command_deps, main


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
    deps = command_deps()
    if walk:
        _verify_chain(deps, tenant or deps.settings.tenant, as_json)
        return
    assert certificate_id is not None
    certificate = deps.certificates.get(certificate_id)
    if certificate is None:
        raise click.ClickException(f"no certificate {certificate_id}")
    rechecks = deps.certificates.rechecks(certificate_id)
    latest = rechecks[-1] if rechecks else None
    _report_check(certificate, check(certificate, deps.signer), as_json, latest)


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


def _report_check(
    certificate: Certificate,
    result: CertificateCheck,
    as_json: bool,
    latest: Recheck | None = None,
) -> None:
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
    if not as_json:
        if latest is None:
            click.echo("Standing: never re-checked (certiq recheck ID)")
        else:
            click.echo(
                f"Standing: {latest.standing.value}, last checked"
                f" {latest.checked_at.isoformat(timespec='seconds')}: {latest.summary}"
            )
    if not result.valid:
        sys.exit(1)


@main.command("recheck")
@click.argument("certificate_id", required=False)
@click.option("--all", "every", is_flag=True, help="re-check every certificate of the tenant")
@click.option("--json", "as_json", is_flag=True)
def recheck_command(certificate_id: str | None, every: bool, as_json: bool) -> None:
    """Re-check answers against the documents as they are now.

    Each cited quote is CURRENT (unchanged), CHANGED (moved or reworded: its claims verified
    again), STALE (no longer there) or SOURCE_DELETED; the answer stands as its worst quote.
    The certificate is never rewritten: each re-check is a signed record chained to the last.
    """
    from certiq.trust.rechecks import recheck_with

    if (certificate_id is None) == (not every):
        raise click.UsageError("give one of CERTIFICATE_ID or --all")
    deps = command_deps()
    tenant = deps.settings.tenant
    if every:
        certificates = list(deps.certificates.history(tenant))
    else:
        assert certificate_id is not None
        found = deps.certificates.get(certificate_id)
        if found is None or found.tenant != tenant:
            raise click.ClickException(f"no certificate {certificate_id}")
        certificates = [found]
    records = [recheck_with(deps, certificate) for certificate in certificates]
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in records], indent=2))
        return
    for record in records:
        _print_recheck(record)
    if every:
        noun = "certificate" if len(records) == 1 else "certificates"
        click.echo(f"{len(records)} {noun} of tenant {tenant!r} re-checked.")


def _print_recheck(record: Recheck) -> None:
    click.echo(f"{record.standing.value:<15} {record.certificate_id}: {record.summary}")
    for finding in record.findings:
        click.echo(
            f"  [{finding.citation_id}] {finding.standing.value}: {finding.file_name},"
            f" page {finding.page}: {finding.note}"
        )
        click.echo(f'       "{finding.quote}"')
        if finding.now_text is not None and finding.now_text != finding.quote:
            click.echo(f'    now "{finding.now_text}" (page {finding.now_page})')
        for verdict in finding.verdicts:
            click.echo(
                f"       claim {verdict.claim_id} verified again: {verdict.state.value}"
                f" (entail {verdict.entail:.2f}, {verdict.verifier})"
            )
    click.echo(
        f"  re-check {record.sequence}, {record.checked_at.isoformat(timespec='seconds')},"
        f" digest {record.digest[:16]}…, chained to {record.previous_digest[:16]}…"
    )


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
    key = command_deps().signer.public_key()
    if as_json:
        click.echo(key.model_dump_json(indent=2))
    else:
        click.echo(key.public_key_pem, nl=False)


@main.command("export")
@click.argument("certificate_id")
def export_command(certificate_id: str) -> None:
    """Print a certificate as JSON, for `certiq verify --file` on any machine."""
    certificate = command_deps().certificates.get(certificate_id)
    if certificate is None:
        raise click.ClickException(f"no certificate {certificate_id}")
    click.echo(certificate.model_dump_json(indent=2))
