"""`certiq ask`: one question through the state machine, on the local runtime."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

import click

if TYPE_CHECKING:
    from certiq.models import (
        RetrievalMode,
    )

from certiq.cli.app import checked_name, command_deps, main
from certiq.cli.render import readable


@main.command("ask")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="print the QAResponse as JSON")
@click.option(
    "--mode",
    type=click.Choice(["bm25", "dense", "hybrid"]),
    default=None,
    help="retrieval mode for this question (default: CERTIQ_RETRIEVAL__MODE, hybrid)",
)
@click.option(
    "--collection", default=None, callback=checked_name, help="search this collection only"
)
@click.option(
    "--conversation",
    default=None,
    callback=checked_name,
    help="a conversation id: follow-ups are read with its turns",
)
def ask_command(
    question: str, as_json: bool, mode: str | None, collection: str | None, conversation: str | None
) -> None:
    """Ask a question; the answer comes with citations and a certificate."""
    from certiq.adapters.local.orchestrator import LocalRuntime
    from certiq.models import QuestionStatus
    from certiq.questions import receive, unknown_collection

    deps = command_deps()
    if collection is not None:
        unknown = unknown_collection(collection, deps)
        if unknown is not None:
            raise click.ClickException(unknown)
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
        click.echo(readable(response))
    if response.status is QuestionStatus.FAILED:
        sys.exit(1)
