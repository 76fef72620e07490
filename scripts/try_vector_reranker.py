"""Experiment, not shipped: a small re-ranker over MiniLM vectors, trained on CPU, on PolicyQA.

Asks whether a model cheap enough to train on 2 CPU cores in minutes re-ranks evidence sentences
better than the hand-set span score, held out by policy, and whether it carries over to the
demo's questions (docs/benchmark_history.md has the figures; it did not carry over, so the
product does not use it). Four steps, each writing under ``--work`` (default .relevance/vector):

1. ``prepare`` (project venv): embeds every question and candidate sentence of
   ``scripts/relevance_data.py --labels in-policy`` (its --out, ``--data``) with the product's
   embedder, once per distinct text.
2. ``train`` (.venv-train, with torch): for each of 3 folds of the 20 policies (seeded), a
   64-unit MLP on the question and sentence unit vectors (their product, absolute difference and
   cosine; ``--prior`` adds the sentence vector itself) trained on the other folds' questions and
   SciFact's, with a listwise loss over each question's 48 best candidates by the hand-set score
   plus half a binary cross-entropy; then one on everything. Prints, per held-out question, how
   often a gold sentence is in the best 1 / 2 / 3 of the 16 the product reads, by the hand-set
   score, the model, and the two combined as the relevance model is (score x p^0.25).
3. ``replay`` (project venv): every PolicyQA question retrieved once in its policy's collection
   (as scripts/sweep_span_weights.py does) and answered by the product's span selection and
   offline answerer, with the fold model that never saw its policy as the RelevanceScorer, at
   each ``--weights`` (span_model_weight): the share of questions whose gold answer is shown,
   beside the hand-set score's.
4. ``demo`` (project venv): scripts/bench_answerability.py --show with the model trained on
   every policy as the RelevanceScorer, at ``--weights``' first weight.

    .venv/bin/python scripts/relevance_data.py --labels in-policy
    .venv/bin/python scripts/try_vector_reranker.py prepare
    .venv-train/bin/python scripts/try_vector_reranker.py train [--prior]
    .venv/bin/python scripts/try_vector_reranker.py replay [--prior] [--weights 0.25 0.5 1]
    .venv/bin/python scripts/try_vector_reranker.py demo [--prior] [--weights 0.25]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
SEED = 14
FOLDS = 3
SHORTLIST = 16  # the sentences the product lets a relevance model read (span_shortlist)
CANDIDATES = 48  # per question in training: the best by the hand-set score
Vectors = NDArray[np.float32]


def features(question: Vectors, sentences: Vectors, prior: bool) -> Vectors:
    """One row per sentence: what the MLP reads of it and the question (unit vectors)."""
    parts = [sentences * question, np.abs(sentences - question), (sentences @ question)[:, None]]
    return np.concatenate([*parts, sentences] if prior else parts, axis=1)


def read_questions(data: Path) -> list[dict[str, Any]]:
    with gzip.open(data, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def policy_folds(questions: Sequence[dict[str, Any]]) -> list[list[str]]:
    policies = sorted({q["group"] for q in questions if q["source"] == "policyqa"})
    random.Random(SEED).shuffle(policies)
    return [policies[fold::FOLDS] for fold in range(FOLDS)]


def prepare(args: argparse.Namespace) -> None:
    from certiq.bootstrap import build_embedder
    from certiq.config import Settings

    questions = read_questions(args.data)
    texts = list(
        dict.fromkeys(
            text
            for q in questions
            for text in [q["question"], *(c["text"] for c in q["candidates"])]
        )
    )
    embedder = build_embedder(Settings())
    assert embedder is not None, "the product's embedder (MiniLM) is needed"
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True).clip(1e-9)
    args.work.mkdir(parents=True, exist_ok=True)
    np.save(args.work / "vectors.npy", vectors)
    (args.work / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    print(f"{len(questions)} questions, {len(texts)} distinct texts embedded", file=sys.stderr)


def train(args: argparse.Namespace) -> None:
    import torch

    torch.manual_seed(SEED)
    random.seed(SEED)
    torch.set_num_threads(2)
    texts = json.loads((args.work / "texts.json").read_text(encoding="utf-8"))
    row = {text: i for i, text in enumerate(texts)}
    vectors = np.load(args.work / "vectors.npy")
    questions = read_questions(args.data)
    items = []
    for q in questions:
        ranked = sorted(q["candidates"], key=lambda c: -c["weighted"])[:CANDIDATES]
        if not ranked:
            continue
        x = features(
            vectors[row[q["question"]]], vectors[[row[c["text"]] for c in ranked]], args.prior
        )
        items.append(
            (
                q["source"],
                q["group"],
                torch.tensor(x),
                torch.tensor([c["label"] for c in ranked]),
                torch.tensor([c["weighted"] for c in ranked]),
            )
        )
    folds = policy_folds(questions)
    (args.work / "folds.json").write_text(json.dumps(folds), encoding="utf-8")
    width = items[0][2].shape[1]

    def fit(training: list[Any]) -> Any:
        model = torch.nn.Sequential(
            torch.nn.Linear(width, 64),
            torch.nn.ReLU(),
            torch.nn.Dropout(0.1),
            torch.nn.Linear(64, 1),
        )
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
        answered = [item for item in training if item[3].any()]
        for _ in range(8):
            random.shuffle(answered)
            model.train()
            for start in range(0, len(answered), 32):
                loss = torch.zeros(())
                for _, _, x, y, _ in answered[start : start + 32]:
                    z = model(x).squeeze(1)
                    loss = loss + torch.logsumexp(z, 0) - torch.logsumexp(z[y], 0)
                    loss = loss + 0.5 * torch.nn.functional.binary_cross_entropy_with_logits(
                        z, y.float()
                    )
                optimizer.zero_grad()
                (loss / 32).backward()
                optimizer.step()
        return model.eval()

    def save(model: Any, name: str) -> None:
        w1, b1, w2, b2 = (p.detach().numpy() for p in model.parameters())
        np.savez(args.work / name, w1=w1, b1=b1, w2=w2, b2=b2)

    tag = "prior" if args.prior else "plain"
    hits = {"hand-set": [0, 0, 0], "model": [0, 0, 0], "combined": [0, 0, 0]}
    held_out = 0
    for fold, policies in enumerate(folds):
        model = fit([item for item in items if item[1] not in policies])
        save(model, f"{tag}_fold{fold}.npz")
        with torch.no_grad():
            for source, group, x, y, weighted in items:
                if source != "policyqa" or group not in policies:
                    continue
                x, y, weighted = x[:SHORTLIST], y[:SHORTLIST], weighted[:SHORTLIST]
                probability = torch.sigmoid(model(x).squeeze(1))
                for name, score in (
                    ("hand-set", weighted),
                    ("model", probability),
                    ("combined", weighted * probability**0.25),
                ):
                    best = torch.argsort(-score)
                    for k in range(3):
                        hits[name][k] += bool(y[best[: k + 1]].any())
                held_out += 1
    save(fit(items), f"{tag}_all.npz")
    for name, counts in hits.items():
        print(f"{name}: best 1 / 2 / 3 of {SHORTLIST}", [round(c / held_out, 3) for c in counts])


class VectorReranker:
    """The trained MLP as a RelevanceScorer: P(the sentence answers the question)."""

    name = "vector-reranker"

    def __init__(self, weights: Path, prior: bool, embedder: Any) -> None:
        saved = np.load(weights)
        self._w1, self._b1, self._w2, self._b2 = (saved[k] for k in ("w1", "b1", "w2", "b2"))
        self._prior = prior
        self._embedder = embedder
        self._vectors: dict[str, Vectors] = {}  # a replay asks of the same sentences again

    def relevance(self, question: str, sentences: Sequence[str]) -> list[float]:
        texts = [question, *sentences]
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            found = np.asarray(self._embedder.embed(missing), dtype=np.float32)
            found /= np.linalg.norm(found, axis=1, keepdims=True).clip(1e-9)
            self._vectors.update(zip(missing, found, strict=True))
        vectors = np.stack([self._vectors[t] for t in texts])
        hidden = np.maximum(
            features(vectors[0], vectors[1:], self._prior) @ self._w1.T + self._b1, 0
        )
        logits = (hidden @ self._w2.T + self._b2)[:, 0]
        return [float(p) for p in 1 / (1 + np.exp(-logits))]


def replay(args: argparse.Namespace) -> None:
    from bench_policyqa import normalised
    from relevance_data import retrieved
    from sweep_span_weights import answered

    from certiq.answering.extractive import ExtractiveAnswerer
    from certiq.bootstrap import build_embedder
    from certiq.config import AnswerSettings, Settings
    from certiq.retrieval.spans import best_spans

    product = Settings().retrieval
    rows = [(question, found) for question, _, found in retrieved(product.top_k, product)]
    print(f"hand-set score: {sum(answered(rows, product)) / len(rows):.4f}")
    folds = json.loads((args.work / "folds.json").read_text(encoding="utf-8"))
    fold_of = {policy: fold for fold, policies in enumerate(folds) for policy in policies}
    embedder = build_embedder(Settings())
    tag = "prior" if args.prior else "plain"
    models = [
        VectorReranker(args.work / f"{tag}_fold{fold}.npz", args.prior, embedder)
        for fold in range(FOLDS)
    ]
    answerer = ExtractiveAnswerer(AnswerSettings())
    for weight in args.weights:
        settings = product.model_copy(update={"span_model_weight": weight})
        hits = 0
        for question, found in rows:
            if found is None:
                continue
            model = models[fold_of[question.policy]]
            evidence = best_spans(question.question, *found, settings.max_spans, settings, model)
            drafted, _ = answerer.answer_parts(question.question, evidence)
            shown = normalised(" ".join(sentence.text for sentence in drafted))
            hits += any(span in shown for span in map(normalised, question.spans) if span)
        print(f"{tag} reranker, weight {weight:g}: {hits / len(rows):.4f}")


def demo(args: argparse.Namespace) -> None:
    import certiq.bootstrap
    from certiq.config import Settings

    tag = "prior" if args.prior else "plain"
    weights = args.work / f"{tag}_all.npz"

    def reranker(settings: Settings) -> VectorReranker:
        embedder = certiq.bootstrap.build_embedder(settings)
        return VectorReranker(weights, args.prior, embedder)

    certiq.bootstrap.build_relevance = reranker  # type: ignore[assignment]
    os.environ["CERTIQ_RETRIEVAL__SPAN_MODEL_WEIGHT"] = str(args.weights[0])
    sys.argv = ["bench_answerability.py", "--show"]
    runpy.run_path(str(ROOT / "scripts" / "bench_answerability.py"), run_name="__main__")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("step", choices=["prepare", "train", "replay", "demo"])
    parser.add_argument("--data", type=Path, default=ROOT / ".relevance" / "questions.jsonl.gz")
    parser.add_argument("--work", type=Path, default=ROOT / ".relevance" / "vector")
    parser.add_argument("--prior", action="store_true", help="the sentence vector too")
    parser.add_argument("--weights", type=float, nargs="+", default=[0.25, 0.5, 1.0])
    args = parser.parse_args()
    {"prepare": prepare, "train": train, "replay": replay, "demo": demo}[args.step](args)


if __name__ == "__main__":
    main()
