"""A claim/evidence pair as the verifier's training scripts store it (gzipped JSON lines).

When to run it: never on its own; it is a library that scripts/verifier_data.py,
scripts/train_verifier.py and scripts/calibrate_verifier.py import.

Kept apart from scripts/verifier_data.py, which builds the pairs with certiq's text rules, so
that training (scripts/train_verifier.py) needs only torch, tokenizers and safetensors.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    label: str  # entail | contradict | neutral | not_entail (contradict or neutral, untold)
    source: str  # scifact | healthver | fever | synthetic:<text>:<rule>
    group: str  # the claim's words: pairs of one claim never straddle folds


def write(pairs: Sequence[Pair], target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(target, "wt", encoding="utf-8") as handle:
        for pair in pairs:
            handle.write(json.dumps(asdict(pair), ensure_ascii=False) + "\n")


def read(path: Path) -> list[Pair]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [Pair(**json.loads(line)) for line in handle if line.strip()]


def fold_of(group: str, folds: int, seed: int) -> int:
    """The cross-validation fold of a claim group: the same for every pair of one claim."""
    return random.Random(f"{seed}:{group}").randrange(folds)
