"""A local NLI cross-encoder as the Verifier, run in numpy: certiq's own model by default.

certiq ships its verifier model in certiq/trust/verifier_model (a cross-encoder fine-tuned from
all-MiniLM-L6-v2 by scripts/train_verifier.py; MODEL_CARD.md there says on what and how well);
CERTIQ_VERIFICATION__NLI_MODEL_DIR names another folder. Nothing is downloaded. What loads: a
BERT-architecture sequence-classification checkpoint (config.json model_type "bert", id2label
naming entailment and contradiction), saved as model.safetensors (float32 or float16) with a
tokenizers tokenizer.json. The encoder is the numpy BERT that runs all-MiniLM-L6-v2
(certiq.adapters.local.minilm, checked against sentence-transformers' vectors); on top, as
transformers' BertForSequenceClassification does: the [CLS] vector, the pooler (dense + tanh),
the classifier, a softmax. Premise = the evidence joined, hypothesis = the claim, as a sentence
pair (segment ids 0 and 1), the premise truncated first. The probabilities then pass through the
model's calibration (certiq.trust.calibration: its thresholds and guard rules), when its
config.json has one.

Other architectures (RoBERTa, DeBERTa: most published NLI cross-encoders) are refused with a
message saying so: their encoders differ (position offsets, relative attention) and running them
without torch would need a port this module does not have.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.minilm import (
    F32,
    LoadedOnce,
    ModelUnavailable,
    _Bert,
    _one_blas_thread,
)
from certiq.ports import Support
from certiq.trust.calibration import Calibration

if TYPE_CHECKING:
    from tokenizers import Tokenizer

REQUIRED_FILES: Final = ("config.json", "model.safetensors", "tokenizer.json")
RUNTIME_LIBRARIES: Final = ("tokenizers", "safetensors")
MAX_LENGTH: Final = 512
SETTING: Final = "CERTIQ_VERIFICATION__NLI_MODEL_DIR"
# certiq's own verifier model, shipped inside the package.
SHIPPED_MODEL_DIR: Final = Path(__file__).resolve().parents[2] / "trust" / "verifier_model"
# Tokens per encoder call (pairs x padded length). Small batches measured fastest here: larger
# temporaries cost more in memory traffic than the bigger products gain (1024: 31 pairs/s,
# 4096: 17 on FEVER pairs, one BLAS thread).
BATCH_TOKENS: Final = 512
# An empty claim or evidence set: nothing to judge, nothing supported.
NOTHING: Final = Support(entail=0.0, contradict=0.0)


class NliModelUnavailable(ModelUnavailable):
    """The NLI folder cannot be loaded; the message names what is missing."""


def missing_requirements(model_dir: Path) -> list[str]:
    """What stops the NLI model in model_dir from loading (empty when nothing visible does)."""
    problems = [
        f"the Python package {name!r} is not installed (pip install {name})"
        for name in RUNTIME_LIBRARIES
        if importlib.util.find_spec(name) is None
    ]
    if not model_dir.is_dir():
        return [*problems, f"{model_dir} is not a folder ({SETTING})"]
    absent = [name for name in REQUIRED_FILES if not (model_dir / name).is_file()]
    if absent:
        problems.append(f"{model_dir} lacks {', '.join(absent)}")
    return problems


@dataclass(frozen=True)
class _Head:
    pooler_w: F32  # (hidden, hidden)
    pooler_b: F32
    classifier_w: F32  # (hidden, labels)
    classifier_b: F32


@dataclass(frozen=True)
class _Loaded:
    tokenizer: Tokenizer
    bert: _Bert
    head: _Head
    entail: int
    contradict: int


def _label_index(config: dict[str, Any], folder: Path) -> tuple[int, int]:
    labels = {int(i): str(name).lower() for i, name in config.get("id2label", {}).items()}
    entail = [i for i, name in labels.items() if name.startswith("entail")]
    contradict = [i for i, name in labels.items() if name.startswith("contradict")]
    if len(entail) != 1 or len(contradict) != 1:
        raise NliModelUnavailable(
            f"{folder}/config.json id2label {sorted(labels.items())} does not name one entailment "
            "and one contradiction label: not an NLI classifier"
        )
    return entail[0], contradict[0]


def load(model_dir: Path) -> _Loaded:
    problems = missing_requirements(model_dir)
    if problems:
        raise NliModelUnavailable("the NLI verifier cannot load: " + "; ".join(problems))
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    model_type = config.get("model_type")
    if model_type != "bert":
        raise NliModelUnavailable(
            f"{model_dir} holds a {model_type!r} model; only BERT-architecture NLI "
            "cross-encoders (model_type 'bert') run here without torch"
        )
    entail, contradict = _label_index(config, model_dir)
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    weights = load_file(str(model_dir / "model.safetensors"))
    encoder = {name.removeprefix("bert."): value for name, value in weights.items()}
    try:
        bert = _Bert.from_weights(encoder, config)
    except ModelUnavailable as error:
        raise NliModelUnavailable(f"{model_dir}: {error}") from error

    def get(name: str) -> F32:
        if name not in encoder:
            raise NliModelUnavailable(
                f"{model_dir}/model.safetensors lacks {name!r}: not a sequence classifier"
            )
        return np.ascontiguousarray(encoder[name], dtype=np.float32)

    head = _Head(
        pooler_w=np.ascontiguousarray(get("pooler.dense.weight").T),
        pooler_b=get("pooler.dense.bias"),
        classifier_w=np.ascontiguousarray(get("classifier.weight").T),
        classifier_b=get("classifier.bias"),
    )
    _calibration(config, model_dir)  # refused at load, not at the first claim the rules pass
    if head.classifier_w.shape[1] <= max(entail, contradict):
        raise NliModelUnavailable(f"{model_dir}: the classifier has fewer outputs than id2label")
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    limit = min(MAX_LENGTH, int(config.get("max_position_embeddings", MAX_LENGTH)))
    tokenizer.enable_truncation(max_length=limit, strategy="only_first")
    return _Loaded(tokenizer, bert, head, entail, contradict)


def calibration_of(model_dir: Path) -> Calibration:
    """The thresholds and guard rules in the model's config.json (read without the weights)."""
    try:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise NliModelUnavailable(f"{model_dir}/config.json cannot be read: {error}") from error
    return _calibration(config, model_dir)


