"""`certiq eval retrieval`: ingest a BEIR corpus once, run its queries, score the rankings.

The corpus is ingested into a data directory of its own, named after the corpus's content and the
settings that shape the index (chunking, embedder), so a second run with the same inputs reuses
it and a changed corpus or setting never reuses a stale index.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from certiq.config import Settings
from certiq.deps import Deps
from certiq.evaluation.beir import read_qrels, read_queries
from certiq.evaluation.metrics import mean_over_queries
from certiq.ingestion.text import TextDocument, document_key, ingest_texts, read_jsonl
from certiq.models import RetrievalMode
from certiq.retrieval.search import hybrid_search

DEPTH = 100  # Recall@100 needs 100 distinct documents per query
READY = "ready.json"


@dataclass(frozen=True)
class RetrievalReport:
    mode: str
    mode_used: str
    queries: int
    ndcg_at_10: float
    recall_at_100: float
    mrr_at_10: float
    latency_ms_p50: float
    latency_ms_p95: float
    corpus_documents: int
    data_dir: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def corpus_home(settings: Settings, corpus: Path, embedder_name: str | None) -> Path:
    digest = hashlib.sha256()
    with corpus.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    digest.update(settings.chunking.model_dump_json().encode())
    digest.update((embedder_name or "lexical-only").encode())
    return settings.home / "eval" / digest.hexdigest()[:16]


def prepare_corpus(corpus: Path, deps: Deps, progress: Callable[[int], None] | None = None) -> int:
    """Ingests the corpus unless this data directory already holds it; returns its size.

    An index emptied since (the self-hosted mode's cluster is a new one) is filled again; the
    embedding cache in the data directory spares embedding it again.
    """
    ready = deps.settings.home / READY
    tenant = deps.settings.tenant
    if ready.exists() and deps.index.count(tenant) > 0:
        count: int = json.loads(ready.read_text())["documents"]
        return count
    documents = 0

    def counted() -> Iterator[TextDocument]:
        nonlocal documents
        for document in read_jsonl(corpus):
            documents += 1
            if progress and documents % 500 == 0:
                progress(documents)
            yield document

    ingest_texts(
        counted(), deps, corpus_uri=corpus.resolve().as_uri(), tenant=tenant, again=ready.exists()
    )
    ready.write_text(json.dumps({"documents": documents, "corpus": str(corpus)}))
    return documents


def evaluate(
    deps: Deps, queries_path: Path, qrels_path: Path, mode: RetrievalMode, documents: int
) -> RetrievalReport:
    queries = read_queries(queries_path)
    qrels = read_qrels(qrels_path)
    judged = [query_id for query_id in qrels if query_id in queries]
    run: dict[str, list[str]] = {}
    latencies: list[float] = []
    mode_used = mode
    for query_id in judged:
        started = time.perf_counter()
        result = hybrid_search(
            deps.index,
            deps.embedder,
            deps.settings.tenant,
            queries[query_id],
            DEPTH * 2,  # chunks: several may come from one document
            mode,
            deps.settings.retrieval,
        )
        latencies.append((time.perf_counter() - started) * 1000)
        mode_used = result.mode_used
        ranking: list[str] = []
        for hit in result.hits:
            key = document_key(hit.chunk.source.uri)
            if key not in ranking:
                ranking.append(key)
        run[query_id] = ranking[:DEPTH]
    scored = {query_id: qrels[query_id] for query_id in judged}
    latencies.sort()
    return RetrievalReport(
        mode=mode,
        mode_used=mode_used,
        queries=len(judged),
        ndcg_at_10=round(mean_over_queries(run, scored, "ndcg", 10), 4),
        recall_at_100=round(mean_over_queries(run, scored, "recall", 100), 4),
        mrr_at_10=round(mean_over_queries(run, scored, "mrr", 10), 4),
        latency_ms_p50=round(statistics.median(latencies), 3) if latencies else 0.0,
        latency_ms_p95=round(latencies[int(0.95 * (len(latencies) - 1))], 3) if latencies else 0.0,
        corpus_documents=documents,
        data_dir=str(deps.settings.home),
    )
