"""Cold-start cost of each Lambda function, up to its first invocation's answer.

When to run it: `make bench` runs it; run it after changing what a Lambda function or the layer
imports on start-up, or the layer's packaging.

Each measurement is a fresh Python process with the function's directory and the layer's source
on sys.path, as Lambda has /var/task and /opt/python; the interpreter's own start-up is not
counted, and the figures are the process's CPU time (importing is CPU-bound, and CPU time does
not count the moments other processes on a shared machine hold the cores). Medians over --runs
processes:

  import          app.py imported, certiq's bytecode already compiled (__pycache__ present)
  no pyc          the same from a copy of certiq without __pycache__, bytecode not written: what
                  a layer built by `sam build` (sources only, /opt read-only) costs every cold start
  + Deps          import, then the function's Deps built for runtime aws (adapters are built on
                  first use, certiq.lazy). No request is sent.
  first call      light functions: import, Deps and one invocation of the handler with a real
                  event, its AWS requests answered by moto in another process (what the first
                  invocation costs with SnapStart off)
  restored call   the same invocation in an environment restored from a SnapStart snapshot:
                  the import and the before-snapshot hooks (certiq.runtime.snapstart) run first,
                  untimed, as Lambda runs them when a version is published; then the after-restore
                  hooks and the invocation are timed. Lambda's own restore (loading the snapshot's
                  memory) is not CPU of the function and is not in this figure.

Light functions (validate, redact, persist, api): the first invocation should cost at most
300 ms of CPU.

    python scripts/bench_coldstart.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The sample documents (scripts/) and the API Gateway event the tests build (tests/), found once.
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT)]
FUNCTIONS = ROOT / "functions"
LAYER = ROOT / "layers" / "core"
LIGHT = ("validate", "redact", "persist", "api")
LIMIT_MS = 300.0
REGION = "us-east-1"
QUESTION = "How long are backups of customer data kept?"

PROBE = """
import json, sys, time
mode, event_file = sys.argv[1], sys.argv[2]
started = time.process_time()
import app
imported = time.process_time()
result = {"import_ms": (imported - started) * 1000}
from certiq.runtime.lambda_handlers import container_deps
if mode == "deps":
    container_deps()
    result["deps_ms"] = (time.process_time() - started) * 1000
elif mode in ("call", "restored"):
    from types import SimpleNamespace
    event = json.loads(open(event_file, encoding="utf-8").read())
    context = SimpleNamespace(
        function_name="certiq-bench", memory_limit_in_mb=1024, aws_request_id="bench",
        invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:certiq-bench:live",
    )
    if mode == "restored":
        import snapshot_restore_py as hooks
        for hook, args, kwargs in reversed(hooks.get_before_snapshot()):
            hook(*args, **kwargs)
        started = time.process_time()
        for hook, args, kwargs in hooks.get_after_restore():
            hook(*args, **kwargs)
    else:
        container_deps()
    answer = app.lambda_handler(event, context)
    result["call_ms"] = (time.process_time() - started) * 1000
    result["status"] = answer.get("statusCode", answer.get("status"))
