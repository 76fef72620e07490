"""Benchmark: the lexical verifier on SciFact claim/evidence pairs, at the default thresholds.

Prints `certiq eval verify --json` for the train pairs, and, for comparison, plain word overlap
(entail = share of the claim's content words in the evidence, no contradiction) under the same
render policy.

    .venv/bin/python scripts/bench_verify.py [--pairs FILE]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from certiq.config import PolicySettings
from certiq.evaluation.verification import read_pairs, score_pairs
from certiq.ports import Support
from certiq.text import content_terms
from certiq.trust.verifier import LexicalVerifier

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "scifact" / "claims.train.jsonl"


class OverlapVerifier:
    @property
    def name(self) -> str:
        return "overlap"

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        terms = set(content_terms(claim))
        if not terms or not evidence:
            return Support(entail=0.0, contradict=0.0)
        shared = terms & set(content_terms(" ".join(evidence)))
        return Support(entail=len(shared) / len(terms), contradict=0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)
    policy = PolicySettings()
    for verifier in (LexicalVerifier(), OverlapVerifier()):
        report = score_pairs(pairs, verifier, policy)
        print(json.dumps({"verifier": verifier.name, **report.metrics()}))


if __name__ == "__main__":
    main()
