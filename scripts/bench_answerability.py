"""Benchmark: does the offline answer answer what the documents state, and say so when they don't?

When to run it: `make bench` runs it on the demo's set; run it on one set (``--documents``) after
changing the answerer, the reader or retrieval, or with ``--show`` to read each answer.
scripts/bench_answer_sets.py runs it on every set.

Writes the set's PDFs (scripts/make_sample_pdfs.py) into a temporary data directory, ingests
them and asks every question of the set through the local runtime (the real ASL, steps and
stores), reuse off. The sets (scripts/answer_sets.py; data in tests/data/answerability):
``demo``, the demo's documents and demo_questions.jsonl (the default); ``heldout`` (set A) and
``heldout-b`` to ``heldout-n``: other organisations' policies, written with their questions
before the answerer was ever run on them. For questions the documents answer: right
(a shown statement holds the answering words), wrong (statements shown, none of them the
answer) or abstained. For questions they do not answer: abstained (the right outcome) or
answered anyway, and how many statements were shown. For a question in parts, the note
naming the parts not stated is checked too:
``wrong_notes`` counts answers whose note names other parts than ``parts_not_stated`` (none
unless the row lists some). Figures per split (dev: rules may be set looking at it; test: for
reporting).

    .venv/bin/python scripts/bench_answerability.py [--show] [--documents heldout]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import answer_sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--show", action="store_true", help="print each question's outcome")
    parser.add_argument(
        "--documents", choices=sorted(answer_sets.names()), default="demo", help="the set asked"
    )
    parser.add_argument("--questions", type=Path, help="a JSON lines set (default: the set's own)")
    args = parser.parse_args()
    if args.questions:
        rows = answer_sets.read_questions(args.questions)
    else:
        rows = answer_sets.questions(args.documents)

    home = Path(tempfile.mkdtemp(prefix="certiq-answerability-"))
    os.environ["CERTIQ_HOME"] = str(home)
    from make_sample_pdfs import ingest_samples

    from certiq.adapters.local.orchestrator import LocalRuntime
    from certiq.bootstrap import build_deps
    from certiq.config import ReuseSettings, Settings
    from certiq.questions import receive

    deps = build_deps(Settings(home=home, reuse=ReuseSettings(enabled=False)))
    ingest_samples(deps, home / "samples", answer_sets.documents(args.documents))

    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        state = receive(row["question"], deps)
        run = LocalRuntime(deps).run(state)
        record = deps.questions.get(state.question_id)
        response = record.response if record is not None else None
        shown = [s.text for s in response.statements if s.shown] if response else []
        outcome = outcome_of(row, shown)
        noted = run.state.unanswered  # the parts the note says are not stated, as written
        note_wrong = bool(shown) and same_parts(noted) != same_parts(
            row.get("parts_not_stated", [])
        )
        for split in (row["split"], "all"):
            counts[split][outcome] += 1
            counts[split]["shown" + ("+" if row["answerable"] else "-")] += len(shown)
            counts[split]["wrong_notes"] += note_wrong
        if args.show:
            print(f"{row['id']} {outcome:<10} {row['question']}", file=sys.stderr)
            for text in shown:
                print(f"      | {text}", file=sys.stderr)
            for part in noted:
                print(f"      ~ not stated: {part}", file=sys.stderr)
    for split in ("dev", "test", "all"):
        print(json.dumps({"split": split, **summary(counts[split])}))
    return 0


def same_parts(parts: list[str]) -> list[str]:
    """Parts as compared: the note writes a part as the question does ("how long are they
    kept?"), a row as it was cut when the row was written ("how long are they kept", or "and
    who can access them?" before "and" stayed with the part before)."""
    return sorted(part.strip().removeprefix("and ").rstrip("?.! ").lower() for part in parts)


def outcome_of(row: dict[str, Any], shown: list[str]) -> str:
    if not row["answerable"]:
        return "silent" if not shown else "loose"
    if not shown:
        return "abstained"
    # evidence: the answering words, or a list of them when more than one sentence answers;
    # all of them must be shown when the row says so (a comparison needs both sides)
    evidence = row["evidence"] if isinstance(row["evidence"], list) else [row["evidence"]]
    found = [any(words in text for text in shown) for words in evidence]
    return "right" if (all(found) if row.get("all_evidence") else any(found)) else "wrong"


def summary(counts: dict[str, int]) -> dict[str, Any]:
    answerable = counts["right"] + counts["wrong"] + counts["abstained"]
    unanswerable = counts["silent"] + counts["loose"]

    def share(count: int, of: int, digits: int = 3) -> float | None:
        # None where a set given with --questions has none of that kind
        return round(count / of, digits) if of else None

    return {
        "answerable": answerable,
        "right": share(counts["right"], answerable),
        "wrong": share(counts["wrong"], answerable),
        "abstained": share(counts["abstained"], answerable),
        "statements_per_answer": share(counts["shown+"], answerable, 2),
        "unanswerable": unanswerable,
        "says_not_stated": share(counts["silent"], unanswerable),
        "answers_loosely": share(counts["loose"], unanswerable),
        "statements_when_loose": round(counts["shown-"] / max(1, counts["loose"]), 2),
        "wrong_notes": counts["wrong_notes"],
    }


if __name__ == "__main__":
    raise SystemExit(main())
