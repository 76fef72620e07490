"""Trains certiq's reader: a cross-encoder (sentence in its context, question) -> does the
sentence answer the question? Fine-tuned from the all-MiniLM-L6-v2 weights certiq ships, as the
verifier is (scripts/train_verifier.py: the same encoder, written out layer for layer as certiq
runs it in numpy, with a two-label head: not_relevant, relevant).

When to run it: `make train-reader`, to retrain the reader (new data from scripts/reader_data.py, or
a new recipe); minutes with --device cuda.

Needs torch (training only: .venv-train, `make train-reader`). Questions and their candidate
sentences come from scripts/reader_data.py (qa/ and PolicyQA's tuning half). Each epoch takes,
per question, its relevant sentences (three at most) and --negatives others: half the hardest
(the most words shared with the question), half at random; a question nothing answers gives its
negatives alone. MiniLM's word embeddings stay as they are (--freeze-words, the default). Seeded;
on a CPU torch runs deterministically with the same thread count, on a GPU nearly so.

The shipped model (certiq-reader-minilm-v1): the defaults below, 1 epoch, about 76,500 pair
passes, on 2 CPU cores (models/reader/MODEL_CARD.md gives the time).

    .venv-train/bin/python scripts/train_reader.py --threads 2
    python scripts/train_reader.py --device cuda

``--init`` goes on from a trained reader (its head included) instead of MiniLM: for a further
pass on other data (the model card's experiment with the development sets' questions).
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
from tokenizers import Tokenizer
from train_verifier import (
    CrossEncoder,
    Optimiser,
    PairIds,
    base_dir,
    batches,
    logits_of,
    probabilities,
    set_up_torch,
    start_model,
    tokenizer_for,
)

ROOT = Path(__file__).resolve().parents[1]
LABELS = ("not_relevant", "relevant")
# Every source counts the same; one listed here counts this much instead.
SOURCE_WEIGHT: dict[str, float] = {}


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


def epoch_pairs(
    questions: Sequence[Question], negatives: int, hard_share: float, rng: random.Random
) -> list[tuple[str, str, int, float]]:
    """(sentence, question, label, weight) for one epoch: the relevant, hard and random others."""
    pairs = []
    for q in questions:
        # A question nothing answers (the reader's unanswerable ones) teaches with its negatives.
        relevant = [i for i, label in enumerate(q.labels) if label]
        others = [i for i, label in enumerate(q.labels) if not label]
        hard = sorted(others, key=lambda i: -q.weighted[i])[: round(negatives * hard_share)]
        chosen = set(hard)
        rest = [i for i in others if i not in chosen]
        picked = hard + rng.sample(rest, min(len(rest), negatives - len(hard)))
        weight = SOURCE_WEIGHT.get(q.source, 1.0)
        for i in rng.sample(relevant, min(3, len(relevant))):
            pairs.append((q.texts[i], q.question, 1, weight))
        pairs.extend((q.texts[i], q.question, 0, weight) for i in picked)
    rng.shuffle(pairs)
    return pairs


def train(
    questions: Sequence[Question], args: argparse.Namespace, tokenizer: Tokenizer, seed: int
) -> CrossEncoder:
    model = start_model(seed, 0.1, args.device, LABELS)
    if args.init is not None:  # go on from a trained reader, its head included
        model.load_base(args.init, with_classifier=True)
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
    # No calibration in the model: the answerer's floor is a setting (answer.min_answer).
    model.save(target, name, config, {})
    (target / "tokenizer.json").write_bytes((folder / "tokenizer.json").read_bytes())


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
    parser.add_argument("--data", type=Path, default=ROOT / ".reader" / "questions.jsonl.gz")
    parser.add_argument("--work", type=Path, default=ROOT / ".reader")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--negatives", type=int, default=10)
    parser.add_argument("--hard-share", type=float, default=0.5, help="of them, the hardest")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's)")
    parser.add_argument("--name", default="certiq-reader-minilm-v1")
    parser.add_argument("--limit", type=int, default=0, help="this many questions (a smoke run)")
    parser.add_argument("--base", type=Path, help="MiniLM folder (default: the installed package)")
    parser.add_argument("--init", type=Path, help="a trained reader's folder to go on from")
    parser.add_argument(
        "--freeze-words",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep MiniLM's word embeddings as they are",
    )
    args = parser.parse_args()
    train_verifier.BASE = args.base
    set_up_torch(args.threads, args.device)
    args.work.mkdir(parents=True, exist_ok=True)
    questions = read(args.data)
    if args.limit:
        questions = random.Random(args.seed).sample(questions, args.limit)
    tokenizer = tokenizer_for(base_dir(), args.max_length)
    started = time.perf_counter()
    run_final(questions, args, tokenizer)
    print(f"done at {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
