"""Where PolicyQA's gold spans are lost: in retrieval, or in the ranking of evidence sentences.

Ingests the 20 policies as `scripts/bench_policyqa.py` does (one collection each) and, for every
question, searches its policy as the Retrieve step does, then prints how often a chunk holding a
gold answer is among the best k chunks, and how often a sentence holding one is among the best k
of the sentences of the 8 chunks the product reads, ranked by the span score the product uses
(`certiq.retrieval.spans.select_spans`). A better answer than the best k sentences cannot come
from a better answerer alone: it needs a better ranking, or better retrieval.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/policyqa_ranking_ceiling.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench_policyqa import (
    POLICYQA,
    bench_settings,
    collection_name,
    ingest_policies,
    normalised,
    questions_of,
    read_policies,
)

from certiq.bootstrap import build_deps
from certiq.retrieval.search import hybrid_search
from certiq.retrieval.spans import select_spans

CHUNK_RANKS = (4, 8, 12, 16, 24, 40)
SENTENCE_RANKS = (1, 2, 3, 6, 12, 24, 48)


def main() -> None:
    policies = read_policies(POLICYQA)
    questions = questions_of(policies)
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as home:
        settings = bench_settings(Path(home))
        deps = build_deps(settings)
        ingest_policies(policies, deps)
        retrieval = settings.retrieval
        for question in questions:
            spans = [span for span in map(normalised, question.spans) if span]
            found = hybrid_search(
                deps.index,
                deps.embedder,
                "default",
                question.question,
                max(CHUNK_RANKS),
                retrieval.mode,
                retrieval,
                collection=collection_name(question.policy),
            )
            chunk_rank = next(
                (
                    rank
                    for rank, hit in enumerate(found.hits)
                    if any(
                        span in normalised(sentence.text)
                        for sentence in hit.chunk.sentences
                        for span in spans
                    )
                ),
                None,
            )
            for k in CHUNK_RANKS:
                counts[f"chunk_within_{k}"] += chunk_rank is not None and chunk_rank < k
            ranked = select_spans(
                question.question,
                found.hits[: retrieval.top_k],
                max(SENTENCE_RANKS),
                embedder=deps.embedder,
                settings=retrieval,
            )
            sentence_rank = next(
                (
                    rank
                    for rank, evidence in enumerate(ranked)
                    if any(span in normalised(evidence.text) for span in spans)
                ),
                None,
            )
            for k in SENTENCE_RANKS:
                counts[f"sentence_within_{k}"] += sentence_rank is not None and sentence_rank < k
    print(json.dumps({name: round(count / len(questions), 3) for name, count in counts.items()}))


if __name__ == "__main__":
    sys.exit(main())
