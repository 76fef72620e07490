"""Trains certiq's relevance model: a cross-encoder (sentence, question) -> does the sentence hold
the answer? Fine-tuned from the all-MiniLM-L6-v2 weights certiq ships, as the verifier is
(scripts/train_verifier.py: the same encoder, written out layer for layer as certiq runs it in
numpy, with a two-label head: not_relevant, relevant).

Needs torch (training only: .venv-train, `make train-relevance`). Questions and their candidate
sentences come from scripts/relevance_data.py: PolicyQA questions with the sentences retrieval
offers them in their own policy, SciFact claims with the sentences of their abstract.

Steps (each writes under --work):
  cv     grouped cross-validation by policy (a policy's questions never sit in a training and a
         test fold; SciFact questions train every fold): 3 folds, or with --halves two,
         scripts/bench_policyqa.py's tuning half (fold 0) and held-out half (fold 1). Each fold's
         model scores the --shortlist best candidates (by the hand-set span score) of its
         held-out questions -> oof.jsonl.gz; each fold's model -> folds/fold-<k>/ and the
         policies each held out -> folds/policies.json (scripts/bench_policyqa.py answers each
         question with the model that never saw its policy, and only the policies some model
         never saw)
  final  one model on every question -> <work>/model

Each epoch takes, per question, its relevant sentences (three at most) and --negatives others:
half the hardest by the hand-set span score, half at random. The word embeddings stay MiniLM's
(--freeze-words, the default): the rest is what PolicyQA's few thousand questions tune. Seeded;
on a CPU torch runs deterministically with the same thread count, on a GPU nearly so.

The shipped model (v2): the defaults below, 3 epochs of 16 negatives, on 2 CPU cores: `cv
--halves --only-folds 1` (the model trained on the tuning half, measured on the held-out half:
43 minutes, about 107,000 pair passes) then `final` (all 20 policies: 82 minutes, 198,000 pair
passes). v1's heavier recipe (5 epochs of 48 negatives, on an H100) fitted PolicyQA's
wording more closely and carried over worse to other documents (models/relevance/MODEL_CARD.md).

    .venv-train/bin/python scripts/train_relevance.py cv final --halves --only-folds 1 --threads 2
    python scripts/train_relevance.py cv final --halves --only-folds 1 --device cuda
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
import train_verifier
from policyqa_halves import tuning_policies
from tokenizers import Tokenizer
from train_verifier import (
    CrossEncoder,
    Optimiser,
    PairIds,
    base_dir,
    batches,
    logits_of,
    probabilities,
    start_model,
    tokenizer_for,
)

ROOT = Path(__file__).resolve().parents[1]
LABELS = ("not_relevant", "relevant")
SOURCE_WEIGHT = {"policyqa": 1.0, "scifact": 0.5}


@dataclass(frozen=True)
class Question:
    source: str
    group: str  # the policy (PolicyQA) or the abstract (SciFact)
    question: str
    texts: tuple[str, ...]
    labels: tuple[bool, ...]
    weighted: tuple[float, ...]
    chunk_ranks: tuple[int, ...]


def read(path: Path) -> list[Question]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [
        Question(
            source=row["source"],
            group=row["group"],
            question=row["question"],
            texts=tuple(c["text"] for c in row["candidates"]),
            labels=tuple(bool(c["label"]) for c in row["candidates"]),
            weighted=tuple(float(c["weighted"]) for c in row["candidates"]),
            chunk_ranks=tuple(int(c["chunk_rank"]) for c in row["candidates"]),
        )
        for row in rows
    ]


def policy_folds(
    questions: Sequence[Question], folds: int, seed: int, halves: bool = False
) -> dict[str, int]:
    """PolicyQA's policies dealt to folds in a seeded order; ``halves``: the tuning half of
    scripts/bench_policyqa.py is fold 0 and the held-out half fold 1, so that `cv --halves
    --only-folds 1` trains on the policies rules are written from and scores the others."""
    names = sorted({q.group for q in questions if q.source == "policyqa"})
    if halves:
        tuning = tuning_policies(names)
        return {name: 0 if name in tuning else 1 for name in names}
    order = random.Random(seed).sample(names, len(names))
    return {name: n % folds for n, name in enumerate(order)}


def epoch_pairs(
    questions: Sequence[Question], negatives: int, hard_share: float, rng: random.Random
) -> list[tuple[str, str, int, float]]:
    """(sentence, question, label, weight) for one epoch: the relevant, hard and random others."""
    pairs = []
    for q in questions:
        relevant = [i for i, label in enumerate(q.labels) if label]
        if not relevant:
            continue
        others = [i for i, label in enumerate(q.labels) if not label]
        hard = sorted(others, key=lambda i: -q.weighted[i])[: round(negatives * hard_share)]
        chosen = set(hard)
        rest = [i for i in others if i not in chosen]
        picked = hard + rng.sample(rest, min(len(rest), negatives - len(hard)))
        weight = SOURCE_WEIGHT[q.source]
        for i in rng.sample(relevant, min(3, len(relevant))):
            pairs.append((q.texts[i], q.question, 1, weight))
        pairs.extend((q.texts[i], q.question, 0, weight) for i in picked)
    rng.shuffle(pairs)
    return pairs


def train(
    questions: Sequence[Question], args: argparse.Namespace, tokenizer: Tokenizer, seed: int
) -> CrossEncoder:
    model = start_model(seed, 0.1, args.device, LABELS)
    if args.freeze_words:
        model.word.weight.requires_grad_(False)
    rng = random.Random(seed)
    epochs = [
        epoch_pairs(questions, args.negatives, args.hard_share, rng) for _ in range(args.epochs)
    ]
    total = sum(math.ceil(len(pairs) / args.batch_size) for pairs in epochs)
    optimiser = Optimiser(model, args.lr, total, args.batch_size, every=100)
    model.train()
    for epoch, pairs in enumerate(epochs):
        data = PairIds([(text, question) for text, question, _, _ in pairs], tokenizer)
        labels = np.asarray([label for _, _, label, _ in pairs], dtype=np.int64)
        weights = np.asarray([weight for _, _, _, weight in pairs], dtype=np.float32)
        for rows in batches([len(ids) for ids in data.ids], args.batch_size, rng):
            ids, mask, types = data.batch(rows, args.device)
            target = torch.from_numpy(labels[rows]).to(args.device)
            weight = torch.from_numpy(weights[rows]).to(args.device)
            nll = F.cross_entropy(
                logits_of(model, ids, mask, types).float(), target, reduction="none"
            )
            optimiser.step((nll * weight).sum() / weight.sum(), epoch)
    model.eval()
    return model


def predict(
    model: CrossEncoder, pairs: Sequence[tuple[str, str]], tokenizer: Tokenizer, device: str
) -> np.ndarray[Any, np.dtype[np.float32]]:
    """P(relevant) for each (sentence, question)."""
    return probabilities(model, PairIds(pairs, tokenizer), device, 256)[:, 1]


def save(model: CrossEncoder, target: Path, name: str) -> None:
    folder = base_dir()
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    # No calibration in the model: its weight in the span score is a setting (span_model_weight).
    model.save(target, name, config, {})
    (target / "tokenizer.json").write_bytes((folder / "tokenizer.json").read_bytes())


def scored_candidates(question: Question, chunks: int, shortlist: int) -> list[int]:
    """What the product scores with the model: the sentences of the best ``chunks`` chunks,
    the ``shortlist`` best of them by the hand-set span score (certiq.retrieval.spans)."""
    rows = [i for i, rank in enumerate(question.chunk_ranks) if rank < chunks]
    return sorted(rows, key=lambda i: -question.weighted[i])[:shortlist]


def run_cv(questions: Sequence[Question], args: argparse.Namespace, tokenizer: Tokenizer) -> None:
    fold_of = policy_folds(questions, args.folds, args.seed, args.halves)
    out = args.work / "oof.jsonl.gz"
    written = []
    for fold in args.only_folds if args.only_folds is not None else range(args.folds):
        test = [q for q in questions if q.source == "policyqa" and fold_of[q.group] == fold]
        training = [
            q for q in questions if not (q.source == "policyqa" and fold_of[q.group] == fold)
        ]
        print(f"fold {fold + 1}/{args.folds}: train {len(training)}, test {len(test)}", flush=True)
        model = train(training, args, tokenizer, args.seed + fold)
        save(model, args.work / "folds" / f"fold-{fold}", f"{args.name}-fold{fold}")
        scored = [scored_candidates(q, args.chunks, args.shortlist) for q in test]
        pairs = [
            (q.texts[i], q.question) for q, rows in zip(test, scored, strict=True) for i in rows
        ]
        scores = iter(predict(model, pairs, tokenizer, args.device).tolist())
        for q, rows in zip(test, scored, strict=True):
            written.append(
                {
                    "group": q.group,
                    "fold": fold,
                    "question": q.question,
                    "reachable": any(
                        label
                        for label, rank in zip(q.labels, q.chunk_ranks, strict=True)
                        if rank < args.chunks
                    ),
                    "texts": [q.texts[i] for i in rows],
                    "labels": [q.labels[i] for i in rows],
                    "weighted": [q.weighted[i] for i in rows],
                    "p": [round(next(scores), 6) for _ in rows],
                }
            )
        # Written after every fold, so an interrupted run keeps the folds it finished.
        with gzip.open(out, "wt", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\n" for row in written)
    (args.work / "folds" / "policies.json").write_text(json.dumps(fold_of, indent=2) + "\n")


def run_final(
    questions: Sequence[Question], args: argparse.Namespace, tokenizer: Tokenizer
) -> None:
    model = train(questions, args, tokenizer, args.seed)
    save(model, args.work / "model", args.name)
    print(f"model: {args.work / 'model'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("steps", nargs="+", choices=("cv", "final"))
    parser.add_argument("--data", type=Path, default=ROOT / ".relevance" / "questions.jsonl.gz")
    parser.add_argument("--work", type=Path, default=ROOT / ".relevance")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--negatives", type=int, default=16)
    parser.add_argument("--hard-share", type=float, default=0.5, help="of them, the hardest")
    parser.add_argument("--chunks", type=int, default=8, help="cv: score these chunks' sentences")
    parser.add_argument("--shortlist", type=int, default=16, help="cv: the best this many of them")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's)")
    parser.add_argument("--name", default="certiq-relevance-minilm-v2")
    parser.add_argument("--only-folds", type=int, nargs="*", help="cv: run these folds only")
    parser.add_argument(
        "--halves",
        action="store_true",
        help="cv: two folds, bench_policyqa's tuning half (0) and held-out half (1)",
    )
    parser.add_argument("--limit", type=int, default=0, help="this many questions (a smoke run)")
    parser.add_argument("--base", type=Path, help="MiniLM folder (default: the installed package)")
    parser.add_argument(
        "--freeze-words",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep MiniLM's word embeddings as they are",
    )
    args = parser.parse_args()
    if args.halves:
        args.folds = 2
    train_verifier.BASE = args.base
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.device == "cpu":
        torch.use_deterministic_algorithms(True)
    args.work.mkdir(parents=True, exist_ok=True)
    questions = read(args.data)
    if args.limit:
        questions = random.Random(args.seed).sample(questions, args.limit)
    tokenizer = tokenizer_for(base_dir(), args.max_length)
    started = time.perf_counter()
    for step in args.steps:
        {"cv": run_cv, "final": run_final}[step](questions, args, tokenizer)
        print(f"{step} done at {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
