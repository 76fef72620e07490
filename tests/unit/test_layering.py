"""Each test carries its folder's layer marker. The package's import layers are checked in
test_import_layers.py."""

from __future__ import annotations

import pytest


def test_every_test_is_marked_with_its_folder(request: pytest.FixtureRequest) -> None:
    # GIVEN this test, collected from tests/unit / THEN it carries the unit marker, none other
    layers = {"unit", "contract", "pipeline", "infra", "browser"}
    marks = {mark.name for mark in request.node.iter_markers()} & layers
    assert marks == {"unit"}