def _calibration(config: dict[str, Any], model_dir: Path) -> Calibration:
    try:
        return Calibration.from_config(config.get("certiq_calibration"))
    except (KeyError, TypeError, ValueError) as error:
        raise NliModelUnavailable(f"{model_dir}/config.json certiq_calibration: {error}") from error


@functools.cache
def model_name(folder: Path) -> str:
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        return str(config.get("certiq_model_name") or folder.name)
    except (OSError, ValueError):
        return folder.name


def softmax(logits: F32) -> F32:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=-1, keepdims=True), dtype=np.float32)


class NliVerifier:
    """Implements the Verifier port with a local NLI cross-encoder (loaded on first use, once).

    ``assess_many`` judges one claim against several evidence sets in one pass of the encoder:
    the render policy asks it for every candidate citation of a claim at once.
    """

    def __init__(self, model_dir: Path = SHIPPED_MODEL_DIR) -> None:
        self._model_dir = model_dir
        self._model = LoadedOnce(lambda: load(self._model_dir))
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

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        return self.assess_many(claim, [evidence])[0]

    def assess_many(self, claim: str, evidence_sets: Sequence[Sequence[str]]) -> list[Support]:
        if not claim.strip():
            return [NOTHING for _ in evidence_sets]
        calibration = self._calibration.get()
        ruled = [
            calibration.by_rule(claim, evidence) if evidence else NOTHING
            for evidence in evidence_sets
        ]
        # Only what no rule decided goes through the encoder.
        judged = [e for e, support in zip(evidence_sets, ruled, strict=True) if support is None]
        scores = iter(self._scores(self._model.get(), claim, judged) if judged else [])
        return [
            support or calibration.scored(claim, evidence, *next(scores))
            for support, evidence in zip(ruled, evidence_sets, strict=True)
        ]

    def _scores(
        self, model: _Loaded, claim: str, evidence_sets: Sequence[Sequence[str]]
    ) -> list[tuple[float, float]]:
        """(entail, contradict) probabilities per evidence set, in batches of similar length."""
        encodings = model.tokenizer.encode_batch([(" ".join(e), claim) for e in evidence_sets])
        probabilities = np.zeros((len(encodings), 2), dtype=np.float32)
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        with _one_blas_thread():
            while order:
                width = len(encodings[order[-1]].ids)
                take = max(1, BATCH_TOKENS // width)
                rows, order = order[-take:], order[:-take]
                ids = np.zeros((len(rows), width), dtype=np.int64)
                types = np.zeros_like(ids)
                mask = np.zeros_like(ids)
                for r, i in enumerate(rows):
                    encoding = encodings[i]
                    n = len(encoding.ids)
                    ids[r, :n], types[r, :n], mask[r, :n] = encoding.ids, encoding.type_ids, 1
                classes = self._classify(model, ids, mask, types)
                probabilities[rows] = classes[:, [model.entail, model.contradict]]
        return [(float(entail), float(contradict)) for entail, contradict in probabilities]

    @staticmethod
    def _classify(
        model: _Loaded, ids: NDArray[np.int64], mask: NDArray[np.int64], types: NDArray[np.int64]
    ) -> F32:
        first = model.bert.hidden_states(ids, mask, types)[:, 0, :]
        pooled = np.tanh(first @ model.head.pooler_w + model.head.pooler_b)
        return softmax(pooled @ model.head.classifier_w + model.head.classifier_b)
