"""Chooses the offline answerer's two settings on the development sets, never on the blind ones.

When to run it: after retraining the reader (`make train-reader` ends with it, --write) or
changing how the answerer chooses its sentences.

``answer.min_answer`` (the reader's probability below which a question is said not stated) and
``answer.keep_ratio`` (how near the best a further sentence must score to be shown too) are
chosen on the demo's set and the development sets A-H, whose questions the reader never trained
on; the blind sets I-N, and PolicyQA's held-out policies, only measure the choice
(scripts/bench_answer_sets.py, scripts/bench_policyqa.py). For each question the Retrieve state
runs once, as the product runs it (its reader included); each pair of settings then replays the
answerer's choice, and scores it as scripts/bench_answerability.py does. The pair kept shows the
most right answers and rightly says not stated most often (the two shares added), among those
that show a wrong sentence for at most a tenth of the questions the documents answer; between
equals, the larger keep_ratio, which shows fewer sentences.

    python scripts/calibrate_reader.py [--write]

``--write`` records the sweep and the pair chosen in docs/reader_calibration.json; the pair is
then AnswerSettings' defaults (certiq.config).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import answer_sets
from bench_answer_sets import DEVELOPMENT, documents_flag
from bench_answerability import outcome_of

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.bootstrap import build_deps
from certiq.config import AnswerSettings, ReuseSettings, Settings
from certiq.models import EvidenceSpan
from certiq.ports import RelevanceScorer
from certiq.questions import receive
from certiq.steps import STEPS

ROOT = Path(__file__).resolve().parents[1]
FLOORS = [round(0.025 * n, 3) for n in range(1, 21)]
RATIOS = [0.0, 0.3, 0.5, 0.7, 0.9]
MOST_WRONG = 0.10


def retrieved(name: str) -> list[tuple[dict[str, Any], str, list[EvidenceSpan]]]:
    """Each question of the set with the evidence the Retrieve state gives it."""
    from make_sample_pdfs import ingest_samples

    flag = documents_flag(name)
    rows = answer_sets.questions(flag)
    home = Path(tempfile.mkdtemp(prefix="certiq-reader-calibration-"))
    deps = build_deps(Settings(home=home, reuse=ReuseSettings(enabled=False)))
    if deps.relevance is None:
        raise SystemExit("the reader did not load: nothing to calibrate")
    ingest_samples(deps, home / "samples", answer_sets.documents(flag))
    out = []
    for row in rows:
        state = STEPS["retrieve"](receive(row["question"], deps), deps)
        out.append((row, row["question"], list(state.evidence)))
    return out


class RememberingReader:
    """The reader, each (question, passages) read once: every pair of settings replays the
    answerer on the same questions, and a question in parts has its parts read again."""

    def __init__(self, reader: RelevanceScorer) -> None:
        self._reader = reader
        self._read: dict[tuple[str, tuple[str, ...]], list[float]] = {}

    @property
    def name(self) -> str:
        return self._reader.name

    def relevance(self, question: str, sentences: Sequence[str]) -> list[float]:
        key = (question, tuple(sentences))
        if key not in self._read:
            self._read[key] = self._reader.relevance(question, sentences)
        return self._read[key]


def score(
    asked: Sequence[tuple[dict[str, Any], str, list[EvidenceSpan]]],
    settings: AnswerSettings,
    reader: RelevanceScorer,
) -> dict[str, int]:
    answerer = ExtractiveAnswerer(settings, reader)
    counts = {"right": 0, "wrong": 0, "abstained": 0, "silent": 0, "loose": 0}
    for row, question, evidence in asked:
        shown = [sentence.text for sentence in answerer.select(question, evidence)]
        counts[outcome_of(row, shown)] += 1
    return counts


def objective(counts: dict[str, int]) -> float:
    answerable = counts["right"] + counts["wrong"] + counts["abstained"]
    unanswerable = counts["silent"] + counts["loose"]
    if counts["wrong"] > MOST_WRONG * answerable:
        return float("-inf")
    return counts["right"] / answerable + counts["silent"] / unanswerable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sets", nargs="*", default=["demo", *DEVELOPMENT])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    asked = [item for name in args.sets for item in retrieved(name)]
    loaded = build_deps(Settings(home=Path(tempfile.mkdtemp()))).relevance
    assert loaded is not None
    reader = RememberingReader(loaded)
    results = []
    for floor in FLOORS:
        for ratio in RATIOS:
            counts = score(asked, AnswerSettings(min_answer=floor, keep_ratio=ratio), reader)
            results.append((objective(counts), floor, ratio, counts))
            print(json.dumps({"min_answer": floor, "keep_ratio": ratio, **counts}))
    best = max(results, key=lambda item: (item[0], item[2]))
    chosen = {
        "min_answer": best[1],
        "keep_ratio": best[2],
        "chosen_on": args.sets,
        "development_counts": best[3],
    }
    print(json.dumps({"chosen": chosen}))
    if args.write:
        sweep = [
            {
                "min_answer": floor,
                "keep_ratio": ratio,
                # None: more wrong answers than the cap allows
                "objective": round(value, 4) if value > float("-inf") else None,
                **counts,
            }
            for value, floor, ratio, counts in results
        ]
        path = ROOT / "docs" / "reader_calibration.json"
        lines = [json.dumps(row) for row in sweep]
        path.write_text(
            f'{{"chosen": {json.dumps(chosen)},\n "sweep": [\n  ' + ",\n  ".join(lines) + "\n ]}\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
