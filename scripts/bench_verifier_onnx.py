"""Measures what onnxruntime would give certiq's verifier model before the product adopts it:
pairs/s and how far its probabilities, and decisions at the shipped entail threshold, move from
the numpy runtime's, for float32 and for int8 weights (dynamic quantization).

Not part of the product: it needs torch (to export the graph), onnx and onnxruntime, so it runs
in the training venv:

    .venv-train/bin/python -m pip install onnx onnxruntime
    .venv-train/bin/python scripts/bench_verifier_onnx.py [--pairs 900]

Pairs: the first FEVER and SciFact pairs of ../shared/data (two thirds FEVER), encoded as the
verifier encodes them and batched by length as it batches them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort  # type: ignore[import-not-found]
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-not-found]
from safetensors.numpy import load_file
from train_verifier import CrossEncoder
from verifier_data import REAL_SOURCES

from certiq.adapters.local.cross_encoder import BATCH_TOKENS, softmax
from certiq.adapters.local.minilm import _one_blas_thread
from certiq.adapters.local.nli import SHIPPED_MODEL_DIR, load

Batch = tuple[list[int], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]


def export(folder: Path, target: Path) -> None:
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    model = CrossEncoder(config)
    weights = load_file(str(folder / "model.safetensors"))
    state = model.state_dict()
    for mine, theirs in model.checkpoint_names().items():
        state[mine] = torch.from_numpy(weights[theirs].astype(np.float32))
    model.load_state_dict(state)
    model.eval()
    example = torch.ones((2, 16), dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        model,
        (example, torch.ones_like(example), torch.zeros_like(example)),
        str(target),
        input_names=["ids", "mask", "types"],
        output_names=["logits"],
        dynamic_axes={"ids": axes, "mask": axes, "types": axes, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=900)
    args = parser.parse_args()
    rows = []
    for source, share in (("fever", 2 * args.pairs // 3), ("scifact", args.pairs // 3)):
        lines = REAL_SOURCES[source].read_text(encoding="utf-8").splitlines()[:share]
        rows += [json.loads(line) for line in lines]
    model = load(SHIPPED_MODEL_DIR).classifier
    encodings = model.tokenizer.encode_batch([(r["evidence"], r["claim"]) for r in rows])
    threshold = json.loads((SHIPPED_MODEL_DIR / "config.json").read_text(encoding="utf-8"))[
        "certiq_calibration"
    ]["entail_threshold"]

    def batches() -> Iterator[Batch]:
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        while order:
            take = max(1, BATCH_TOKENS // len(encodings[order[-1]].ids))
            members, order = order[-take:], order[:-take]
            width = len(encodings[members[-1]].ids)
            ids = np.zeros((len(members), width), dtype=np.int64)
            types, mask = np.zeros_like(ids), np.zeros_like(ids)
            for r, i in enumerate(members):
                n = len(encodings[i].ids)
                ids[r, :n], types[r, :n], mask[r, :n] = encodings[i].ids, encodings[i].type_ids, 1
            yield members, ids, mask, types

    def timed(classify: Callable[[Batch], np.ndarray[Any, Any]]) -> tuple[float, Any]:
        out = np.zeros((len(encodings), 3), dtype=np.float32)
        started = time.perf_counter()
        for batch in batches():
            out[batch[0]] = classify(batch)
        return len(encodings) / (time.perf_counter() - started), out

    with _one_blas_thread():
        rate, reference = timed(lambda b: model.classify(b[1], b[2], b[3]))
    print(json.dumps({"runtime": "numpy", "pairs_per_s": round(rate, 1)}))
    with tempfile.TemporaryDirectory() as work:
        fp32, int8 = Path(work) / "fp32.onnx", Path(work) / "int8.onnx"
        export(SHIPPED_MODEL_DIR, fp32)
        quantize_dynamic(
            str(fp32),
            str(int8),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )
        for name, path in (("onnxruntime-fp32", fp32), ("onnxruntime-int8", int8)):
            for threads in (1, 2):
                options = ort.SessionOptions()
                options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
                session = ort.InferenceSession(
                    str(path), options, providers=["CPUExecutionProvider"]
                )
                rate, probabilities = timed(
                    lambda b, s=session: softmax(
                        s.run(None, {"ids": b[1], "mask": b[2], "types": b[3]})[0]
                    )
                )
                moved = np.abs(probabilities - reference)
                flipped = (probabilities[:, 0] >= threshold) != (reference[:, 0] >= threshold)
                print(
                    json.dumps(
                        {
                            "runtime": name,
                            "threads": threads,
                            "pairs_per_s": round(rate, 1),
                            "mean_abs_change": round(float(moved.mean()), 5),
                            "max_abs_change": round(float(moved.max()), 4),
                            "verified_decisions_changed": round(float(flipped.mean()), 4),
                            "megabytes": round(path.stat().st_size / 1e6, 1),
                        }
                    )
                )


if __name__ == "__main__":
    main()
