"""`certiq serve`: the API and the web page on the local runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    pass

from certiq.cli.app import command_deps, main


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
def serve_command(host: str, port: int) -> None:
    """Serve the HTTPS API's routes locally over HTTP."""
    from certiq.bootstrap import build_orchestrator
    from certiq.runtime.server import serve

    deps = command_deps()
    serve(deps, build_orchestrator(deps), host=host, port=port)


if __name__ == "__main__":
    main()
