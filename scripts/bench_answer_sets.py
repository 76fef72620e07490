"""Benchmark: the offline answerer on every answerability set, beside the rules it replaced.

When to run it: `make bench` runs it (with --compare docs/answering_rules_figures.json); run it
after changing the answerer, the reader or its settings, to see every set's figures before reporting
them (the blind sets I-N are the ones to report).

Runs scripts/bench_answerability.py on the demo's set, the development sets A-H (other
organisations' policies that rules were once written looking at) and the blind sets I-N (never
read by anyone writing the answerer), and writes each set's right / wrong / withheld counts (of
the questions the documents answer) and "not stated" count (of those they do not) to ``--out``.
With ``--code`` another checkout's certiq answers (its own scripts and layers): the rules'
figures in docs/answering_rules_figures.json come from the last commit that had them,

    git worktree add /tmp/rules e1c3559
    python scripts/bench_answer_sets.py --code /tmp/rules --out docs/answering_rules_figures.json

and ``--compare`` prints both side by side (what `make bench` does). Each set takes one to two
minutes on one core; ``--jobs 2`` runs two at once.

    python scripts/bench_answer_sets.py [--out docs/answering_figures.json]
        [--compare docs/answering_rules_figures.json] [--sets i j ...] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BLIND = tuple("ijklmn")
DEVELOPMENT = ("a", *"bcdefgh")
SETS = ("demo", *DEVELOPMENT, *BLIND)
GROUPS = {"blind I-N": BLIND, "development A-H": DEVELOPMENT, "demo": ("demo",)}


def documents_flag(name: str) -> str:
    """The set's name as bench_answerability.py's --documents takes it (A is "heldout")."""
    return {"demo": "demo", "a": "heldout"}.get(name, f"heldout-{name}")


def run_set(name: str, code: Path) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": f"{code / 'layers' / 'core'}{os.pathsep}{code / 'scripts'}"}
    done = subprocess.run(
        [
            sys.executable,
            str(code / "scripts" / "bench_answerability.py"),
            "--documents",
            documents_flag(name),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    whole = next(row for row in rows if row["split"] == "all")
    answerable, unanswerable = whole["answerable"], whole["unanswerable"]
    return {
        "answerable": answerable,
        "right": round(whole["right"] * answerable),
        "wrong": round(whole["wrong"] * answerable),
        "withheld": round(whole["abstained"] * answerable),
        "unanswerable": unanswerable,
        "not_stated": round((whole["says_not_stated"] or 0) * unanswerable),
    }


def totals(figures: dict[str, dict[str, int]], names: tuple[str, ...]) -> dict[str, int] | None:
    if not all(name in figures for name in names):
        return None
    keys = ("answerable", "right", "wrong", "withheld", "unanswerable", "not_stated")
    return {key: sum(figures[name][key] for name in names) for key in keys}


def line(counts: dict[str, int] | None) -> str:
    if counts is None:
        return "-"
    n, u = counts["answerable"], counts["unanswerable"]
    return (
        f"{counts['right']} / {counts['wrong']} / {counts['withheld']} of {n}"
        f" ({counts['right'] / n:.2f} / {counts['wrong'] / n:.2f} / {counts['withheld'] / n:.2f});"
        f" not stated {counts['not_stated']} of {u} ({counts['not_stated'] / max(u, 1):.2f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout that answers")
    parser.add_argument("--out", type=Path, help="write the figures here (JSON)")
    parser.add_argument("--compare", type=Path, help="figures to print beside these (JSON)")
    parser.add_argument("--sets", nargs="*", choices=SETS, default=list(SETS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--label", default="", help="what answered, kept with the figures")
    args = parser.parse_args()
    with ThreadPoolExecutor(args.jobs) as pool:
        answered = pool.map(lambda name: run_set(name, args.code), args.sets)
        results = dict(zip(args.sets, answered, strict=True))
    figures: dict[str, Any] = {"label": args.label, "sets": results}
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    other = json.loads(args.compare.read_text(encoding="utf-8")) if args.compare else None
    print(f"{'set':<18} {'this code':<62} {other['label'] if other else ''}")
    rows = [(name.upper(), (name,)) for name in args.sets] + list(GROUPS.items())
    for title, names in rows:
        mine = totals(results, names)
        theirs = totals(other["sets"], names) if other else None
        print(f"{title:<18} {line(mine):<62} {line(theirs) if other else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
