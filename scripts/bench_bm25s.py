"""Benchmark: `certiq eval retrieval --mode bm25` on SciFact beside bm25s, in one process.

When to run it: after changing the local engine's lexical search or how it reads its hits
(certiq.adapters.local: fts_index, lexical, stored_chunks); the goal it checks is certiq's p50
within 3x of bm25s's. Other jobs on the machine move single figures: run it twice.

certiq runs through the code `certiq eval retrieval` runs (certiq.evaluation.retrieval: the
corpus ingested once into its own data folder under --home and reused, every judged train claim
searched for 200 chunks, timed per query as the command times it). Its p50 is weighed against
bm25s 0.3 (bench-only: `pip install "bm25s>=0.3,<0.4" "PyStemmer>=3"`, as `make bench`) over the
same chunk texts with its own tokenizer, PyStemmer's English stemmer and its English stopwords
(numpy backend, one thread), index built once, then each claim tokenized and retrieved, 200
chunks, timed per query. Both map chunks to their abstracts and keep the first 100, so nDCG@10,
Recall@100 and MRR@10 are comparable. Besides, the script times certiq's search together with
reading every hit's source (what the eval uses of each hit), and bm25s's retrieve alone (its
query already tokenized).

    .venv/bin/python scripts/bench_bm25s.py [--data ../shared/data/scifact] [--home .bench]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from certiq.evaluation.beir import read_qrels, read_queries
from certiq.evaluation.metrics import mean_over_queries
from certiq.ingestion.text import document_key

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = Path(os.environ.get("SCIFACT_DIR", ROOT.parent / "shared" / "data" / "scifact"))
CHUNKS = 200  # chunks per query, as `certiq eval retrieval` (certiq.evaluation.retrieval)
DEPTH = 100  # abstracts kept per query


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else 0.0


def timing(latencies: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(latencies), 3),
        "p95_ms": round(percentile(latencies, 0.95), 3),
    }


def quality(run: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    return {
        "ndcg_at_10": round(mean_over_queries(run, qrels, "ndcg", 10), 4),
        "recall_at_100": round(mean_over_queries(run, qrels, "recall", 100), 4),
        "mrr_at_10": round(mean_over_queries(run, qrels, "mrr", 10), 4),
    }


def abstracts(keys: Sequence[str]) -> list[str]:
    """The first DEPTH distinct abstracts of a chunk ranking."""
    return list(dict.fromkeys(keys))[:DEPTH]


def certiq_deps(data: Path, home: Path) -> tuple[Any, int]:
    """The deps `certiq eval retrieval --mode bm25` builds, the corpus ingested (or reused)."""
    os.environ["CERTIQ_HOME"] = str(home)
    from certiq.bootstrap import build_deps
    from certiq.config import Settings
    from certiq.evaluation.retrieval import corpus_home, prepare_corpus
    from certiq.retrieval.search import engine_name

    settings = Settings()
    if settings.opensearch.endpoint:
        raise SystemExit("unset CERTIQ_OPENSEARCH__ENDPOINT: this measures the local engine")
    # As the command does in bm25 mode: no embedder, so the corpus is not embedded.
    settings = settings.model_copy(
        update={"embedding": settings.embedding.model_copy(update={"provider": "none"})}
    )
    corpus_dir = corpus_home(settings, data / "corpus.jsonl", None)
    corpus_dir.mkdir(parents=True, exist_ok=True)
    deps = build_deps(settings.model_copy(update={"home": corpus_dir}))
    assert engine_name(deps.index) == "sqlite-fts5", engine_name(deps.index)
    documents = prepare_corpus(data / "corpus.jsonl", deps)
    return deps, documents


def measure_certiq(deps: Any, documents: int, data: Path) -> dict[str, Any]:
    from certiq.evaluation.retrieval import evaluate
    from certiq.retrieval.search import hybrid_search

    queries = data / "queries.train.jsonl"
    report = evaluate(deps, queries, data / "qrels" / "train.tsv", "bm25", documents)
    figures: dict[str, Any] = {
        "ndcg_at_10": report.ndcg_at_10,
        "recall_at_100": report.recall_at_100,
        "mrr_at_10": report.mrr_at_10,
        "p50_ms": report.latency_ms_p50,
        "p95_ms": report.latency_ms_p95,
    }
    # The search and what the eval reads of each hit (its source), timed together.
    claims = read_queries(queries)
    settings = deps.settings
    latencies: list[float] = []
    for query_id in read_qrels(data / "qrels" / "train.tsv"):
        if query_id not in claims:
            continue
        started = time.perf_counter()
        result = hybrid_search(
            deps.index,
            None,
            settings.tenant,
            claims[query_id],
            CHUNKS,
            "bm25",
            settings.retrieval,
        )
        abstracts([document_key(hit.chunk.source.uri) for hit in result.hits])
        latencies.append((time.perf_counter() - started) * 1000)
    figures["with_sources_read"] = timing(latencies)
    return figures


def chunk_texts(deps: Any) -> tuple[list[str], list[str]]:
    """(text, abstract key) of every chunk certiq indexed, in row order."""
    from certiq.adapters.local.sqlite_db import DB_FILE_NAME

    with sqlite3.connect(deps.settings.home / DB_FILE_NAME) as conn:
        rows = conn.execute(
            "SELECT json_extract(body, '$.text'), json_extract(body, '$.source.uri')"
            " FROM chunks WHERE tenant = ? ORDER BY id",
            (deps.settings.tenant,),
        ).fetchall()
    return [text for text, _ in rows], [document_key(uri) for _, uri in rows]


def measure_bm25s(texts: list[str], keys: list[str], data: Path) -> dict[str, Any]:
    # Bench-only libraries, not the product's.
    bm25s = importlib.import_module("bm25s")
    stemmer = importlib.import_module("Stemmer").Stemmer("english")

    started = time.perf_counter()
    retriever = bm25s.BM25(backend="numpy")
    retriever.index(
        bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    build_s = time.perf_counter() - started
    claims = read_queries(data / "queries.train.jsonl")
    qrels = read_qrels(data / "qrels" / "train.tsv")
    judged = [query_id for query_id in qrels if query_id in claims]
    run: dict[str, list[str]] = {}
    latencies: list[float] = []
    retrieve_only: list[float] = []
    for query_id in judged:
        started = time.perf_counter()
        tokens = bm25s.tokenize(
            [claims[query_id]],
            stopwords="en",
            stemmer=stemmer,
            return_ids=False,
            show_progress=False,
        )
        tokenized = time.perf_counter()
        rows, _ = retriever.retrieve(tokens, k=CHUNKS, show_progress=False, n_threads=1)
        done = time.perf_counter()
        latencies.append((done - started) * 1000)
        retrieve_only.append((done - tokenized) * 1000)
        run[query_id] = abstracts([keys[int(row)] for row in rows[0]])
    return {
        **quality(run, {query_id: qrels[query_id] for query_id in judged}),
        **timing(latencies),
        "retrieve_only": timing(retrieve_only),
        "build_s": round(build_s, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SCIFACT, help="SciFact in BEIR form")
    parser.add_argument("--home", type=Path, default=ROOT / ".bench", help="certiq data folder")
    args = parser.parse_args()

    deps, documents = certiq_deps(args.data, args.home.resolve())
    certiq = measure_certiq(deps, documents, args.data)
    texts, keys = chunk_texts(deps)
    bm25s = measure_bm25s(texts, keys, args.data)
    figures = {
        "chunks": len(texts),
        "certiq_bm25": certiq,
        "bm25s": bm25s,
        "p50_ratio": round(certiq["p50_ms"] / bm25s["p50_ms"], 2),
        "p50_ratio_with_sources_read": round(
            certiq["with_sources_read"]["p50_ms"] / bm25s["p50_ms"], 2
        ),
        "p50_ratio_to_retrieve_only": round(certiq["p50_ms"] / bm25s["retrieve_only"]["p50_ms"], 2),
    }
    print(json.dumps(figures, indent=2))
    rows = (("certiq bm25 (eval)", certiq), ("bm25s", bm25s))
    print(f"{'':20}{'nDCG@10':>9}{'R@100':>8}{'MRR@10':>8}{'p50 ms':>9}{'p95 ms':>9}")
    for name, row in rows:
        print(
            f"{name:20}{row['ndcg_at_10']:>9.4f}{row['recall_at_100']:>8.4f}"
            f"{row['mrr_at_10']:>8.4f}{row['p50_ms']:>9.3f}{row['p95_ms']:>9.3f}"
        )
    print(f"p50 certiq / bm25s: {figures['p50_ratio']}x (goal: within 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
