"""Writes model.onnx beside a certiq cross-encoder's weights (the verifier's, the relevance
model's): the graph onnxruntime runs in float32, reading its weights from the folder's own
model.safetensors, so the folder gains a file of a few hundred kilobytes, not a second copy of
the model.

When to run it: `make export-cross-encoders` (train-verifier and train-reader end with it): after
retraining the verifier or the reader, or changing the pinned onnx and onnxruntime.

Needs torch (the export), onnx and onnxruntime (fusion): the training venv, never the
project's. `make export-cross-encoders` installs onnx and onnxruntime there and runs:

    .venv-train/bin/python scripts/export_cross_encoder_onnx.py FOLDER [FOLDER ...]

1. The classifier as transformers' BertForSequenceClassification computes it (the encoder is
   export_minilm_onnx.py's, with the pair's token types; then the pooler and the classifier),
   over the folder's weights (float16, computed in float32). Exported by torch.onnx.export
   (opset 17, batch and length dynamic): input_ids, attention_mask and token_type_ids (int64)
   in, logits out.
2. onnxruntime's BERT fusion: EmbedLayerNormalization, Attention, SkipLayerNormalization,
   BiasGelu (one kernel each instead of dozens of small operators). No quantization: the
   verifier's thresholds were calibrated on its float32 scores, so the graph must give them.
3. Every weight of the fused graph is found in model.safetensors, as it is, transposed, or (the
   attention's packed query/key/value) three of them concatenated, and replaced by a reference
   to the file's float16 bytes (ONNX external data, at the tensor's offset) and the Cast,
   Transpose and Concat nodes that rebuild it; onnxruntime folds those into constants when it
   loads the graph. A weight found nowhere stops the script. The graph records the digest of
   model.safetensors' header, which places every tensor: certiq runs it only beside weights
   laid out the same (a retrained model's are; its graph then reads the new weights).
4. Checks the graph's probabilities against the numpy runtime's on 300 FEVER and SciFact pairs
   (the same pairs in both) and prints the largest difference, the size and the sha256.

No step draws a random number or writes a timestamp: a rerun with the same versions writes the
same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
from export_minilm_onnx import OPSET, TokenEncoder, fuse
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file
from torch import Tensor, nn
from train_verifier import CrossEncoder
from verifier_data import REAL_SOURCES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))

from certiq.adapters.local.cross_encoder import (  # noqa: E402
    ONNX_FILE,
    ONNX_INPUTS,
    WEIGHTS_LAYOUT_KEY,
    load_cross_encoder,
    weights_layout,
)

WEIGHTS = "model.safetensors"
CHECK_PAIRS = 300
# The largest probability difference from the numpy runtime accepted: both compute in float32,
# in another order.
TOLERANCE = 1e-4


class PairLogits(nn.Module):
    """BertForSequenceClassification's logits: [CLS] of the encoder, pooler, classifier."""

    def __init__(self, bert: CrossEncoder):
        super().__init__()
        self.bert = bert
        self.encoder = TokenEncoder(bert)

    def forward(self, ids: Tensor, mask: Tensor, types: Tensor) -> Tensor:
        first = self.encoder(ids, mask, types)[:, 0]
        return self.bert.classifier(torch.tanh(self.bert.pooler(first)))


def export_float(folder: Path, target: Path) -> dict[str, Any]:
    config: dict[str, Any] = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    labels = [config["id2label"][str(i)] for i in range(len(config["id2label"]))]
    bert = CrossEncoder(config, dropout=0.0, labels=labels)
    bert.load_base(folder, with_classifier=True)
    bert.eval()
    example = torch.ones((2, 16), dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        PairLogits(bert),
        (example, torch.ones_like(example), torch.zeros_like(example)),
        str(target),
        input_names=list(ONNX_INPUTS),
        output_names=["logits"],
        dynamic_axes={**{name: axes for name in ONNX_INPUTS}, "logits": {0: "batch"}},
        opset_version=OPSET,
        dynamo=False,
    )
    return config


def _key(array: np.ndarray[Any, Any]) -> tuple[tuple[int, ...], str]:
    contiguous = np.ascontiguousarray(array, dtype=np.float32)
    return contiguous.shape, hashlib.sha256(contiguous.tobytes()).hexdigest()


