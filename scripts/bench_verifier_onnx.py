"""Measures certiq's verifier model on its runtimes: pairs/s and how far probabilities, and
decisions at the shipped entail threshold, move from the numpy runtime's. Three runtimes: numpy,
the shipped float32 graph on onnxruntime (model.onnx, scripts/export_cross_encoder_onnx.py: the
product's default where onnxruntime is installed) with one and two threads, and the same fused
graph with int8 weights (dynamic quantization), not adopted: its scores move, so the verifier's
thresholds would need a held-out calibration of their own.

Not part of the product: it needs torch (to export the int8 graph), onnx and onnxruntime, so it
runs in the training venv:

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
from export_cross_encoder_onnx import export_float
from export_minilm_onnx import fuse, quantize
from verifier_data import REAL_SOURCES

from certiq.adapters.local.cross_encoder import (
    BATCH_TOKENS,
    ONNX_FILE,
    ONNX_INPUTS,
    load_cross_encoder,
    softmax,
)
from certiq.adapters.local.minilm import _one_blas_thread
from certiq.adapters.local.nli import SETTING, SHIPPED_MODEL_DIR

Batch = tuple[list[int], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=900)
    args = parser.parse_args()
    rows = []
    for source, share in (("fever", 2 * args.pairs // 3), ("scifact", args.pairs // 3)):
        lines = REAL_SOURCES[source].read_text(encoding="utf-8").splitlines()[:share]
        rows += [json.loads(line) for line in lines]
    model = load_cross_encoder(SHIPPED_MODEL_DIR, SETTING, runtime="numpy")
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
        exported, fused, int8 = (Path(work) / name for name in ("fp32", "fused", "int8.onnx"))
        fuse(exported, fused, export_float(SHIPPED_MODEL_DIR, exported))
        quantize(fused, int8)
        graphs = (
            ("onnxruntime-float32", SHIPPED_MODEL_DIR / ONNX_FILE),
            ("onnxruntime-int8", int8),
        )
        for name, path in graphs:
            for threads in (1, 2):
                options = ort.SessionOptions()
                options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
                session = ort.InferenceSession(
                    str(path), options, providers=["CPUExecutionProvider"]
                )
                rate, probabilities = timed(
                    lambda b, s=session: softmax(
                        s.run(None, dict(zip(ONNX_INPUTS, b[1:], strict=True)))[0]
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
                            "megabytes": round(path.stat().st_size / 1e6, 2),
                        }
                    )
                )


if __name__ == "__main__":
    main()
