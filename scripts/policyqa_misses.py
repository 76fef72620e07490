"""What certiq's answers show for PolicyQA questions they miss, on the tuning half only.

Ingests the policies `scripts/bench_policyqa.py` writes rules from (`tuning_policies`: every
other one in title order), asks each of their questions as the bench does, and prints those
whose shown statements hold no gold answer: the question, its gold answers, what was shown (or
that the answer abstained) and the best-ranked evidence sentence holding a gold answer, if any.
The held-out half is never printed, so that its figure stays a measure of rules written without
it.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/policyqa_misses.py [--abstained] [--limit N]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench_policyqa import (
    POLICYQA,
    bench_settings,
    collection_name,
    ingest_policies,
    normalised,
    questions_of,
    read_policies,
    tuning_policies,
)

from certiq.bootstrap import build_deps
from certiq.questions import receive
from certiq.runtime.local import LocalRuntime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--abstained", action="store_true", help="only the abstentions")
    parser.add_argument("--limit", type=int, default=0, help="0: every miss")
    args = parser.parse_args()
    policies = read_policies(POLICYQA)
    tuning = tuning_policies(policies)
    policies = {title: paragraphs for title, paragraphs in policies.items() if title in tuning}
    printed = 0
    with tempfile.TemporaryDirectory() as home:
        deps = build_deps(bench_settings(Path(home)))
        ingest_policies(policies, deps)
        for question in questions_of(policies):
            state = receive(question.question, deps, collection=collection_name(question.policy))
            run = LocalRuntime(deps).run(state)
            record = deps.questions.get(state.question_id)
            shown = (
                [s.text for s in record.response.statements if s.shown]
                if record is not None and record.response is not None
                else []
            )
            spans = [span for span in map(normalised, question.spans) if span]
            if any(span in normalised(" ".join(shown)) for span in spans):
                continue
            if args.abstained and shown:
                continue
            holding = [
                (rank, e.text)
                for rank, e in enumerate(run.state.evidence)
                if any(span in normalised(e.text) for span in spans)
            ]
            print(f"[{question.policy}] {question.question}")
            print(f"  gold: {' | '.join(question.spans[:3])}")
            for text in shown or ["(abstained)"]:
                print(f"  shown: {text}")
            if holding:
                print(f"  evidence #{holding[0][0] + 1} holds it: {holding[0][1]}")
            printed += 1
            if printed == args.limit:
                break


if __name__ == "__main__":
    main()
