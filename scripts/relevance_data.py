"""The relevance model's data: PolicyQA questions and the sentences the Retrieve state offers them.

Lays out and ingests the 20 policies of PolicyQA dev as scripts/bench_policyqa.py does (into
.bench/policyqa, reused), runs each question's retrieval within its policy's collection as the
Retrieve state does, with ``--top-k`` chunks (wider than the product's default, so the model
learns from, and the figures see, what a wider search would offer), and writes every candidate
sentence with its label: relevant when it holds a gold answer span (whitespace and case aside),
which is how scripts/bench_policyqa.py counts a question answered. ``--labels`` says which spans:
``first``, the question's first gold answer (what the shipped model was trained on); ``any``,
any of its gold answers (SQuAD's count: 1,583 of the 3,809 questions have more than one);
``in-policy``, any gold answer to the same question asked of another segment of its policy
(PolicyQA asks one question of every segment that answers it; under ``first`` and ``any`` a
sentence answering the same words elsewhere in the policy is labelled not relevant).

Also SciFact's training claims against the sentences of the abstract they cite: the rationale
sentences are relevant, the abstract's other sentences not (a second kind of question, so the
model does not learn privacy policies alone).

Written as gzipped JSON lines, one question per line:
``{"source", "group", "question", "candidates": [{"text", "label", "chunk_rank", "weighted"}]}``
(``weighted``: the hand-set span score, the baseline). Runs in the project's venv or .venv-train.

    python scripts/relevance_data.py [--top-k 24] [--labels first|any|in-policy]
        [--out .relevance/questions.jsonl.gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench_policyqa import (
    POLICYQA,
    Question,
    collection_name,
    ingest_policies,
    normalised,
    questions_of,
    read_policies,
)

from certiq.bootstrap import build_deps
from certiq.config import RetrievalSettings, Settings
from certiq.models import SearchHit
from certiq.retrieval.search import hybrid_search
from certiq.retrieval.spans import Candidates, candidate_set, weighted_scores

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / ".bench" / "policyqa"
SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
# A question's span candidates and what relevance is judged on (None: nothing to judge).
Found = tuple[Sequence[Any], Candidates] | None


def gold_spans(question: Question, labels: str) -> list[str]:
    """The normalised spans a relevant sentence holds one of (``--labels``)."""
    spans = {
        "first": (question.span,),
        "any": question.spans,
        "in-policy": question.in_policy,
    }[labels]
    return [span for span in map(normalised, spans) if span]


def retrieved(
    top_k: int, retrieval: RetrievalSettings | None = None
) -> Iterator[tuple[Question, Sequence[SearchHit], Found]]:
    """Each PolicyQA question with the ``top_k`` chunks retrieval finds it in its policy's
    collection (the policies ingested into .bench/policyqa on first use, reused after), and
    their sentences as span candidates (None: nothing to judge), as the Retrieve state finds
    them with ``retrieval`` (the product's settings when None)."""
    policies = read_policies(POLICYQA)
    settings = Settings()
    settings = settings.model_copy(
        update={
            "home": HOME,
            "retrieval": (retrieval or settings.retrieval).model_copy(
                update={"span_scorer": "weighted"}
            ),
        }
    )
    fresh = not (HOME / "certiq.db").exists()
    HOME.mkdir(parents=True, exist_ok=True)
    deps = build_deps(settings)
    if deps.embedder is None:
        raise SystemExit("retrieval as the product runs it needs all-MiniLM-L6-v2 installed")
    if fresh:
        ingest_policies(policies, deps)
    retrieval = settings.retrieval
    for number, question in enumerate(questions_of(policies)):
        result = hybrid_search(
            deps.index,
            deps.embedder,
            "default",
            question.question,
            top_k,
            retrieval.mode,
            retrieval,
            collection=collection_name(question.policy),
        )
        yield (
            question,
            result.hits,
            candidate_set(question.question, result.hits, deps.embedder, retrieval),
        )
        if (number + 1) % 500 == 0:
            print(f"  {number + 1} questions", file=sys.stderr)


def policyqa_questions(top_k: int, labels: str) -> list[dict[str, Any]]:
    retrieval = Settings().retrieval
    rows = []
    for question, hits, found in retrieved(top_k, retrieval):
        if found is None:
            continue
        candidates, data = found
        hit_rank = {id(hit): rank for rank, hit in enumerate(hits)}
        spans = gold_spans(question, labels)
        weighted = weighted_scores(data, retrieval)
        rows.append(
            {
                "source": "policyqa",
                "group": question.policy,
                "question": question.question,
                "candidates": [
                    {
                        "text": text,
                        "label": any(span in normalised(text) for span in spans),
                        "chunk_rank": hit_rank[id(candidate.hit)],
                        "weighted": round(float(score), 6),
                    }
                    for text, candidate, score in zip(data.texts, candidates, weighted, strict=True)
                ],
            }
        )
    return rows


def scifact_questions() -> list[dict[str, Any]]:
    """Each claim with its rationale sentences (relevant) among its abstract's sentences."""
    abstracts = {}
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            abstracts[str(doc["_id"])] = doc["sentences"]
    evidence: dict[tuple[str, str], set[str]] = defaultdict(set)
    with (SCIFACT / "claims.train.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            pair = json.loads(line)
            if pair["label"] in ("entail", "contradict") and str(pair["doc_id"]) in abstracts:
                key = (pair["claim"], str(pair["doc_id"]))
                evidence[key].update(
                    normalised(s)
                    for s in abstracts[key[1]]
                    if normalised(s) in normalised(pair["evidence"])
                )
    rows = []
    for (claim, doc_id), relevant in sorted(evidence.items()):
        if not relevant:
            continue
        rows.append(
            {
                "source": "scifact",
                "group": doc_id,
                "question": claim,
                "candidates": [
                    {
                        "text": sentence,
                        "label": normalised(sentence) in relevant,
                        "chunk_rank": 0,
                        "weighted": 0.0,
                    }
                    for sentence in abstracts[doc_id]
                ],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top-k", type=int, default=24, help="chunks retrieved per question")
    parser.add_argument(
        "--labels",
        choices=("first", "any", "in-policy"),
        default="first",
        help="which gold spans make a sentence relevant (first: the shipped model's)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / ".relevance" / "questions.jsonl.gz")
    args = parser.parse_args()
    rows = policyqa_questions(args.top_k, args.labels) + scifact_questions()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        counts = by_source[row["source"]]
        counts[0] += 1
        counts[1] += len(row["candidates"])
        counts[2] += any(c["label"] for c in row["candidates"])
    for source, (questions, candidates, reachable) in by_source.items():
        print(
            f"{source}: {questions} questions, {candidates} candidates,"
            f" span among them for {reachable / questions:.3f}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
