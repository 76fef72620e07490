"""docs/settings.md is what scripts/settings_reference.py generates from certiq.config: a setting
added, removed or changed in certiq.config fails here until the reference is written again
(`.venv/bin/python scripts/settings_reference.py`)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from certiq.config import env_names

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "settings_reference.py"
REFERENCE = ROOT / "docs" / "settings.md"


def generator() -> ModuleType:
    """The script loaded as a module, registered in sys.modules before it runs, as an import
    would register it."""
    name = "settings_reference"
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_settings_reference_is_what_the_script_generates() -> None:
    # GIVEN certiq.config as it is / WHEN the reference is generated
    expected = generator().render()
    # THEN docs/settings.md holds exactly that
    current = REFERENCE.read_text(encoding="utf-8")
    assert current == expected, (
        "docs/settings.md is out of date: run .venv/bin/python scripts/settings_reference.py"
    )


def test_the_reference_names_every_variable_certiq_reads_once() -> None:
    # GIVEN the generated reference / THEN each row's variable is one config.env_names() knows,
    # and every known variable has exactly one row
    rows = re.findall(r"^\| `(CERTIQ_[A-Z0-9_]+)` \|", generator().render(), flags=re.MULTILINE)
    assert sorted(rows) == sorted(env_names())


def test_the_reference_does_not_depend_on_the_machine() -> None:
    # GIVEN the generated reference / THEN it holds no path of this machine's home or checkout
    page = generator().render()
    if Path.home() != Path("/"):
        assert str(Path.home()) not in page
    assert str(ROOT) not in page
    assert generator().render() == page
