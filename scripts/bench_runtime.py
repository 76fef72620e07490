"""Benchmark: the local runtime's own overhead per question (total minus time inside steps).

When to run it: `make bench` runs it; run it after changing the local runtime (the state machine
interpreter) or the reuse of verified answers.

Ingests the demo's sample PDFs into a temporary data directory, asks a set of questions through
the local runtime (the real answer.asl.json, the real steps and stores) and prints per-question
totals, the time inside steps, and the interpreter's overhead: once with reuse of verified
answers off (every question drafted and verified afresh), once with it on (the same questions
asked again are answered from their earlier verified answer). Run with `make bench`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

QUESTIONS = [
    "How long are backups of customer data kept?",
    "Who must be told about a security incident and how quickly?",
    "What are staff not allowed to install on company laptops?",
    "When are access rights reviewed?",
    "How is personal data deleted at the end of its retention period?",
]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="times each question is asked")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="certiq-bench-"))
    os.environ["CERTIQ_HOME"] = str(home)
    from certiq.adapters.local.orchestrator import LocalRuntime
    from certiq.bootstrap import build_deps
    from certiq.config import ReuseSettings, Settings
    from certiq.questions import receive

    sys.path.insert(0, str(Path(__file__).parent))
    from make_sample_pdfs import ingest_samples

    deps = build_deps(Settings(home=home, reuse=ReuseSettings(enabled=False)))
    ingest_samples(deps, home / "samples")
    overheads: list[float] = []
    for label, settings in (
        ("fresh (reuse off)", deps.settings),
        ("asked again (reuse on)", Settings(home=home)),
    ):
        mode_deps = deps if settings is deps.settings else build_deps(settings)
        runtime = LocalRuntime(mode_deps)
        totals, inside, mode_overheads = [], [], []
        for _ in range(args.rounds):
            for question in QUESTIONS:
                started = time.perf_counter()
                run = runtime.run(receive(question, mode_deps))
                totals.append((time.perf_counter() - started) * 1000)
                inside.append(run.execution.task_seconds * 1000)
                mode_overheads.append(run.overhead_ms)
                if run.execution.status != "SUCCEEDED":
                    print(f"question failed: {run.execution.error}: {run.execution.cause}")
                    return 1
        overheads.extend(mode_overheads)
        count = len(totals)
        print(
            f"local runtime, {label}: {count} questions"
            f" ({len(QUESTIONS)} distinct x {args.rounds} rounds)"
        )
        print(f"{'':24}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
        for row, values in (
            ("question, end to end", totals),
            ("inside steps", inside),
            ("runtime overhead", mode_overheads),
        ):
            print(
                f"{row:24}{statistics.median(values):>10.3f}"
                f"{percentile(values, 0.95):>10.3f}{max(values):>10.3f}"
            )
    budget = 20.0
    verdict = "PASS" if percentile(overheads, 0.95) < budget else "FAIL"
    print(f"overhead p95 under {budget:.0f} ms: {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