print(json.dumps(result))
"""

# The values of every setting template.yaml gives a function; each function gets the names its
# own Environment (and Globals) declares, as SAM deploys it.
VALUES = {
    "CERTIQ_RUNTIME": "aws",
    "CERTIQ_AWS__REGION": REGION,
    "CERTIQ_AWS__BUCKET": "certiq-bench-documents",
    "CERTIQ_AWS__DOCUMENTS_TABLE": "certiq-DocumentsTable",
    "CERTIQ_AWS__QUESTIONS_TABLE": "certiq-QuestionsTable",
    "CERTIQ_AWS__QUESTION_RETENTION_DAYS": "30",
    "CERTIQ_AWS__CERTIFICATES_TABLE": "certiq-CertificatesTable",
    "CERTIQ_AWS__ANSWERS_TABLE": "certiq-AnswersTable",
    "CERTIQ_AWS__IDEMPOTENCY_TABLE": "certiq-IdempotencyTable",
    "CERTIQ_AWS__KMS_KEY_ID": "alias/certiq-certificates",
    "CERTIQ_AWS__CERTIFICATE_ARCHIVE_BUCKET": "certiq-bench-certificate-archive",
    "CERTIQ_AWS__STATE_MACHINE_ARN": (
        f"arn:aws:states:{REGION}:123456789012:stateMachine:certiq-answer"
    ),
    "CERTIQ_OPENSEARCH__ENDPOINT": "https://search-certiq.us-east-1.es.amazonaws.com",
    "CERTIQ_OCR__TEXTRACT_MAX_WAIT_SECONDS": "600",
    "CERTIQ_ANSWER__PROVIDERS": '["extractive"]',
    "CERTIQ_LLM__PROVIDER": "none",
    "CERTIQ_LLM__API_KEYS_SECRET_ARN": "",
    "CERTIQ_API__CORS_ALLOW_ORIGIN": "*",
}
# Not from the template: the layer ships no embedding model (lexical-only), and fake credentials.
HARNESS = {
    "CERTIQ_EMBEDDING__PROVIDER": "none",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
}


def function_environment(name: str, endpoint: str | None, key_id: str | None) -> dict[str, str]:
    """The function's environment as template.yaml declares it, with the bench's values."""
    from cfnlint.decode import decode

    template, _ = decode(ROOT / "template.yaml")
    logical_id = "".join(part.title() for part in name.split("_")) + "Function"
    names = set(template["Globals"]["Function"]["Environment"]["Variables"])
    own = template["Resources"][logical_id]["Properties"].get("Environment", {})
    names |= set(own.get("Variables", {}))
    environment = {variable: VALUES[variable] for variable in sorted(names)} | HARNESS
    if key_id and "CERTIQ_AWS__KMS_KEY_ID" in names:
        environment["CERTIQ_AWS__KMS_KEY_ID"] = key_id
    if endpoint:
        environment["AWS_ENDPOINT_URL"] = endpoint
    return environment


def probe(
    name: str,
    layer: Path,
    *,
    mode: str,
    write_bytecode: bool,
    environment: dict[str, str],
    event_file: Path | None = None,
) -> dict[str, Any]:
    process_environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CERTIQ_", "AWS_", "PYTHON"))
    }
    process_environment |= environment
    process_environment["PYTHONPATH"] = os.pathsep.join([str(FUNCTIONS / name), str(layer)])
    if not write_bytecode:
        process_environment["PYTHONDONTWRITEBYTECODE"] = "1"
    process = subprocess.run(
        [sys.executable, "-c", PROBE, mode, str(event_file or "")],
        cwd=FUNCTIONS / name,
        env=process_environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if process.returncode != 0:
        raise SystemExit(f"functions/{name}/app.py ({mode}) failed:\n{process.stderr}")
    result: dict[str, Any] = json.loads(process.stdout.strip().splitlines()[-1])
    return result


def free_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port: int = listener.getsockname()[1]
        return port


@contextmanager
def moto_endpoint() -> Iterator[str]:
    """moto's server in this process, on loopback: the functions' requests cost it, not them."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


