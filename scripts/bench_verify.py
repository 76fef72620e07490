"""Benchmark: the verifiers on SciFact claim/evidence pairs, at the default thresholds, and the
time certiq's model adds to a typical answer.

When to run it: `make bench` runs it; run it after changing the verifiers, their thresholds or the
render policy.

Prints `certiq eval verify --json` for the train pairs (the default lexical model and the one
calibrated on held-out scores), and, for comparison, plain word overlap
(entail = share of the claim's content words in the evidence, no contradiction) under the same
render policy. The threshold sweeps are drawn by `make report` (scripts/report.py).

certiq's model was trained on these pairs, so its line here is in-sample (its held-out figures:
scripts/calibrate_verifier.py).

Then times the render policy with certiq's model over typical answers, judged as the Verify step
judges them (the claims side by side): 8 claims, each citing 5 quotes of up to 300 characters
that share a word with it, drawn from FEVER pairs (paraphrases, so no claim is decided by the
verbatim rule); once with no quote stating its claim (typical_answer: the slowest case) and once
with one of the five the claim's own evidence (supported_answer). It prints p50 and max over 8
answers each, and the runtime (onnxruntime where it is installed, else numpy).

Last, what certiq's model makes of claims cited beside evidence about something else: 400 claims
of each set, each with another pair's evidence drawn at random (pairings it was never trained
on); the share certified and the share blocked, with the shipped guards and with the unrelated
guard off.

    .venv/bin/python scripts/bench_verify.py [--pairs FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from certiq.adapters.local.nli import SHIPPED_MODEL_DIR, NliVerifier
from certiq.config import PolicySettings
from certiq.evaluation.verification import (
    ANSWER_CLAIMS,
    Pair,
    predict_all,
    quoting,
    read_pairs,
    score_pairs,
)
from certiq.models import Citation, Claim
from certiq.ports import Support
from certiq.text import content_terms
from certiq.trust.calibration import shares_a_term
from certiq.trust.policy import decide_all
from certiq.trust.verifier import HELD_OUT_MODEL_PATH, LexicalVerifier, load_model

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "scifact" / "claims.train.jsonl"
FEVER = ROOT.parent / "shared" / "data" / "verification" / "fever_rte_dev.jsonl"
HEALTHVER = ROOT.parent / "shared" / "data" / "verification" / "healthver_dev.jsonl"


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
    sets = {"scifact": pairs, "healthver": read_pairs(HEALTHVER), "fever": read_pairs(FEVER)}
    with tempfile.TemporaryDirectory() as folder:
        unguarded = without_guard(SHIPPED_MODEL_DIR, "unrelated", Path(folder))
        for guards, verifier in (("shipped", NliVerifier()), ("unrelated off", unguarded)):
            for name, claimed in sets.items():
                shares = beside_unrelated_evidence(claimed, verifier, policy)
                print(json.dumps({"unrelated_evidence": name, "guards": guards, **shares}))


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


def beside_unrelated_evidence(
    pairs: Sequence[Pair], verifier: NliVerifier, policy: PolicySettings
) -> dict[str, float]:
    """Shares of 400 claims certified and blocked when each cites another pair's evidence."""
    rng = random.Random(3)
    claims = rng.sample(list(pairs), 400)
    moved = [Pair(pair.claim, rng.choice(pairs).evidence, "neutral") for pair in claims]
    predicted = [
        label
        for start in range(0, len(moved), ANSWER_CLAIMS)
        for label in predict_all(moved[start : start + ANSWER_CLAIMS], verifier, policy)
    ]
    return {
        "certified": round(predicted.count("entail") / len(predicted), 4),
        "blocked": round(predicted.count("contradict") / len(predicted), 4),
    }


def without_guard(model_dir: Path, guard: str, folder: Path) -> NliVerifier:
    """The same model in ``folder`` (its files linked), its calibration without ``guard``."""
    for path in model_dir.iterdir():
        (folder / path.name).symlink_to(path.resolve())
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    calibration = config["certiq_calibration"]
    calibration["guards"] = [name for name in calibration["guards"] if name != guard]
    (folder / "config.json").unlink()
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return NliVerifier(folder)


def typical_answer(
    rng: random.Random, claimed: Sequence[Pair], quoted: Sequence[Pair], own: bool
) -> tuple[list[Claim], dict[str, Citation]]:
    """8 claims of ``claimed``, each citing 5 quotes of up to 300 characters from ``quoted``'s
    evidence, each sharing a word with the claim (as retrieved quotes do: the unrelated guard
    would spare the model the others); with ``own``, one of them (at random) is the claim's own
    evidence instead."""
    claims: list[Claim] = []
    citations: dict[str, Citation] = {}
    for index, pair in enumerate(rng.sample(list(claimed), 8)):
        related = (
            other.evidence[:300]
            for other in rng.sample(list(quoted), len(quoted))
            if other.evidence != pair.evidence and shares_a_term(pair.claim, [other.evidence[:300]])
        )
        quotes = list(itertools.islice(related, 5))
        if own:
            quotes[rng.randrange(5)] = pair.evidence[:300]
        cited = {f"C{5 * index + j + 1}": quote for j, quote in enumerate(quotes)}
        citations |= {cid: quoting(quote, cid) for cid, quote in cited.items()}
        claims.append(Claim(id=f"K{index + 1}", text=pair.claim, citation_ids=list(cited)))
    return claims, citations


if __name__ == "__main__":
    main()
