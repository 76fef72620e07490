"""The `certiq` command group, and what its commands share: settings and Deps."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from certiq.errors import CertiqError, ConfigurationError

if TYPE_CHECKING:
    from certiq.deps import Deps


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


def checked_name(
    _context: click.Context, parameter: click.Parameter, value: str | None
) -> str | None:
    """A collection or conversation name, checked as the API checks it (certiq.models.api.Name)."""
    from pydantic import TypeAdapter, ValidationError

    from certiq.models.api import NAME_MAX_LENGTH, Name

    try:
        return TypeAdapter(Name | None).validate_python(value)
    except ValidationError as error:
        raise click.BadParameter(f"must be 1 to {NAME_MAX_LENGTH} characters, not blank") from error


def command_deps() -> Deps:
    from certiq.bootstrap import build_deps
    from certiq.config import Settings

    try:
        return build_deps(click.get_current_context().find_object(Settings) or Settings())
    except CertiqError as error:
        raise click.ClickException(str(error)) from error
