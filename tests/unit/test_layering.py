"""The package's layers import downwards only: ingestion, adapters and the domain modules never
reach up into the answer steps (certiq.steps), whose order the state machine owns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "layers" / "core" / "certiq"
BELOW_STEPS = ["ingestion", "adapters", "trust", "retrieval", "guardrails", "answering", "api"]


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize("package", BELOW_STEPS)
def test_no_module_below_the_steps_imports_them(package: str) -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(
            module for module in imported_modules(path) if module.startswith("certiq.steps")
        )
        for path in (PACKAGE / package).rglob("*.py")
    }
    assert {path: found for path, found in offenders.items() if found} == {}


def test_every_test_is_marked_with_its_folder(request: pytest.FixtureRequest) -> None:
    # GIVEN this test, collected from tests/unit / THEN it carries the unit marker, none other
    layers = {"unit", "contract", "pipeline", "infra", "browser"}
    marks = {mark.name for mark in request.node.iter_markers()} & layers
    assert marks == {"unit"}
