"""A BERT sentence-pair classifier: what certiq's verifier and relevance models are.

What loads: a BERT-architecture sequence-classification checkpoint (config.json model_type "bert"
with id2label), saved as model.safetensors (float32 or float16) with a tokenizers tokenizer.json.
The encoder is the numpy BERT that runs all-MiniLM-L6-v2 (certiq.adapters.local.minilm, checked
against sentence-transformers' vectors); on top, as transformers' BertForSequenceClassification
does: the [CLS] vector, the pooler (dense + tanh), the classifier, a softmax. A pair is (first,
second) as segments 0 and 1, the first truncated first. Other architectures (RoBERTa, DeBERTa:
most published cross-encoders) are refused with a message saying so: their encoders differ
(position offsets, relative attention) and running them without torch would need a port this
module does not have.

Two runtimes compute the same float32 scores. A folder holding model.onnx (certiq's export of
these weights, scripts/export_cross_encoder_onnx.py: the fused graph, reading its weights from
model.safetensors) runs on onnxruntime when it is installed, about twice as fast; otherwise, or
with runtime "numpy", the numpy BERT does. Both give the same probabilities to 1e-4, so the
verifier's thresholds hold on either.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.minilm import F32, ModelUnavailable, _Bert, _one_blas_thread
from certiq.adapters.local.minilm_int8 import session_options

if TYPE_CHECKING:
    from tokenizers import Tokenizer

REQUIRED_FILES: Final = ("config.json", "model.safetensors", "tokenizer.json")
RUNTIME_LIBRARIES: Final = ("tokenizers", "safetensors")
ONNX_FILE: Final = "model.onnx"
ONNX_INPUTS: Final = ("input_ids", "attention_mask", "token_type_ids")
# The graph reads each weight at its offset in model.safetensors, so it records the digest of
# the header that places them: weights laid out otherwise would be read as garbage.
WEIGHTS_LAYOUT_KEY: Final = "certiq_safetensors_header_sha256"
# Intra-op threads of the onnxruntime session: an answer's evidence sets are judged in batches,
# and nothing else runs while an answer is verified (docs/benchmarks.md: 2 threads against 1).
ONNX_THREADS: Final = 2
Runtime = Literal["auto", "numpy", "onnxruntime"]

logger = logging.getLogger(__name__)
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


Ids = NDArray[np.int64]


class _Logits(Protocol):
    def __call__(self, ids: Ids, mask: Ids, types: Ids) -> F32: ...


@dataclass(frozen=True)
class _Head:
    pooler_w: F32  # (hidden, hidden)
    pooler_b: F32
    classifier_w: F32  # (hidden, labels)
    classifier_b: F32


@dataclass(frozen=True)
class _NumpyLogits:
    """BertForSequenceClassification's logits in numpy: [CLS], the pooler, the classifier."""

    bert: _Bert
    head: _Head

    def __call__(self, ids: Ids, mask: Ids, types: Ids) -> F32:
        first = self.bert.hidden_states(ids, mask, types)[:, 0, :]
        pooled = np.tanh(first @ self.head.pooler_w + self.head.pooler_b)
        return np.asarray(pooled @ self.head.classifier_w + self.head.classifier_b, np.float32)


@dataclass(frozen=True)
class _OnnxLogits:
    session: Any  # onnxruntime.InferenceSession (the package has no type hints)

    def __call__(self, ids: Ids, mask: Ids, types: Ids) -> F32:
        inputs = dict(zip(ONNX_INPUTS, (ids, mask, types), strict=True))
        (logits,) = self.session.run(["logits"], inputs)
        return np.asarray(logits, dtype=np.float32)


@dataclass(frozen=True)
class CrossEncoder:
    """A loaded pair classifier: ``probabilities`` of each label, in id2label's order."""

    tokenizer: Tokenizer
    logits: _Logits
    labels: tuple[str, ...]  # lower-cased, by output index
    config: dict[str, Any]
    runtime: Literal["numpy", "onnxruntime"]

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

    def classify(self, ids: Ids, mask: Ids, types: Ids) -> F32:
        return softmax(self.logits(ids, mask, types))


def load_cross_encoder(
    model_dir: Path, setting: str, max_length: int = MAX_LENGTH, runtime: Runtime = "auto"
) -> CrossEncoder:
    """Loads the classifier in model_dir; CrossEncoderUnavailable names what stops it.
    ``runtime`` auto: onnxruntime when the folder has model.onnx and the package is installed,
    else numpy (logged); onnxruntime: that or an error naming what is missing."""
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
    from tokenizers import Tokenizer

    logits: _Logits | None = None
    if runtime != "numpy":
        logits, why_not = _onnx_logits(model_dir)
        if logits is None and runtime == "onnxruntime":
            raise CrossEncoderUnavailable(f"{model_dir} cannot run on onnxruntime: {why_not}")
        if logits is None:
            logger.info("cross-encoder %s on numpy, not onnxruntime: %s", model_dir.name, why_not)
    if logits is None:
        logits = _numpy_logits(model_dir, config, outputs=len(labels))
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    limit = min(max_length, int(config.get("max_position_embeddings", max_length)))
    tokenizer.enable_truncation(max_length=limit, strategy="only_first")
    return CrossEncoder(
        tokenizer,
        logits,
        tuple(labels[i] for i in range(len(labels))),
        config,
        "onnxruntime" if isinstance(logits, _OnnxLogits) else "numpy",
    )


def _onnx_logits(model_dir: Path) -> tuple[_OnnxLogits | None, str]:
    """The folder's graph on onnxruntime, or None and why not."""
    graph = model_dir / ONNX_FILE
    if importlib.util.find_spec("onnxruntime") is None:
        return None, "the Python package 'onnxruntime' is not installed (pip install onnxruntime)"
    if not graph.is_file():
        return None, f"it has no {ONNX_FILE} (scripts/export_cross_encoder_onnx.py writes one)"
    import onnxruntime

    try:
        session = onnxruntime.InferenceSession(
            str(graph), session_options(ONNX_THREADS), providers=["CPUExecutionProvider"]
        )
    except Exception as error:  # onnxruntime's own errors: a damaged file, weights not matching
        return None, f"onnxruntime cannot load {graph.name}: {error}"
    names = tuple(node.name for node in session.get_inputs())
    if names != ONNX_INPUTS:
        return None, f"{graph.name} takes {names}, not {ONNX_INPUTS}"
    recorded = session.get_modelmeta().custom_metadata_map.get(WEIGHTS_LAYOUT_KEY)
    if recorded != weights_layout(model_dir / "model.safetensors"):
        return None, (
            f"{graph.name} was exported for weights laid out otherwise than this folder's "
            "model.safetensors (make export-cross-encoders writes it again)"
        )
    return _OnnxLogits(session), ""


def weights_layout(weights: Path) -> str:
    """The sha256 of a safetensors file's header: every tensor's name, type, shape and offset."""
    with weights.open("rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        return hashlib.sha256(file.read(length)).hexdigest()


def _numpy_logits(model_dir: Path, config: dict[str, Any], outputs: int) -> _NumpyLogits:
    from safetensors.numpy import load_file

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
    if head.classifier_w.shape[1] != outputs:
        raise CrossEncoderUnavailable(
            f"{model_dir}: the classifier has {head.classifier_w.shape[1]} outputs, id2label "
            f"{outputs}"
        )
    return _NumpyLogits(bert, head)


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