class World:
    """The stack's tables, buckets and key in moto, and a real event for each light function."""

    def __init__(self, endpoint: str, scratch: Path) -> None:
        import boto3

        from certiq.adapters.aws.tables import create_table_args

        os.environ.update(HARNESS | {"AWS_ENDPOINT_URL": endpoint})
        self.scratch = scratch
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        for table in ("documents", "questions", "certificates", "answers", "idempotency"):
            name = VALUES[f"CERTIQ_AWS__{table.upper()}_TABLE"]
            dynamodb.create_table(**create_table_args(table, name))
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=VALUES["CERTIQ_AWS__BUCKET"])
        s3.create_bucket(
            Bucket=VALUES["CERTIQ_AWS__CERTIFICATE_ARCHIVE_BUCKET"], ObjectLockEnabledForBucket=True
        )
        kms = boto3.client("kms", region_name=REGION)
        self.key_id: str = kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")[
            "KeyMetadata"
        ]["KeyId"]
        self.answered = self._answered_state()
        self.deps = self._aws_deps()

    def _aws_deps(self) -> Any:
        from certiq.bootstrap import build_deps
        from certiq.config import Settings

        environment = {
            name: value for name, value in VALUES.items() if name.startswith("CERTIQ_AWS__")
        }
        os.environ.update(environment | {"CERTIQ_AWS__KMS_KEY_ID": self.key_id})
        return build_deps(Settings(runtime="aws"))

    def _answered_state(self) -> Any:
        """A question answered by the local runtime over the demo's samples, up to Persist."""
        from make_sample_pdfs import ingest_samples

        from certiq.bootstrap import build_deps
        from certiq.config import ReuseSettings, Settings
        from certiq.questions import receive
        from certiq.steps import STEP_NAMES, STEPS

        home = self.scratch / "local"
        deps = build_deps(Settings(runtime="local", home=home, reuse=ReuseSettings(enabled=False)))
        ingest_samples(deps, home / "samples")
        state = receive(QUESTION, deps)
        for name in STEP_NAMES[: STEP_NAMES.index("persist")]:
            state = STEPS[name](state, deps)
        assert state.answer, "the local runtime found no answer to feed Persist"
        return state

    def events(self, name: str) -> Path:
        """A fresh question's event for the function, written to a file the probe reads."""
        from tests.fakes import api_gateway_event

        from certiq.questions import receive
        from certiq.steps import STEPS

        state = receive(QUESTION, self.deps)
        if name == "validate":
            event: dict[str, Any] = state.model_dump(mode="json")
        elif name == "redact":
            event = STEPS["validate"](state, self.deps).model_dump(mode="json")
        elif name == "persist":
            event = self.answered.model_copy(
                update={"question_id": state.question_id, "received_at": state.received_at}
            ).model_dump(mode="json")
        else:
            headers = {"Accept": "application/json", "Host": "api.example.com"}
            event = api_gateway_event("GET", f"/v1/questions/{state.question_id}", headers=headers)
        path = self.scratch / f"{name}-{uuid.uuid4().hex}.json"
        path.write_text(json.dumps(event), encoding="utf-8")
        return path


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    names = sorted(p.name for p in FUNCTIONS.iterdir() if (p / "app.py").is_file())
    columns = ("import", "no pyc", "deps", "call", "restored")
    figures: dict[str, dict[str, list[float]]] = {
        name: {column: [] for column in columns} for name in names
    }

    with tempfile.TemporaryDirectory(prefix="certiq-coldstart-") as scratch, moto_endpoint() as url:
        world = World(url, Path(scratch))
        # certiq as `sam build` puts it in the layer: sources, no bytecode.
        sources_only = Path(scratch) / "python"
        shutil.copytree(
            LAYER / "certiq",
            sources_only / "certiq",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
        offline = {name: function_environment(name, None, None) for name in names}
        online = {name: function_environment(name, url, world.key_id) for name in LIGHT}
        for name in names:  # compile certiq's bytecode once, so the first column is warm
            probe(name, LAYER, mode="import", write_bytecode=True, environment=offline[name])

        for _ in range(args.runs):  # round-robin, so a busy moment does not hit one function
            for name in names:
                row = figures[name]
                env = offline[name]
                row["import"].append(
                    probe(name, LAYER, mode="import", write_bytecode=True, environment=env)[
                        "import_ms"
                    ]
                )
                row["no pyc"].append(
                    probe(name, sources_only, mode="import", write_bytecode=False, environment=env)[
                        "import_ms"
                    ]
                )
                row["deps"].append(
                    probe(name, LAYER, mode="deps", write_bytecode=True, environment=env)["deps_ms"]
                )
                if name not in LIGHT:
                    continue
                for mode in ("call", "restored"):
                    result = probe(
                        name,
                        LAYER,
                        mode=mode,
                        write_bytecode=True,
                        environment=online[name],
                        event_file=world.events(name),
                    )
                    if name == "api" and result["status"] != 200:
                        raise SystemExit(f"api ({mode}) answered {result['status']}")
                    row[mode].append(result["call_ms"])

    print(f"Cold start per function: median CPU ms over {args.runs} fresh processes")
    print(
        f"{'function':<22}{'import':>9}{'(min-max)':>14}{'no pyc':>9}{'+ Deps':>9}"
        f"{'1st call':>10}{'restored':>10}  light (<= {LIMIT_MS:.0f} ms, 1st call / restored)"
    )
    for name in names:
        row = figures[name]
        call = f"{median(row['call']):>10.0f}" if row["call"] else f"{'':>10}"
        restored = f"{median(row['restored']):>10.1f}" if row["restored"] else f"{'':>10}"
        verdict = ""
        if name in LIGHT:
            verdict = " / ".join(
                "ok" if median(row[mode]) <= LIMIT_MS else "OVER" for mode in ("call", "restored")
            )
        spread = f"({min(row['import']):.0f}-{max(row['import']):.0f})"
        print(
            f"{name:<22}{median(row['import']):>9.0f}{spread:>14}"
            f"{median(row['no pyc']):>9.0f}{median(row['deps']):>9.0f}{call}{restored}  {verdict}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
