"""`certiq guard` and `check-url`: the guardrails, tried on one text or link."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from certiq.errors import CertiqError

if TYPE_CHECKING:
    pass

from certiq.cli.app import main


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
