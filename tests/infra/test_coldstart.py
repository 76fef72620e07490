"""Light functions keep heavy libraries out of their import: what scripts/bench_coldstart.py times.

The time itself is a benchmark (make bench); here only which modules an import loads, which does
not depend on the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIGHT = ["validate", "redact", "persist", "api"]
# Loaded when a function builds its Deps or runs a step that needs them, not at import.
HEAVY = ["numpy", "boto3", "pypdfium2", "opensearchpy", "rank_bm25", "py3langid", "httpx"]

PROBE = """
import json, sys
import app
print(json.dumps(sorted(name for name in sys.argv[1:] if name in sys.modules)))
"""


@pytest.mark.parametrize("name", LIGHT)
def test_light_function_imports_no_heavy_library(name: str) -> None:
    # GIVEN a fresh interpreter with the function's directory and the layer on sys.path
    code_dir = ROOT / "functions" / name
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(code_dir), str(ROOT / "layers" / "core")])
    # WHEN it imports functions/<name>/app.py, as Lambda does on a cold start
    output = subprocess.run(
        [sys.executable, "-c", PROBE, *HEAVY],
        cwd=code_dir,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # THEN none of the heavy libraries is loaded yet
    assert json.loads(output) == []
