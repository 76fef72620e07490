"""Benchmark: the verifiers on SciFact claim/evidence pairs, at the default thresholds, and the
time certiq's model adds to a typical answer.

Prints `certiq eval verify --json` for the train pairs (the default lexical model and the one
calibrated on held-out scores), and, for comparison, plain word overlap
(entail = share of the claim's content words in the evidence, no contradiction) under the same
render policy. The threshold sweeps are drawn by `make report` (scripts/report.py).

certiq's model was trained on these pairs, so its line here is in-sample (its held-out figures:
scripts/calibrate_verifier.py). Then times the render policy with certiq's model over typical
answers: 8 claims, each citing 5 quotes of up to 300 characters, drawn from FEVER pairs
(paraphrases, so no claim is decided by the verbatim rule), and prints p50 and max over 8
answers, and the runtime (onnxruntime where it is installed, else numpy).

    .venv/bin/python scripts/bench_verify.py [--pairs FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

from certiq.adapters.local.nli import NliVerifier
from certiq.config import PolicySettings
from certiq.evaluation.verification import (
    Pair,
    quoting,
    read_pairs,
    score_pairs,
)
from certiq.models import Claim
from certiq.ports import Support
from certiq.text import content_terms
from certiq.trust.policy import decide
from certiq.trust.verifier import HELD_OUT_MODEL_PATH, LexicalVerifier, load_model

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "scifact" / "claims.train.jsonl"
FEVER = ROOT.parent / "shared" / "data" / "verification" / "fever_rte_dev.jsonl"


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
    verifiers = (
        NliVerifier(),
        LexicalVerifier(),
        LexicalVerifier(model=load_model(HELD_OUT_MODEL_PATH)),
        OverlapVerifier(),
    )
    for verifier in verifiers:
        report = score_pairs(pairs, verifier, policy)
        print(json.dumps({"verifier": verifier.name, **report.metrics()}))
    print(json.dumps(time_typical_answers(read_pairs(FEVER), policy)))


def time_typical_answers(pairs: Sequence[Pair], policy: PolicySettings) -> dict[str, float | str]:
    rng = random.Random(7)
    verifier = NliVerifier()
    verifier.check()  # loading is a one-off per process, not per answer
    seconds = []
    for _ in range(8):
        sample = rng.sample(list(pairs), 48)
        started = time.perf_counter()
        for index, pair in enumerate(sample[:8]):
            quotes = [p.evidence[:300] for p in sample[8 + 5 * index : 13 + 5 * index]]
            citations = {f"C{j + 1}": quoting(q, f"C{j + 1}") for j, q in enumerate(quotes)}
            claim = Claim(id="K1", text=pair.claim, citation_ids=list(citations))
            decide(claim, citations, verifier, policy)
        seconds.append(time.perf_counter() - started)
    seconds.sort()
    return {
        "runtime": verifier.runtime,
        "typical_answer_p50_s": round(seconds[len(seconds) // 2], 3),
        "typical_answer_max_s": round(seconds[-1], 3),
    }


if __name__ == "__main__":
    main()
