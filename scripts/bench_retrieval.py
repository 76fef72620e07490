"""Benchmark: retrieval quality and speed on SciFact (train split), certiq vs rank-bm25.

Runs `certiq eval retrieval` in bm25, dense and hybrid modes (the corpus is ingested once and
reused), then rank_bm25.BM25Okapi twice, for nDCG@10 and per-query latency side by side: over
the whole abstracts with certiq's content terms (the usual baseline), and over certiq's own
chunks with FTS5's tokens (like for like: what is left is BM25 itself).

When to run it: `make bench` runs it; run it after changing the local engine's search (BM25,
dense, hybrid) or chunking.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rank_bm25 import BM25Okapi

from certiq.evaluation.beir import read_qrels, read_queries
from certiq.evaluation.metrics import mean_over_queries
from certiq.ingestion.text import read_jsonl
from certiq.text import content_terms

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "data" / "scifact"


def certiq_eval(mode: str, home: Path, data: Path) -> dict[str, float]:
    command = [
        str(Path(sys.executable).parent / "certiq"),
        "eval",
        "retrieval",
        "--corpus",
        str(data / "corpus.jsonl"),
        "--queries",
        str(data / "queries.train.jsonl"),
        "--qrels",
        str(data / "qrels" / "train.tsv"),
        "--mode",
        mode,
        "--json",
    ]
    env = {**os.environ, "CERTIQ_HOME": str(home)}
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    report: dict[str, float] = json.loads(output)
    return report


def report(
    run: dict[str, list[str]], qrels: dict[str, dict[str, int]], latencies: list[float]
) -> dict[str, float]:
    """The figures `certiq eval retrieval --json` prints, for a run made here."""
    latencies = sorted(latencies)
    return {
        "ndcg_at_10": round(mean_over_queries(run, qrels, "ndcg", 10), 4),
        "recall_at_100": round(mean_over_queries(run, qrels, "recall", 100), 4),
        "mrr_at_10": round(mean_over_queries(run, qrels, "mrr", 10), 4),
        "latency_ms_p50": round(statistics.median(latencies), 3),
        "latency_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 3),
    }


def rank_bm25_eval(data: Path) -> dict[str, float]:
    documents = list(read_jsonl(data / "corpus.jsonl"))
    ids = [document.key for document in documents]
    model = BM25Okapi([content_terms(f"{d.title} {d.text}") for d in documents])
    queries = read_queries(data / "queries.train.jsonl")
    qrels = read_qrels(data / "qrels" / "train.tsv")
    judged = [query_id for query_id in qrels if query_id in queries]
    run: dict[str, list[str]] = {}
    latencies = []
    for query_id in judged:
        started = time.perf_counter()
        scores = model.get_scores(content_terms(queries[query_id]))
        top = sorted(range(len(ids)), key=lambda i: scores[i], reverse=True)[:100]
        latencies.append((time.perf_counter() - started) * 1000)
        run[query_id] = [ids[i] for i in top]
    return report(run, {query_id: qrels[query_id] for query_id in judged}, latencies)


def rank_bm25_same_chunks_eval(data: Path, data_dir: Path) -> dict[str, float]:
    """rank_bm25 over certiq's own chunks and FTS5's tokens: the like-for-like BM25 check.

    Any gap left here is BM25 itself (rank_bm25 uses k1 1.5 and its own idf floor), not
    tokenisation or chunking.
    """
    import sqlite3

    from certiq.adapters.local.fts_index import _WORD, query_terms
    from certiq.adapters.local.lexical import Fts5Tokenizer
    from certiq.ingestion.text import document_key

    with sqlite3.connect(data_dir / "certiq.db") as conn:
        rows = conn.execute("SELECT body FROM chunks ORDER BY id").fetchall()
    chunks = [json.loads(body) for (body,) in rows]
    tokenizer = Fts5Tokenizer()

    def tokens(words: list[str]) -> list[str]:
        return [token for group in tokenizer.tokens(words) for token in group]

    model = BM25Okapi([tokens([w.casefold() for w in _WORD.findall(c["text"])]) for c in chunks])
    keys = [document_key(chunk["source"]["uri"]) for chunk in chunks]
    queries = read_queries(data / "queries.train.jsonl")
    qrels = read_qrels(data / "qrels" / "train.tsv")
    judged = [query_id for query_id in qrels if query_id in queries]
    run: dict[str, list[str]] = {}
    latencies = []
    for query_id in judged:
        query = tokens(query_terms(queries[query_id]))
        started = time.perf_counter()
        scores = model.get_scores(query)
        top = sorted(range(len(keys)), key=lambda i: scores[i], reverse=True)[:400]
        latencies.append((time.perf_counter() - started) * 1000)
        ranking: list[str] = []
        for i in top:
            if keys[i] not in ranking:
                ranking.append(keys[i])
        run[query_id] = ranking[:100]
    return report(run, {query_id: qrels[query_id] for query_id in judged}, latencies)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=SCIFACT, help="a BEIR folder like scifact/")
    parser.add_argument("--home", type=Path, default=ROOT / ".bench", help="certiq data folder")
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    args = parser.parse_args()

    rows: dict[str, dict[str, float]] = {}
    for mode in args.modes.split(","):
        rows[f"certiq {mode}"] = certiq_eval(mode, args.home, args.data)
    rows["rank_bm25 BM25Okapi"] = rank_bm25_eval(args.data)
    if "certiq bm25" in rows:
        rows["rank_bm25, same chunks"] = rank_bm25_same_chunks_eval(
            args.data, Path(str(rows["certiq bm25"]["data_dir"]))
        )

    print(f"SciFact train ({args.data}): 809 queries over 5,183 abstracts")
    header = f"{'':22}{'nDCG@10':>9}{'R@100':>8}{'MRR@10':>8}{'p50 ms':>9}{'p95 ms':>9}"
    print(header)
    for name, row in rows.items():
        print(
            f"{name:22}{row['ndcg_at_10']:>9.4f}{row['recall_at_100']:>8.4f}"
            f"{row['mrr_at_10']:>8.4f}{row['latency_ms_p50']:>9.2f}{row['latency_ms_p95']:>9.2f}"
        )
    bm25, reference = rows.get("certiq bm25"), rows["rank_bm25 BM25Okapi"]
    if bm25:
        gap = bm25["ndcg_at_10"] - reference["ndcg_at_10"]
        speedup = reference["latency_ms_p50"] / max(bm25["latency_ms_p50"], 1e-9)
        print(
            f"certiq bm25 vs rank_bm25: nDCG@10 {gap:+.4f}, {speedup:.1f}x faster per query (p50)"
        )
        same = rows["rank_bm25, same chunks"]
        gap = bm25["ndcg_at_10"] - same["ndcg_at_10"]
        speedup = same["latency_ms_p50"] / max(bm25["latency_ms_p50"], 1e-9)
        print(
            f"certiq bm25 vs rank_bm25 on the same chunks and tokens: nDCG@10 {gap:+.4f},"
            f" {speedup:.1f}x faster per query (p50)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
