"""The web page's files, served by the API itself (certiq serve locally, the api function in AWS).

The folder is read once: only files present then are served, by their bare name, so no request
path can reach anything else on disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}


@dataclass(frozen=True)
class StaticFile:
    content_type: str
    text: str


def load_static(folder: Path) -> dict[str, StaticFile]:
    """Every servable file directly under ``folder``, by name."""
    if not folder.is_dir():
        raise FileNotFoundError(f"the web page's folder is missing: {folder}")
    return {
        path.name: StaticFile(CONTENT_TYPES[path.suffix], path.read_text(encoding="utf-8"))
        for path in sorted(folder.iterdir())
        if path.is_file() and path.suffix in CONTENT_TYPES
    }
