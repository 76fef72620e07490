"""Benchmark: the lexical verifier on SciFact claim/evidence pairs, at the default thresholds.

Prints `certiq eval verify --json` for the train pairs (the default lexical model and the one
calibrated on held-out scores), and, for comparison, plain word overlap
(entail = share of the claim's content words in the evidence, no contradiction) under the same
render policy. Then sweeps the entail threshold and plots false-certification rate against
supported recall for both (PNG, matplotlib), marking the default threshold.

    .venv/bin/python scripts/bench_verify.py [--pairs FILE] [--plot PNG]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from certiq.config import PolicySettings
from certiq.evaluation.verification import Pair, read_pairs, score_pairs
from certiq.ports import Support, Verifier
from certiq.text import content_terms
from certiq.trust.verifier import HELD_OUT_MODEL_PATH, LexicalVerifier, load_model

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
    parser.add_argument("--plot", type=Path, default=ROOT / ".bench" / "verify_sweep.png")
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)
    policy = PolicySettings()
    verifiers = (
        LexicalVerifier(),
        LexicalVerifier(model=load_model(HELD_OUT_MODEL_PATH)),
        OverlapVerifier(),
    )
    for verifier in verifiers:
        report = score_pairs(pairs, verifier, policy)
        print(json.dumps({"verifier": verifier.name, **report.metrics()}))
    plot_sweep(pairs, verifiers, policy, args.plot)
    print(f"threshold sweep: {args.plot}")


def plot_sweep(
    pairs: Sequence[Pair], verifiers: Sequence[Verifier], policy: PolicySettings, target: Path
) -> None:
    """False-certification rate against supported recall as tau_entail goes from 0.05 to 0.95."""
    import matplotlib

    matplotlib.use("Agg")  # no screen: write the file only
    import matplotlib.pyplot as plt

    thresholds = [round(0.05 * step, 2) for step in range(1, 20)]
    figure, axes = plt.subplots(figsize=(6, 4.5))
    for verifier in verifiers:
        points = []
        for tau in thresholds:
            metrics = score_pairs(
                pairs, verifier, policy.model_copy(update={"tau_entail": tau})
            ).metrics()
            points.append((metrics["false_certification_rate"], metrics["supported_recall"]))
        axes.plot(*zip(*points, strict=True), marker=".", label=verifier.name)
        default = points[thresholds.index(policy.tau_entail)]
        axes.annotate(
            f"tau {policy.tau_entail}", default, textcoords="offset points", xytext=(6, -10)
        )
    axes.axvline(0.05, color="grey", linestyle=":", label="5% false certification")
    axes.set_xlabel("false-certification rate (contradict + neutral pairs rendered VERIFIED)")
    axes.set_ylabel("supported recall (entail pairs VERIFIED)")
    axes.set_title("SciFact claims.train: entail threshold sweep")
    axes.legend(loc="lower right")
    figure.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target, dpi=120)
    plt.close(figure)


if __name__ == "__main__":
    main()
