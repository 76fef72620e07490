"""Chooses the verifier model's thresholds and guards on held-out predictions, and measures them.

When to run it: `make train-verifier` runs it (--held-out) after training; run it by hand to choose
the thresholds or guards again on the same predictions.

Reads what scripts/train_verifier.py wrote: oof.jsonl (grouped cross-validation: each pair
predicted by a model that never saw its claim) and cross-<source>.jsonl (a whole source held
out). No torch: the decisions are made by certiq.trust.calibration, as at run time.

Thresholds: the entail threshold is the lowest at which the false-certification rate (non-entail
pairs rendered VERIFIED) is at most --max-fcr on every source in --sources; the contradict
threshold then maximises 3-way balanced accuracy on SciFact and HealthVer.

Figures, all on predictions of claims the model was not trained on:
  cv     nested: each fold's thresholds are chosen on the other folds' predictions
  cross  thresholds chosen on a fifth of the training sources' claims kept aside, measured on the
         held-out source
Guards (number, verbatim) are measured on and off; those that help are kept. The unrelated guard
is always kept: it is for claims cited with evidence about something else, which these sets do not
hold (scripts/bench_verify.py measures it on claims paired with other claims' evidence). The
thresholds and guards chosen on every fold together are written into the model's config.json.

    .venv/bin/python scripts/calibrate_verifier.py --runs .verifier \
        --model layers/core/certiq/trust/verifier_model --figures docs/verifier_figures.json

A whole source held out alone, on a CPU (about 85 minutes on 2 cores for SciFact):

    .venv-train/bin/python scripts/train_verifier.py cross --hold scifact --work /tmp/cross
    .venv/bin/python scripts/calibrate_verifier.py --runs /tmp/cross --cross-only
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from verifier_pairs import fold_of

from certiq.config import PolicySettings
from certiq.evaluation.verification import Pair, predict
from certiq.ports import Support
from certiq.trust.calibration import (
    GUARDS,
    Calibration,
    shares_a_term,
    states_verbatim,
    unstated_numbers,
)

ROOT = Path(__file__).resolve().parents[1]
LABEL = {"entail": 0, "contradict": 1, "neutral": 2, "not_entail": -1}
# predict()'s label of a rendered state: VERIFIED, BLOCKED, UNVERIFIED -> 0, 1, 2 as in states().
PREDICTED_INDEX = {"entail": 0, "contradict": 1, "neutral": 2}
THREE_WAY = ("scifact", "healthver", "contractnli_dev", "contractnli_train")
# Kept whatever the labelled sets say: they hold no claim cited beside unrelated evidence.
ALWAYS_GUARDED = ("unrelated",)
Array = np.ndarray[Any, Any]


@dataclass
class Predictions:
    rows: list[dict[str, Any]]
    source: Array
    label: Array
    entail: Array
    contradict: Array
    verbatim: Array
    number: Array
    unrelated: Array

    @classmethod
    def read(cls, path: Path) -> Predictions:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        rows = [row for row in rows if row]
        for row in rows:  # ContractNLI's dev split is reported apart from its train split
            if row["source"] == "contractnli":
                row["source"] = "contractnli_" + row["group"].split(":")[1].split("-")[0]
        p = np.asarray([row["p"] for row in rows], dtype=np.float64)
        return cls(
            rows=rows,
            source=np.asarray([row["source"] for row in rows]),
            label=np.asarray([LABEL[row["label"]] for row in rows]),
            entail=p[:, 0],
            contradict=p[:, 1],
            verbatim=np.asarray([states_verbatim(r["claim"], [r["evidence"]]) for r in rows]),
            number=np.asarray([bool(unstated_numbers(r["claim"], r["evidence"])) for r in rows]),
            unrelated=np.asarray([not shares_a_term(r["claim"], [r["evidence"]]) for r in rows]),
        )

    def subset(self, keep: Array) -> Predictions:
        return Predictions(
            rows=[row for row, k in zip(self.rows, keep, strict=True) if k],
            source=self.source[keep],
            label=self.label[keep],
            entail=self.entail[keep],
            contradict=self.contradict[keep],
            verbatim=self.verbatim[keep],
            number=self.number[keep],
            unrelated=self.unrelated[keep],
        )


def states(p: Predictions, t_entail: float, t_contradict: float, guards: Sequence[str]) -> Array:
    """0 VERIFIED, 1 BLOCKED, 2 UNVERIFIED: the render policy over calibrated scores."""
    blocked = p.contradict >= t_contradict
    verified = p.entail >= t_entail
    if "number" in guards:
        verified &= ~p.number
    if "verbatim" in guards:
        blocked &= ~p.verbatim
        verified |= p.verbatim
    if "unrelated" in guards:
        blocked &= p.verbatim | ~p.unrelated
        verified &= p.verbatim | ~p.unrelated
    return np.where(blocked, 1, np.where(verified, 0, 2))


def measure(p: Predictions, state: Array) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for source in sorted(set(p.source)):
        mine = p.source == source
        label, guess = p.label[mine], state[mine]
        entail = label == 0
        figures = {
            "pairs": int(mine.sum()),
            "false_certification_rate": float((guess[~entail] == 0).mean()),
            "supported_recall": float((guess[entail] == 0).mean()),
        }
        if source in THREE_WAY:
            figures["balanced_accuracy"] = float(
                np.mean([(guess[label == k] == k).mean() for k in range(3)])
            )
        else:  # entail against the rest
            figures["balanced_accuracy_2way"] = float(
                ((guess[entail] == 0).mean() + (guess[~entail] != 0).mean()) / 2
            )
        out[source] = {k: round(v, 4) for k, v in figures.items()}
    return out


def choose(
    p: Predictions, guards: Sequence[str], max_fcr: float, sources: Sequence[str]
) -> tuple[float, float]:
    entail_grid = np.round(np.arange(0.30, 0.9951, 0.005), 3)
    t_entail = 0.995
    for t in entail_grid:
        state = states(p, float(t), 1.01, guards)
        worst = max(
            float((state[(p.source == s) & (p.label != 0)] == 0).mean())
            for s in sources
            if ((p.source == s) & (p.label != 0)).any()
        )
        if worst <= max_fcr:
            t_entail = float(t)
            break
    best, t_contradict = -1.0, 0.5
    # Blocking withholds a statement: only when contradiction is the more likely reading.
    for t in np.round(np.arange(0.50, 0.991, 0.01), 2):
        figures = measure(p, states(p, t_entail, float(t), guards))
        score = np.mean(
            [figures[s]["balanced_accuracy"] for s in THREE_WAY if s in figures and s in sources]
        )
        if score > best:
            best, t_contradict = float(score), float(t)
    return t_entail, t_contradict


def nested(p: Predictions, guards: Sequence[str], args: argparse.Namespace) -> dict[str, Any]:
    fold = np.asarray([fold_of(row["group"], args.folds, args.seed) for row in p.rows])
    state = np.full(len(p.rows), 2)
    chosen = []
    for k in range(args.folds):
        t_e, t_c = choose(p.subset(fold != k), guards, args.max_fcr, args.sources)
        chosen.append([t_e, t_c])
        test = fold == k
        state[test] = states(p.subset(test), t_e, t_c, guards)
    return {"guards": list(guards), "thresholds_per_fold": chosen, "figures": measure(p, state)}


def cross(path: Path, guards: Sequence[str], args: argparse.Namespace) -> dict[str, Any]:
    p = Predictions.read(path)
    calibrate = np.asarray([row["split"] == "calibrate" for row in p.rows])
    aside = p.subset(calibrate)
    t_e, t_c = choose(
        aside, guards, args.max_fcr, [s for s in args.sources if s in set(aside.source)]
    )
    test = p.subset(~calibrate)
    return {
        "guards": list(guards),
        "thresholds": [t_e, t_c],
        "figures": measure(test, states(test, t_e, t_c, guards)),
    }


def sweep(
    p: Predictions, guards: Sequence[str], t_contradict: float
) -> dict[str, list[list[float]]]:
    """(threshold, false certification, supported recall) per source as the entail threshold
    moves: the data of the report's plot."""
    out: dict[str, list[list[float]]] = {}
    for source in sorted(set(p.source)):
        mine = p.subset(p.source == source)
        points = []
        for t in np.round(np.arange(0.05, 0.9951, 0.01), 3):
            figures = measure(mine, states(mine, float(t), t_contradict, guards))[source]
            points.append(
                [float(t), figures["false_certification_rate"], figures["supported_recall"]]
            )
        out[source] = points
    return out


