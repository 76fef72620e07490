"""Cold-start cost of each Lambda function: the import time of functions/<name>/app.py.

Each measurement is a fresh Python process with the function's directory and the layer's source
on sys.path, as Lambda has /var/task and /opt/python; the interpreter's own start-up is not
counted, and the figures are the process's CPU time. Three figures per function, medians over
--runs processes:

  import          app.py imported, certiq's bytecode already compiled (__pycache__ present)
  import, no pyc  the same from a copy of certiq without __pycache__, bytecode not written: what
                  a layer built by `sam build` (sources only, /opt read-only) costs every cold start
  + Deps          import, then the function's Deps built for runtime aws (boto3 clients, the
                  OpenSearch client, the verifier): what the first invocation adds before its
                  step runs. No request is sent.

Light functions (validate, redact, persist, api) must import in under 300 ms.

    python scripts/bench_coldstart.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = ROOT / "functions"
LAYER = ROOT / "layers" / "core"
LIGHT = ("validate", "redact", "persist", "api")
LIMIT_MS = 300.0

# CPU time of the process (time.process_time), not wall time: importing is CPU-bound, and CPU
# time does not count the moments other processes on a shared machine hold the cores.
PROBE = """
import json, sys, time
started = time.process_time()
import app
imported = time.process_time()
deps_ms = None
if sys.argv[1] == "deps":
    from certiq.runtime.lambda_handlers import container_deps
    container_deps()
    deps_ms = (time.process_time() - started) * 1000
print(json.dumps({"import_ms": (imported - started) * 1000, "deps_ms": deps_ms}))
"""

# The stack's environment with placeholder names: building Deps sends no request.
AWS_ENVIRONMENT = {
    "CERTIQ_RUNTIME": "aws",
    "CERTIQ_AWS__REGION": "us-east-1",
    "CERTIQ_AWS__BUCKET": "certiq-123456789012-us-east-1-documents",
    "CERTIQ_AWS__DOCUMENTS_TABLE": "certiq-DocumentsTable",
    "CERTIQ_AWS__QUESTIONS_TABLE": "certiq-QuestionsTable",
    "CERTIQ_AWS__CERTIFICATES_TABLE": "certiq-CertificatesTable",
    "CERTIQ_AWS__KMS_KEY_ID": "alias/certiq-certificates",
    "CERTIQ_AWS__STATE_MACHINE_ARN": (
        "arn:aws:states:us-east-1:123456789012:stateMachine:certiq-answer"
    ),
    "CERTIQ_AWS__IDEMPOTENCY_TABLE": "certiq-IdempotencyTable",
    "CERTIQ_OPENSEARCH__ENDPOINT": "https://search-certiq.us-east-1.es.amazonaws.com",
    # The layer ships no embedding model (layers/core/requirements.txt): lexical-only.
    "CERTIQ_EMBEDDING__PROVIDER": "none",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
}


def probe(name: str, layer: Path, *, mode: str, write_bytecode: bool) -> dict[str, float]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CERTIQ_", "AWS_", "PYTHON"))
    }
    environment |= AWS_ENVIRONMENT
    environment["PYTHONPATH"] = os.pathsep.join([str(FUNCTIONS / name), str(layer)])
    if not write_bytecode:
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
    process = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        cwd=FUNCTIONS / name,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if process.returncode != 0:
        raise SystemExit(f"functions/{name}/app.py ({mode}) failed:\n{process.stderr}")
    result: dict[str, float] = json.loads(process.stdout.strip().splitlines()[-1])
    return result


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    names = sorted(p.name for p in FUNCTIONS.iterdir() if (p / "app.py").is_file())

    with tempfile.TemporaryDirectory(prefix="certiq-coldstart-") as scratch:
        # certiq as `sam build` puts it in the layer: sources, no bytecode.
        sources_only = Path(scratch) / "python"
        shutil.copytree(
            LAYER / "certiq",
            sources_only / "certiq",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
        for name in names:  # compile certiq's bytecode once, so the first column is warm
            probe(name, LAYER, mode="import", write_bytecode=True)

        warm: dict[str, list[float]] = {name: [] for name in names}
        cold: dict[str, list[float]] = {name: [] for name in names}
        deps: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(args.runs):  # round-robin, so a busy moment does not hit one function
            for name in names:
                warm[name].append(
                    probe(name, LAYER, mode="import", write_bytecode=True)["import_ms"]
                )
                cold[name].append(
                    probe(name, sources_only, mode="import", write_bytecode=False)["import_ms"]
                )
                deps[name].append(probe(name, LAYER, mode="deps", write_bytecode=True)["deps_ms"])
        rows = [
            (
                name,
                median(warm[name]),
                min(warm[name]),
                max(warm[name]),
                median(cold[name]),
                median(deps[name]),
            )
            for name in names
        ]

    print(f"Cold start per function: median CPU ms over {args.runs} fresh processes")
    print(
        f"{'function':<22}{'import':>9}{'(min-max)':>14}{'no pyc':>9}{'+ Deps':>9}"
        f"  light (< {LIMIT_MS:.0f} ms)"
    )
    over = []
    for name, warm_ms, low, high, cold_ms, deps_ms in rows:
        verdict = ""
        if name in LIGHT:
            verdict = "ok" if warm_ms < LIMIT_MS else "OVER"
            if warm_ms >= LIMIT_MS:
                over.append(name)
        print(
            f"{name:<22}{warm_ms:>9.0f}{f'({low:.0f}-{high:.0f})':>14}{cold_ms:>9.0f}"
            f"{deps_ms:>9.0f}  {verdict}"
        )
    if over:
        print(f"light functions over {LIMIT_MS:.0f} ms: {', '.join(over)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
