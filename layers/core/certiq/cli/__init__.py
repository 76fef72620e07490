"""The `certiq` command: ingest, ask, documents, verify and serve, on the local runtime.

One module per family of commands, each registering on the group in certiq.cli.app; an answer
is rendered by certiq.cli.render.
"""

from __future__ import annotations

from certiq.cli import ask, certificates, documents, guards, serve
from certiq.cli.app import main
from certiq.evaluation.commands import eval_group

main.add_command(eval_group)

__all__ = ["ask", "certificates", "documents", "guards", "main", "serve"]
