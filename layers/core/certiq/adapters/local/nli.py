"""A local NLI cross-encoder as the Verifier: certiq's own model by default, on onnxruntime
when it is installed, else in numpy (certiq.adapters.local.cross_encoder: the same scores).

certiq ships its verifier model in certiq/trust/verifier_model (a cross-encoder fine-tuned from
all-MiniLM-L6-v2 by scripts/train_verifier.py; MODEL_CARD.md there says on what and how well);
CERTIQ_VERIFICATION__NLI_MODEL_DIR names another folder. Nothing is downloaded. What loads is a
BERT pair classifier (certiq.adapters.local.cross_encoder) whose id2label names entailment and
contradiction. Premise = the evidence joined, hypothesis = the claim, as a sentence pair, the
premise truncated first. The probabilities then pass through the model's calibration
(certiq.trust.calibration: its thresholds and guard rules), when its config.json has one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from certiq.adapters.local.cross_encoder import (
    CrossEncoder,
    CrossEncoderUnavailable,
    Runtime,
    load_cross_encoder,
    model_name,
    read_config,
)
from certiq.adapters.local.cross_encoder import missing_requirements as _missing
from certiq.adapters.local.minilm import LoadedOnce
from certiq.ports import Support
from certiq.trust.calibration import Calibration

SETTING: Final = "CERTIQ_VERIFICATION__NLI_MODEL_DIR"
# certiq's own verifier model, shipped inside the package.
SHIPPED_MODEL_DIR: Final = Path(__file__).resolve().parents[2] / "trust" / "verifier_model"
# An empty claim or evidence set: nothing to judge, nothing supported.
NOTHING: Final = Support(entail=0.0, contradict=0.0)


class NliModelUnavailable(CrossEncoderUnavailable):
    """The NLI folder cannot be loaded; the message names what is missing."""


def missing_requirements(model_dir: Path) -> list[str]:
    """What stops the NLI model in model_dir from loading (empty when nothing visible does)."""
    return _missing(model_dir, SETTING)


@dataclass(frozen=True)
class _Loaded:
    classifier: CrossEncoder
    entail: int
    contradict: int


def load(model_dir: Path, runtime: Runtime = "auto") -> _Loaded:
    try:
        classifier = load_cross_encoder(model_dir, SETTING, runtime=runtime)
    except CrossEncoderUnavailable as error:
        raise NliModelUnavailable(f"the NLI verifier cannot load: {error}") from error
    entail = classifier.label_index("entail")
    contradict = classifier.label_index("contradict")
    if entail is None or contradict is None:
        raise NliModelUnavailable(
            f"{model_dir}/config.json id2label {sorted(enumerate(classifier.labels))} does not "
            "name one entailment and one contradiction label: not an NLI classifier"
        )
    _calibration(classifier.config, model_dir)  # refused at load, not at the first claim
    return _Loaded(classifier, entail, contradict)


def calibration_of(model_dir: Path) -> Calibration:
    """The thresholds and guard rules in the model's config.json (read without the weights)."""
    try:
        config = read_config(model_dir)
    except CrossEncoderUnavailable as error:
        raise NliModelUnavailable(str(error)) from error
    return _calibration(config, model_dir)


def _calibration(config: dict[str, object], model_dir: Path) -> Calibration:
    try:
        return Calibration.from_config(config.get("certiq_calibration"))  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError) as error:
        raise NliModelUnavailable(f"{model_dir}/config.json certiq_calibration: {error}") from error


class NliVerifier:
    """Implements the Verifier port with a local NLI cross-encoder (loaded on first use, once).

    ``assess_batch`` judges many (claim, evidence set) pairs in one pass of the encoder: the
    render policy asks it for every evidence set the claims of an answer need judged next.
    """

    def __init__(self, model_dir: Path = SHIPPED_MODEL_DIR, runtime: Runtime = "auto") -> None:
        self._model_dir = model_dir
        self._model = LoadedOnce(lambda: load(self._model_dir, runtime))
        # The guard rules decide quoted claims (every offline answer's) without the weights, so
        # the encoder is loaded only when a claim needs it.
        self._calibration = LoadedOnce(lambda: calibration_of(self._model_dir))

    @property
    def name(self) -> str:
        """nli:<the model's name>: config.json's certiq_model_name, else its folder's name."""
        return f"nli:{model_name(self._model_dir)}"

    def check(self) -> None:
        """Loads the model now: raises NliModelUnavailable naming what is missing."""
        self._model.get()

    @property
    def runtime(self) -> str:
        """Where the encoder runs, onnxruntime or numpy (loads the model)."""
        return self._model.get().classifier.runtime

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        return self.assess_batch([(claim, evidence)])[0]

    def assess_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Support]:
        calibration = self._calibration.get()
        ruled = [
            calibration.by_rule(claim, evidence) if claim.strip() and evidence else NOTHING
            for claim, evidence in pairs
        ]
        # Only what no rule decided goes through the encoder.
        judged = [pair for pair, support in zip(pairs, ruled, strict=True) if support is None]
        scores = iter(self._scores(self._model.get(), judged) if judged else [])
        return [
            support or calibration.scored(claim, evidence, *next(scores))
            for support, (claim, evidence) in zip(ruled, pairs, strict=True)
        ]

    @staticmethod
    def _scores(
        model: _Loaded, pairs: Sequence[tuple[str, Sequence[str]]]
    ) -> list[tuple[float, float]]:
        """(entail, contradict) probabilities per (claim, evidence set)."""
        encoded = [(" ".join(evidence), claim) for claim, evidence in pairs]
        probabilities = model.classifier.probabilities(encoded)[:, [model.entail, model.contradict]]
        return [(float(entail), float(contradict)) for entail, contradict in probabilities]
