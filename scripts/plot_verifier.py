"""Plots false certification against supported recall as the entail threshold sweeps: certiq's
verifier model on held-out predictions (docs/verifier_figures.json, from
scripts/calibrate_verifier.py) beside the lexical verifier on the same pairs, one panel per source.

    .venv/bin/python scripts/plot_verifier.py --out docs/verifier_sweep.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verifier_data import REAL_SOURCES as PAIRS
from verifier_data import ROOT

from certiq.config import PolicySettings
from certiq.evaluation.verification import read_pairs, threshold_sweep
from certiq.trust.verifier import LexicalVerifier

TITLES = {
    "scifact": "SciFact claims.train",
    "healthver": "HealthVer dev",
    "fever": "FEVER RTE dev (2-way)",
}


def lexical_sweep(source: str) -> list[tuple[float, float]]:
    thresholds = [round(0.05 * step, 2) for step in range(1, 20)]
    return threshold_sweep(
        read_pairs(PAIRS[source]), LexicalVerifier(), PolicySettings(), thresholds
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--figures", type=Path, default=ROOT / "docs" / "verifier_figures.json")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "verifier_sweep.png")
    args = parser.parse_args()
    figures = json.loads(args.figures.read_text(encoding="utf-8"))
    threshold = figures["calibration"]["entail_threshold"]
    import matplotlib

    matplotlib.use("Agg")  # no screen: write the file only
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    for axis, source in zip(axes, ("scifact", "healthver", "fever"), strict=True):
        model = figures["sweep_cv"][source]
        axis.plot(
            [p[1] for p in model],
            [p[2] for p in model],
            marker=".",
            label="certiq model (held-out folds)",
        )
        chosen = min(model, key=lambda p: abs(p[0] - threshold))
        axis.annotate(
            f"shipped threshold {threshold}",
            (chosen[1], chosen[2]),
            textcoords="offset points",
            xytext=(8, -12),
        )
        lexical = lexical_sweep(source)
        note = " (its training set)" if source == "scifact" else " (never fitted on it)"
        axis.plot(*zip(*lexical, strict=True), marker=".", label="lexical" + note)
        axis.axvline(0.05, color="grey", linestyle=":", label="5% false certification")
        axis.set_xlabel("false-certification rate")
        axis.set_ylabel("supported recall")
        axis.set_title(TITLES[source])
        axis.set_xlim(0, 0.6)
        axis.set_ylim(0, 1)
        axis.legend(loc="lower right", fontsize=8)
    figure.suptitle("Entail threshold sweep: rendered VERIFIED, by label")
    figure.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.out, dpi=100)
    print(f"plot: {args.out}")


if __name__ == "__main__":
    main()
