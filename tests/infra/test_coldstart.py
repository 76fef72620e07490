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
    # WHEN it imports functions/<name>/app.py, as Lambda does on a cold start
    output = run_in_function(name, dict(os.environ), PROBE, *HEAVY)
    # THEN none of the heavy libraries is loaded yet
    assert json.loads(output) == []


def run_in_function(name: str, environment: dict[str, str], code: str, *args: str) -> str:
    """Runs ``code`` in a fresh interpreter as Lambda runs functions/<name>/app.py: its folder
    and the layer on sys.path; returns what it printed."""
    code_dir = ROOT / "functions" / name
    environment = environment | {
        "PYTHONPATH": os.pathsep.join([str(code_dir), str(ROOT / "layers" / "core")])
    }
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=code_dir,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


SNAPSHOT_PROBE = """
import json, random, sys
import app
import snapshot_restore_py as hooks
from certiq.lazy import is_built
from certiq.runtime.lambda_handlers import container_deps
from certiq.runtime.snapstart import CLIENT_FIELDS
from certiq.steps import STEP_NAMES, step_dependencies

for hook, args, kwargs in reversed(hooks.get_before_snapshot()):  # as Lambda runs them
    hook(*args, **kwargs)
deps = container_deps()
built = [
    field
    for field in {
        *CLIENT_FIELDS,
        *(step_dependencies(sys.argv[1]) if sys.argv[1] in STEP_NAMES else ()),
    }
    # settings, clock and metrics are made with the Deps itself, never on first use
    if field not in ("settings", "clock", "metrics")
    and getattr(deps, field) is not None and is_built(getattr(deps, field))
]
before_restore = random.getstate()
for hook, args, kwargs in hooks.get_after_restore():
    hook(*args, **kwargs)
from certiq.guardrails.validation import rules_for
print(json.dumps({
    "built": sorted(built),
    "reseeded": random.getstate() != before_restore,
    "patterns_compiled": rules_for.cache_info().currsize > 0,
}))
"""

# Each function's tables, key and bucket, as template.yaml names them (placeholder values).
SNAPSHOT_ENVIRONMENTS = {
    "validate": {
        "CERTIQ_AWS__QUESTIONS_TABLE": "questions",
        "CERTIQ_AWS__DOCUMENTS_TABLE": "documents",
    },
    "persist": {
        "CERTIQ_AWS__QUESTIONS_TABLE": "questions",
        "CERTIQ_AWS__DOCUMENTS_TABLE": "documents",
        "CERTIQ_AWS__CERTIFICATES_TABLE": "certificates",
        "CERTIQ_AWS__KMS_KEY_ID": "alias/certiq-certificates",
        "CERTIQ_AWS__CERTIFICATE_ARCHIVE_BUCKET": "certiq-certificate-archive",
    },
}


@pytest.mark.parametrize("name", sorted(SNAPSHOT_ENVIRONMENTS))
def test_snapstart_builds_the_adapters_its_step_uses_before_the_snapshot_and_reseeds_after(
    name: str,
) -> None:
    # GIVEN a fresh interpreter with the function's code, the layer and the function's own
    # environment (runtime aws, only the resources its step uses)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("CERTIQ_", "AWS_"))}
    environment |= {
        "CERTIQ_RUNTIME": "aws",
        "CERTIQ_AWS__REGION": "us-east-1",
        "CERTIQ_EMBEDDING__PROVIDER": "none",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        **SNAPSHOT_ENVIRONMENTS[name],
    }
    # WHEN Lambda runs the before-snapshot hooks app.py registered, then a restore's hooks
    output = run_in_function(name, environment, SNAPSHOT_PROBE, name)
    result = json.loads(output)
    # THEN the adapters its step uses are in the snapshot, but those its environment lacks
    expected = {
        "validate": ["documents", "injection", "questions"],
        "persist": ["archive", "certificates", "documents", "questions", "signer"],
    }
    assert result["built"] == expected[name]
    # AND Validate's own warm-up has compiled the pattern lists its first question would compile
    assert result["patterns_compiled"] is (name == "validate")
    # AND each restored environment draws its own random state
    assert result["reseeded"] is True
