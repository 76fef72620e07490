"""Benchmark: `certiq serve` under fifty questions at once, on loopback.

When to run it: `make bench` runs it; run it after changing `certiq serve` (its server, threads or
listen backlog).

Starts `certiq serve` over a fresh data folder holding the demo's sample PDFs, then sends 50
questions at the same moment (POST /v1/questions?wait=true, each from its own connection) and
counts what came back: every status, connection resets and other socket errors, and the latency
of each (p50/p95/max). The target: no reset, no 5xx.

    .venv/bin/python scripts/bench_serve.py [--clients 50]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "How long are backups of customer data kept?",
    "How many characters must a password have at least?",
    "Who must be told about a severity 1 incident?",
    "How quickly must a personal data breach be reported?",
    "What is the maximum fine for sharing passwords?",
]


def ask(base: str, question: str) -> tuple[str, float]:
    body = json.dumps({"question": question}).encode()
    request = urllib.request.Request(
        f"{base}/v1/questions?wait=true",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
            outcome = str(response.status)
    except urllib.error.HTTPError as error:
        outcome = str(error.code)
    except OSError as error:
        outcome = type(error).__name__
    return outcome, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CERTIQ_")}
        env |= {"CERTIQ_HOME": home, "CERTIQ_REUSE__ENABLED": "false", "PYTHONUNBUFFERED": "1"}
        python = sys.executable
        samples = Path(home) / "samples"
        subprocess.run(
            [python, str(ROOT / "scripts/make_sample_pdfs.py"), str(samples)], env=env, check=True
        )
        subprocess.run(
            [python, "-m", "certiq.cli", "ingest", str(samples)],
            env=env,
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            [python, "-m", "certiq.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            match = re.search(r"http://127\.0\.0\.1:(\d+)", server.stdout.readline())
            assert match, "certiq serve did not start"
            base = f"http://127.0.0.1:{match.group(1)}"
            start = threading.Barrier(args.clients)
            results: list[tuple[str, float]] = []

            def client(number: int) -> None:
                start.wait()
                results.append(ask(base, QUESTIONS[number % len(QUESTIONS)]))

            threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
    outcomes = Counter(outcome for outcome, _ in results)
    latencies = sorted(seconds for _, seconds in results)
    failures = sum(n for outcome, n in outcomes.items() if not outcome.startswith(("2", "4")))
    print(
        json.dumps(
            {
                "clients": args.clients,
                "outcomes": dict(outcomes),
                "resets_or_5xx": failures,
                "wall_s": round(wall, 2),
                "latency_p50_s": round(statistics.median(latencies), 2),
                "latency_p95_s": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
                "latency_max_s": round(latencies[-1], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
