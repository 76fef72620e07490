"""A local NLI cross-encoder as the Verifier, run in numpy from a folder named in settings.

No NLI weights ship with certiq and none are downloaded (CERTIQ_VERIFICATION__NLI_MODEL_DIR
names a folder you provide). What loads: a BERT-architecture sequence-classification
checkpoint (config.json model_type "bert", id2label naming entailment and contradiction),
saved as model.safetensors with a tokenizers tokenizer.json. The encoder is the numpy BERT that
runs all-MiniLM-L6-v2 (certiq.adapters.local.minilm, checked against sentence-transformers'
vectors); on top, as transformers' BertForSequenceClassification does: the [CLS] vector, the
pooler (dense + tanh), the classifier, a softmax. Premise = the evidence joined, hypothesis = the
claim, as a sentence pair (segment ids 0 and 1), the premise truncated first.

Other architectures (RoBERTa, DeBERTa: most published NLI cross-encoders) are refused with a
message saying so: their encoders differ (position offsets, relative attention) and running them
without torch would need a port this module does not have.
"""

from __future__ import annotations

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

if TYPE_CHECKING:
    from tokenizers import Tokenizer

REQUIRED_FILES: Final = ("config.json", "model.safetensors", "tokenizer.json")
RUNTIME_LIBRARIES: Final = ("tokenizers", "safetensors")
MAX_LENGTH: Final = 512
SETTING: Final = "CERTIQ_VERIFICATION__NLI_MODEL_DIR"


class NliModelUnavailable(ModelUnavailable):
    """The NLI folder cannot be loaded; the message names what is missing."""


def missing_requirements(model_dir: Path | None) -> list[str]:
    """What stops the NLI model in model_dir from loading (empty when nothing visible does)."""
    problems = [
        f"the Python package {name!r} is not installed (pip install {name})"
        for name in RUNTIME_LIBRARIES
        if importlib.util.find_spec(name) is None
    ]
    if model_dir is None:
        return [*problems, f"no model folder: set {SETTING}"]
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


def load(model_dir: Path | None) -> _Loaded:
    problems = missing_requirements(model_dir)
    if problems:
        raise NliModelUnavailable("the NLI verifier cannot load: " + "; ".join(problems))
    assert model_dir is not None
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
    if head.classifier_w.shape[1] <= max(entail, contradict):
        raise NliModelUnavailable(f"{model_dir}: the classifier has fewer outputs than id2label")
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    limit = min(MAX_LENGTH, int(config.get("max_position_embeddings", MAX_LENGTH)))
    tokenizer.enable_truncation(max_length=limit, strategy="only_first")
    return _Loaded(tokenizer, bert, head, entail, contradict)


def softmax(logits: F32) -> F32:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=-1, keepdims=True), dtype=np.float32)


class NliVerifier:
    """Implements the Verifier port with a local NLI cross-encoder (loaded on first use, once)."""

    def __init__(self, model_dir: Path | None) -> None:
        self._model_dir = model_dir
        self._model = LoadedOnce(lambda: load(self._model_dir))

    @property
    def name(self) -> str:
        return f"nli:{self._model_dir.name if self._model_dir else 'unset'}"

    def check(self) -> None:
        """Loads the model now: raises NliModelUnavailable naming what is missing."""
        self._model.get()

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        if not claim.strip() or not evidence:
            return Support(entail=0.0, contradict=0.0)
        model = self._model.get()
        encoding = model.tokenizer.encode(" ".join(evidence), claim)
        ids = np.asarray([encoding.ids], dtype=np.int64)
        types = np.asarray([encoding.type_ids], dtype=np.int64)
        mask = np.asarray([encoding.attention_mask], dtype=np.int64)
        with _one_blas_thread():
            probabilities = self._classify(model, ids, mask, types)[0]
        return Support(
            entail=round(float(probabilities[model.entail]), 6),
            contradict=round(float(probabilities[model.contradict]), 6),
        )

    @staticmethod
    def _classify(
        model: _Loaded, ids: NDArray[np.int64], mask: NDArray[np.int64], types: NDArray[np.int64]
    ) -> F32:
        first = model.bert.hidden_states(ids, mask, types)[:, 0, :]
        pooled = np.tanh(first @ model.head.pooler_w + model.head.pooler_b)
        return softmax(pooled @ model.head.classifier_w + model.head.classifier_b)
