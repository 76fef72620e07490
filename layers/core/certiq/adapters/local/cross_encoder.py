"""A BERT sentence-pair classifier run in numpy: what certiq's verifier and relevance models are.

What loads: a BERT-architecture sequence-classification checkpoint (config.json model_type "bert"
with id2label), saved as model.safetensors (float32 or float16) with a tokenizers tokenizer.json.
The encoder is the numpy BERT that runs all-MiniLM-L6-v2 (certiq.adapters.local.minilm, checked
against sentence-transformers' vectors); on top, as transformers' BertForSequenceClassification
does: the [CLS] vector, the pooler (dense + tanh), the classifier, a softmax. A pair is (first,
second) as segments 0 and 1, the first truncated first. Other architectures (RoBERTa, DeBERTa:
most published cross-encoders) are refused with a message saying so: their encoders differ
(position offsets, relative attention) and running them without torch would need a port this
module does not have.
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

from certiq.adapters.local.minilm import F32, ModelUnavailable, _Bert, _one_blas_thread

if TYPE_CHECKING:
    from tokenizers import Tokenizer

REQUIRED_FILES: Final = ("config.json", "model.safetensors", "tokenizer.json")
RUNTIME_LIBRARIES: Final = ("tokenizers", "safetensors")
MAX_LENGTH: Final = 512
# Tokens per encoder call (pairs x padded length). Small batches measured fastest here: larger
# temporaries cost more in memory traffic than the bigger products gain (1024: 31 pairs/s,
# 4096: 17 on FEVER pairs, one BLAS thread).
BATCH_TOKENS: Final = 512


class CrossEncoderUnavailable(ModelUnavailable):
    """The model's folder cannot be loaded; the message names what is missing."""


def missing_requirements(model_dir: Path, setting: str) -> list[str]:
    """What stops the model in model_dir from loading (empty when nothing visible does);
    ``setting`` names the setting that chooses the folder."""
    problems = [
        f"the Python package {name!r} is not installed (pip install {name})"
        for name in RUNTIME_LIBRARIES
        if importlib.util.find_spec(name) is None
    ]
    if not model_dir.is_dir():
        return [*problems, f"{model_dir} is not a folder ({setting})"]
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
class CrossEncoder:
    """A loaded pair classifier: ``probabilities`` of each label, in id2label's order."""

    tokenizer: Tokenizer
    bert: _Bert
    head: _Head
    labels: tuple[str, ...]  # lower-cased, by output index
    config: dict[str, Any]

    def label_index(self, prefix: str) -> int | None:
        """The one output whose label starts with ``prefix``; None when not exactly one."""
        found = [i for i, name in enumerate(self.labels) if name.startswith(prefix)]
        return found[0] if len(found) == 1 else None

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> F32:
        """(pairs, labels) probabilities, computed in batches of similar length."""
        encodings = self.tokenizer.encode_batch(list(pairs))
        result = np.zeros((len(encodings), len(self.labels)), dtype=np.float32)
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
                result[rows] = self.classify(ids, mask, types)
        return result

    def classify(
        self, ids: NDArray[np.int64], mask: NDArray[np.int64], types: NDArray[np.int64]
    ) -> F32:
        first = self.bert.hidden_states(ids, mask, types)[:, 0, :]
        pooled = np.tanh(first @ self.head.pooler_w + self.head.pooler_b)
        return softmax(pooled @ self.head.classifier_w + self.head.classifier_b)


def load_cross_encoder(model_dir: Path, setting: str, max_length: int = MAX_LENGTH) -> CrossEncoder:
    """Loads the classifier in model_dir; CrossEncoderUnavailable names what stops it."""
    problems = missing_requirements(model_dir, setting)
    if problems:
        raise CrossEncoderUnavailable("; ".join(problems))
    config = read_config(model_dir)
    model_type = config.get("model_type")
    if model_type != "bert":
        raise CrossEncoderUnavailable(
            f"{model_dir} holds a {model_type!r} model; only BERT-architecture cross-encoders "
            "(model_type 'bert') run here without torch"
        )
    labels = {int(i): str(name).lower() for i, name in config.get("id2label", {}).items()}
    if not labels or sorted(labels) != list(range(len(labels))):
        raise CrossEncoderUnavailable(f"{model_dir}/config.json has no usable id2label")
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    weights = load_file(str(model_dir / "model.safetensors"))
    encoder = {name.removeprefix("bert."): value for name, value in weights.items()}
    try:
        bert = _Bert.from_weights(encoder, config)
    except ModelUnavailable as error:
        raise CrossEncoderUnavailable(f"{model_dir}: {error}") from error

    def get(name: str) -> F32:
        if name not in encoder:
            raise CrossEncoderUnavailable(
                f"{model_dir}/model.safetensors lacks {name!r}: not a sequence classifier"
            )
        return np.ascontiguousarray(encoder[name], dtype=np.float32)

    head = _Head(
        pooler_w=np.ascontiguousarray(get("pooler.dense.weight").T),
        pooler_b=get("pooler.dense.bias"),
        classifier_w=np.ascontiguousarray(get("classifier.weight").T),
        classifier_b=get("classifier.bias"),
    )
    if head.classifier_w.shape[1] != len(labels):
        raise CrossEncoderUnavailable(
            f"{model_dir}: the classifier has {head.classifier_w.shape[1]} outputs, id2label "
            f"{len(labels)}"
        )
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    limit = min(max_length, int(config.get("max_position_embeddings", max_length)))
    tokenizer.enable_truncation(max_length=limit, strategy="only_first")
    return CrossEncoder(tokenizer, bert, head, tuple(labels[i] for i in range(len(labels))), config)


def read_config(model_dir: Path) -> dict[str, Any]:
    try:
        config: dict[str, Any] = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CrossEncoderUnavailable(f"{model_dir}/config.json cannot be read: {error}") from error
    return config


@functools.cache
def model_name(folder: Path) -> str:
    """config.json's certiq_model_name, else the folder's name."""
    try:
        return str(read_config(folder).get("certiq_model_name") or folder.name)
    except CrossEncoderUnavailable:
        return folder.name


def softmax(logits: F32) -> F32:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=-1, keepdims=True), dtype=np.float32)