class Weights:
    """model.safetensors' tensors, found by value, and the nodes that rebuild a weight from
    them."""

    def __init__(self, folder: Path) -> None:
        raw = (folder / WEIGHTS).read_bytes()
        (length,) = struct.unpack("<Q", raw[:8])
        self.header: dict[str, Any] = json.loads(raw[8 : 8 + length])
        self.data_start = 8 + length
        self.tensors = load_file(str(folder / WEIGHTS))
        self.as_is: dict[tuple[tuple[int, ...], str], str] = {}
        self.transposed: dict[tuple[tuple[int, ...], str], str] = {}
        for name, tensor in self.tensors.items():
            if tensor.dtype != np.float16:
                raise SystemExit(f"{name} is {tensor.dtype}: this script reads float16 weights")
            self.as_is.setdefault(_key(tensor), name)
            if tensor.ndim == 2:
                self.transposed.setdefault(_key(tensor.T), name)
        self.external: list[TensorProto] = []
        self.nodes: list[onnx.NodeProto] = []
        self._cast: dict[str, str] = {}

    def float32(self, name: str) -> str:
        """The output holding tensor ``name`` in float32: its external bytes, cast once."""
        if name not in self._cast:
            begin, end = self.header[name]["data_offsets"]
            stored = TensorProto(name=f"{name}.float16", data_type=TensorProto.FLOAT16)
            stored.dims.extend(self.header[name]["shape"])
            stored.data_location = TensorProto.EXTERNAL
            for key, value in (
                ("location", WEIGHTS),
                ("offset", str(self.data_start + begin)),
                ("length", str(end - begin)),
            ):
                stored.external_data.add(key=key, value=value)
            self.external.append(stored)
            self._cast[name] = f"{name}.float32"
            self.nodes.append(
                helper.make_node("Cast", [stored.name], [self._cast[name]], to=TensorProto.FLOAT)
            )
        return self._cast[name]

    def part(self, value: np.ndarray[Any, Any], output: str) -> bool:
        """Adds the nodes writing ``value`` to ``output`` from one tensor; False if none is it."""
        key = _key(value)
        if key in self.as_is:
            source = self.float32(self.as_is[key])
            self.nodes.append(helper.make_node("Identity", [source], [output]))
            return True
        if key in self.transposed:
            source = self.float32(self.transposed[key])
            self.nodes.append(helper.make_node("Transpose", [source], [output], perm=[1, 0]))
            return True
        return False

    def rebuild(self, name: str, value: np.ndarray[Any, Any]) -> bool:
        """Adds the nodes writing initializer ``name``: one tensor, or three concatenated along
        the last axis (the fused attention's query, key and value)."""
        if self.part(value, name):
            return True
        if value.shape[-1] % 3:
            return False
        parts = np.split(value, 3, axis=-1)
        outputs = [f"{name}.part{index}" for index in range(3)]
        start = len(self.nodes)
        if all(self.part(piece, out) for piece, out in zip(parts, outputs, strict=True)):
            self.nodes.append(helper.make_node("Concat", outputs, [name], axis=value.ndim - 1))
            return True
        del self.nodes[start:]
        return False


def externalize(source: Path, folder: Path, target: Path) -> dict[str, int]:
    model = onnx.load(str(source))
    weights = Weights(folder)
    kept = []
    for initializer in model.graph.initializer:
        value = numpy_helper.to_array(initializer)
        weight = value.dtype == np.float32 and value.size >= 64
        if weight and weights.rebuild(initializer.name, value):
            continue
        if value.size >= 4096:
            raise SystemExit(f"{initializer.name} {value.shape} is not in {WEIGHTS}")
        kept.append(initializer)  # shapes, scalars: a few bytes each
    used = len(weights.external)
    del model.graph.initializer[:]
    model.graph.initializer.extend([*weights.external, *kept])
    nodes = [*weights.nodes, *model.graph.node]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.helper.set_model_props(model, {WEIGHTS_LAYOUT_KEY: weights_layout(folder / WEIGHTS)})
    onnx.save(model, str(target))
    onnx.checker.check_model(str(target))  # by path: the external data lies beside it
    return {"weights_read_from_safetensors": used, "constants_kept": len(kept)}


def check_pairs() -> list[tuple[str, str]]:
    """The first CHECK_PAIRS / 3 (evidence, claim) pairs of each shared source."""
    pairs: list[tuple[str, str]] = []
    for path in REAL_SOURCES.values():
        lines = path.read_text(encoding="utf-8").splitlines()[: CHECK_PAIRS // len(REAL_SOURCES)]
        pairs += [(row["evidence"], row["claim"]) for row in map(json.loads, lines)]
    return pairs


def agreement(folder: Path, setting: str) -> dict[str, float]:
    pairs = check_pairs()
    numpy_model = load_cross_encoder(folder, setting, runtime="numpy")
    onnx_model = load_cross_encoder(folder, setting, runtime="onnxruntime")
    difference = np.abs(numpy_model.probabilities(pairs) - onnx_model.probabilities(pairs))
    return {"pairs": len(pairs), "max_difference": float(difference.max())}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args()
    for folder in args.folders:
        target = folder / ONNX_FILE
        with tempfile.TemporaryDirectory() as work:
            exported, fused = Path(work) / "float32.onnx", Path(work) / "fused.onnx"
            config = export_float(folder, exported)
            operators = fuse(exported, fused, config)
            weights = externalize(fused, folder, target)
        check = agreement(folder, f"export of {folder}")
        if check["max_difference"] > TOLERANCE:
            target.unlink()
            raise SystemExit(f"{target}: the graph is not the model: {check}")
        data = target.read_bytes()
        report = {
            "file": str(target),
            "kilobytes": round(len(data) / 1e3, 1),
            "sha256": hashlib.sha256(data).hexdigest(),
            "fused": operators,
            **weights,
            "against_numpy": check,
        }
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
