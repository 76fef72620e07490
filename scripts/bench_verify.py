"""Benchmark: the verifiers on SciFact claim/evidence pairs, at the default thresholds, and the
time certiq's model adds to a typical answer.

Prints `certiq eval verify --json` for the train pairs (the default lexical model and the one
calibrated on held-out scores), and, for comparison, plain word overlap
(entail = share of the claim's content words in the evidence, no contradiction) under the same
render policy. The threshold sweeps are drawn by `make report` (scripts/report.py).

certiq's model was trained on these pairs, so its line here is in-sample (its held-out figures:
scripts/calibrate_verifier.py). Then times the render policy with certiq's model over typical
answers, judged as the Verify step judges them (the claims side by side): 8 claims, each citing 5
quotes of up to 300 characters, drawn from FEVER pairs (paraphrases, so no claim is decided by
the verbatim rule); once with no quote stating its claim (typical_answer: the slowest case) and
once with one of the five the claim's own evidence (supported_answer). It prints p50 and max
over 8 answers each, and the runtime (onnxruntime where it is installed, else numpy).

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
from certiq.models import Citation, Claim
from certiq.ports import Support
from certiq.text import content_terms
from certiq.trust.policy import decide_all
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
    """Seconds to verify an answer of 8 claims, each citing 5 quotes, as the Verify step does
    (``decide_all``): when no quote states its claim (the minimal-evidence search tries sets of
    two and three quotes: the slowest case), and when one of the five is the claim's own
    evidence (FEVER's supported pairs: the search mostly stops at single quotes)."""
    verifier = NliVerifier()
    verifier.check()  # loading is a one-off per process, not per answer
    supported = [pair for pair in pairs if pair.label == "entail"]
    timings: dict[str, float | str] = {"runtime": verifier.runtime}
    for case, claimed, own in (
        ("typical_answer", pairs, False),
        ("supported_answer", supported, True),
    ):
        rng = random.Random(7)
        seconds = []
        for _ in range(8):
            claims, citations = typical_answer(rng, claimed, pairs, own)
            started = time.perf_counter()
            decide_all(claims, citations, verifier, policy)
            seconds.append(time.perf_counter() - started)
        seconds.sort()
        timings[f"{case}_p50_s"] = round(seconds[len(seconds) // 2], 3)
        timings[f"{case}_max_s"] = round(seconds[-1], 3)
    return timings


def typical_answer(
    rng: random.Random, claimed: Sequence[Pair], quoted: Sequence[Pair], own: bool
) -> tuple[list[Claim], dict[str, Citation]]:
    """8 claims of ``claimed``, each citing 5 quotes of up to 300 characters from ``quoted``'s
    evidence; with ``own``, one of them (at random) is the claim's own evidence instead."""
    claims: list[Claim] = []
    citations: dict[str, Citation] = {}
    for index, pair in enumerate(rng.sample(list(claimed), 8)):
        quotes = [other.evidence[:300] for other in rng.sample(list(quoted), 5)]
        if own:
            quotes[rng.randrange(5)] = pair.evidence[:300]
        cited = {f"C{5 * index + j + 1}": quote for j, quote in enumerate(quotes)}
        citations |= {cid: quoting(quote, cid) for cid, quote in cited.items()}
        claims.append(Claim(id=f"K{index + 1}", text=pair.claim, citation_ids=list(cited)))
    return claims, citations


if __name__ == "__main__":
    main()
