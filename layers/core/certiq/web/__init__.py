"""The web page: static HTML, CSS and JavaScript modules under static/, served by the API."""

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