def held_out_sources(
    p: Predictions, guards: Sequence[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Sources no model saw (`train_verifier.py sources`): each is measured at the thresholds
    chosen on the other held-out sources alone, as a new source would meet thresholds chosen
    without it; ContractNLI's dev split counts as one source with its train split."""
    family = np.asarray([str(s).split("_")[0] for s in p.source])
    figures: dict[str, Any] = {}
    thresholds: dict[str, list[float]] = {}
    for target in sorted(set(family)):
        others = p.subset(family != target)
        t_e, t_c = choose(others, guards, args.max_fcr, sorted(set(others.source)))
        mine = p.subset(family == target)
        figures.update(measure(mine, states(mine, t_e, t_c, guards)))
        thresholds[target] = [t_e, t_c]
    return {"guards": list(guards), "thresholds_per_source": thresholds, "figures": figures}


def calibrate_held_out(args: argparse.Namespace) -> None:
    """The held-out-sources protocol: guards kept where they help the held-out figures, the
    shipped thresholds chosen on every held-out source together."""
    p = Predictions.read(args.runs / "heldout.jsonl")
    sources = sorted(set(p.source))
    optional = [guard for guard in GUARDS if guard not in ALWAYS_GUARDED]
    combos = [
        (*c, *ALWAYS_GUARDED)
        for n in range(len(optional) + 1)
        for c in itertools.combinations(optional, n)
    ]
    runs = {"+".join(c): held_out_sources(p, c, args) for c in combos}
    for name, result in runs.items():
        print(json.dumps({"held_out": name, **result["figures"]}))

    def merit(name: str) -> float:
        figures = runs[name]["figures"]
        accuracy = np.mean([figures[s]["balanced_accuracy"] for s in sources])
        overshoot = max(figures[s]["false_certification_rate"] for s in sources) - args.max_fcr
        return float(accuracy - 5 * max(overshoot, 0.0))

    best = max(reversed(list(runs)), key=merit)
    guards = tuple(runs[best]["guards"])
    t_e, t_c = choose(p, guards, args.max_fcr, sources)
    calibration = Calibration(t_e, t_c, guards)
    check_runtime(p, calibration, guards)
    figures = {
        "protocol": "sources held out from training; thresholds for each chosen on the others",
        "calibration": {
            "entail_threshold": t_e,
            "contradict_threshold": t_c,
            "guards": list(guards),
            "max_fcr": args.max_fcr,
            "chosen_on": sources,
        },
        "held_out": runs,
        "chosen_guards": best,
        "sweep_held_out": sweep(p, guards, t_c),
    }
    write_out(figures, args)


def write_out(figures: dict[str, Any], args: argparse.Namespace) -> None:
    """The figures file, and the chosen calibration into --model's config.json."""
    args.figures.parent.mkdir(parents=True, exist_ok=True)
    args.figures.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(figures["calibration"]))
    if args.model is not None:
        config_path = args.model / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        chosen = figures["calibration"]
        config["certiq_calibration"] = {
            key: chosen[key] for key in ("entail_threshold", "contradict_threshold", "guards")
        }
        config_path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        print(f"calibration written to {config_path}")


class Replayed:
    """The model's held-out probabilities, replayed through its calibration as a Verifier."""

    def __init__(self, p: Predictions, calibration: Calibration) -> None:
        self._probabilities = {(row["claim"], row["evidence"]): row["p"] for row in p.rows}
        self._calibration = calibration

    @property
    def name(self) -> str:
        return "replayed"

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        entail, contradict, _ = self._probabilities[(claim, " ".join(evidence))]
        return self._calibration.support(claim, evidence, entail, contradict)


def check_runtime(p: Predictions, calibration: Calibration, guards: Sequence[str]) -> None:
    """The vectorised decisions above must be the ones the render policy makes."""
    verifier, policy = Replayed(p, calibration), PolicySettings()
    expected = states(p, calibration.entail_threshold, calibration.contradict_threshold, guards)
    for row, want in zip(p.rows[:3000], expected[:3000], strict=False):
        pair = Pair(row["claim"], row["evidence"], row["label"])
        got = PREDICTED_INDEX[predict(pair, verifier, policy)]
        if got != want and abs(row["p"][0] - calibration.entail_threshold) > 1e-5:
            raise SystemExit(f"the render policy disagrees with calibration on {row['claim']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--runs", type=Path, default=ROOT / ".verifier")
    parser.add_argument("--model", type=Path, help="a model folder whose config.json to update")
    parser.add_argument("--figures", type=Path, default=ROOT / ".verifier" / "figures.json")
    parser.add_argument("--max-fcr", type=float, default=0.05)
    parser.add_argument("--sources", nargs="+", default=["scifact", "healthver", "fever"])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--cross-only",
        action="store_true",
        help="measure the cross-<source>.jsonl runs alone, under every set of guards, and write "
        "nothing: for a run of `train_verifier.py cross` without the cross-validation",
    )
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="calibrate on heldout.jsonl (`train_verifier.py sources`): the shipped recipe",
    )
    args = parser.parse_args()
    if args.held_out:
        calibrate_held_out(args)
        return
    if args.cross_only:
        for path in sorted(args.runs.glob("cross-*.jsonl")):
            held_out = path.stem.removeprefix("cross-")
            for n in range(len(GUARDS) + 1):
                for guards in itertools.combinations(GUARDS, n):
                    result = cross(path, guards, args)
                    print(json.dumps({"cross": held_out, **result, **result["figures"][held_out]}))
        return
    oof = Predictions.read(args.runs / "oof.jsonl")
    optional = [guard for guard in GUARDS if guard not in ALWAYS_GUARDED]
    combos = [
        (*c, *ALWAYS_GUARDED)
        for n in range(len(optional) + 1)
        for c in itertools.combinations(optional, n)
    ]
    cv = {"+".join(c) or "none": nested(oof, c, args) for c in combos}
    for name, result in cv.items():
        print(json.dumps({"cv": name, **result["figures"]}))

    def merit(name: str) -> float:
        figures = cv[name]["figures"]
        # the worst FCR overshoot costs more than recall gains
        recall = np.mean([figures[s]["supported_recall"] for s in THREE_WAY])
        overshoot = max(figures[s]["false_certification_rate"] for s in args.sources) - args.max_fcr
        return float(recall - 5 * max(overshoot, 0.0))

    # Ties go to the set with more guards: "verbatim" keeps certiq's promise that a claim
    # quoting its evidence is never blocked, and should change little on these sets.
    best = max(reversed(list(cv)), key=merit)
    guards = tuple(cv[best]["guards"])
    t_e, t_c = choose(oof, guards, args.max_fcr, args.sources)
    calibration = Calibration(t_e, t_c, guards)
    check_runtime(oof, calibration, guards)
    crosses = {
        path.stem.removeprefix("cross-"): cross(path, guards, args)
        for path in sorted(args.runs.glob("cross-*.jsonl"))
    }
    for name, result in crosses.items():
        print(json.dumps({"cross": name, **result["figures"][name]}))
    figures = {
        "calibration": {
            "entail_threshold": t_e,
            "contradict_threshold": t_c,
            "guards": list(guards),
            "max_fcr": args.max_fcr,
            "chosen_on": args.sources,
        },
        "cv": cv,
        "chosen_guards": best,
        "cross": crosses,
        "sweep_cv": sweep(oof, guards, t_c),
    }
    write_out(figures, args)


if __name__ == "__main__":
    main()
