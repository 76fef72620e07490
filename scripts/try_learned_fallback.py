"""Experiment, not shipped: can a model tell the offline answerer when to answer anyway?

The development sets' answerable questions almost always have their answer among the evidence
sentences (578 of 584), and the hand-set score ranks it first for 74% of them; what the
answerer lacks is telling a sentence that states what was asked from one merely about it. This
fine-tunes the shipped relevance model (models/relevance) on the development sets' questions,
the unanswerable ones' sentences as negatives, and asks whether its best probability could show
a sentence when the rules withhold one (docs/benchmark_history.md has the figures: it could
not, so the product does not). Three steps, each writing under ``--work`` (default
.relevance/fallback):

1. ``dump`` (project venv): each development set (the demo, A to F) ingested and every question
   asked through the local runtime, as scripts/bench_answerability.py does; writes each
   question's outcome, what it showed, and its evidence sentences labelled by the answering
   words.
2. ``train`` (.venv-train, with torch): two folds by set (the demo, A, B, C against D, E, F); for
   each, the relevance model fine-tuned on the other fold (2 epochs, 8 negatives per question,
   seed 21) scores the held-out fold's sentences -> oof.jsonl.
3. ``report`` (either venv): out of fold, how often the model's best sentence is the answer
   against the hand-set score's; how well its best probability tells answerable questions from
   unanswerable ones; what a fallback at each threshold would turn withheld or not-stated
   questions into; and, without the model, the share of the question's words the first shown
   sentence holds for right, wrong and loose answers (a "may not answer" label).

    .venv/bin/python scripts/try_learned_fallback.py dump
    .venv-train/bin/python scripts/try_learned_fallback.py train
    .venv/bin/python scripts/try_learned_fallback.py report
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETS = ("demo", "heldout", "heldout-b", "heldout-c", "heldout-d", "heldout-e", "heldout-f")
FOLDS = (frozenset(SETS[:4]), frozenset(SETS[4:]))
RELEVANCE = ROOT / "models" / "relevance"
Row = dict[str, Any]


def dump(work: Path) -> None:
    from bench_answerability import QUESTIONS, outcome_of
    from make_sample_pdfs import DOCUMENTS, ingest_samples

    from certiq.bootstrap import build_deps
    from certiq.config import ReuseSettings, Settings
    from certiq.questions import receive
    from certiq.runtime.local import LocalRuntime

    for name in SETS:
        home = Path(tempfile.mkdtemp(prefix="certiq-fallback-"))
        os.environ["CERTIQ_HOME"] = str(home)
        module = "heldout_documents" + name.removeprefix("heldout").replace("-", "_")
        documents = DOCUMENTS if name == "demo" else importlib.import_module(module).DOCUMENTS
        deps = build_deps(Settings(home=home, reuse=ReuseSettings(enabled=False)))
        ingest_samples(deps, home / "samples", documents)
        lines = QUESTIONS[name].read_text(encoding="utf-8").splitlines()
        with (work / f"{name}.jsonl").open("w", encoding="utf-8") as out:
            for row in (json.loads(line) for line in lines if line):
                state = receive(row["question"], deps)
                run = LocalRuntime(deps).run(state)
                record = deps.questions.get(state.question_id)
                response = record.response if record is not None else None
                shown = [s.text for s in response.statements if s.shown] if response else []
                answering = row.get("evidence") or []
                answering = answering if isinstance(answering, list) else [answering]
                candidates = [
                    {
                        "text": span.text,
                        "antecedent": span.antecedent,
                        "label": int(any(words in span.text for words in answering)),
                    }
                    for span in run.state.evidence
                ]
                out.write(
                    json.dumps(
                        {
                            "set": name,
                            "id": row["id"],
                            "question": row["question"],
                            "answerable": row["answerable"],
                            "outcome": outcome_of(row, shown),
                            "shown": shown,
                            "candidates": candidates,
                        }
                    )
                    + "\n"
                )
        print(name, "dumped", flush=True)


def read(work: Path) -> list[Row]:
    return [
        json.loads(line)
        for name in SETS
        for line in (work / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        if line
    ]


def _read_with(candidate: Row) -> str:
    """The sentence as the model reads it: after what it continues, when it continues one."""
    text: str = candidate["text"]
    return f"{candidate['antecedent']} {text}" if candidate.get("antecedent") else text


def train(work: Path, seed: int, epochs: int, negatives: int, lr: float) -> None:
    import numpy as np
    import torch
    import torch.nn.functional as F
    from train_verifier import (
        CrossEncoder,
        Optimiser,
        PairIds,
        batches,
        logits_of,
        probabilities,
        tokenizer_for,
    )

    torch.set_num_threads(2)
    rows = read(work)
    tokenizer = tokenizer_for(RELEVANCE, 128)
    with (work / "oof.jsonl").open("w", encoding="utf-8") as out:
        for fold in FOLDS:
            random.seed(seed)
            np.random.seed(seed)
            torch.manual_seed(seed)
            config = json.loads((RELEVANCE / "config.json").read_text(encoding="utf-8"))
            model = CrossEncoder(config, dropout=0.1, labels=("not_relevant", "relevant"))
            model.load_base(RELEVANCE, with_classifier=True)
            model.word.weight.requires_grad_(False)
            rng = random.Random(seed)
            training = [row for row in rows if row["set"] not in fold]
            per_epoch = []
            for _ in range(epochs):
                pairs = []
                for row in training:
                    answering = [c for c in row["candidates"] if c["label"]]
                    others = [c for c in row["candidates"] if not c["label"]]
                    if row["answerable"]:
                        pairs += [(_read_with(c), row["question"], 1) for c in answering[:3]]
                    pairs += [(_read_with(c), row["question"], 0) for c in others[:negatives]]
                rng.shuffle(pairs)
                per_epoch.append(pairs)
            total = sum(math.ceil(len(pairs) / 64) for pairs in per_epoch)
            optimiser = Optimiser(model, lr, total, 64, every=50)
            model.train()
            for epoch, pairs in enumerate(per_epoch):
                data = PairIds([(text, question) for text, question, _ in pairs], tokenizer)
                labels = np.asarray([label for _, _, label in pairs], dtype=np.int64)
                for batch in batches([len(ids) for ids in data.ids], 64, rng):
                    ids, mask, types = data.batch(batch, "cpu")
                    logits = logits_of(model, ids, mask, types).float()
                    optimiser.step(F.cross_entropy(logits, torch.from_numpy(labels[batch])), epoch)
            model.eval()
            held_out = [row for row in rows if row["set"] in fold]
            flat = [(_read_with(c), row["question"]) for row in held_out for c in row["candidates"]]
            scores = probabilities(model, PairIds(flat, tokenizer), "cpu", 128)[:, 1]
            at = 0
            for row in held_out:
                count = len(row["candidates"])
                row["p"] = [float(p) for p in scores[at : at + count]]
                at += count
                out.write(json.dumps(row) + "\n")
            print("fold of", sorted(fold), "done", flush=True)


def report(work: Path) -> None:
    rows = [json.loads(line) for line in (work / "oof.jsonl").read_text().splitlines() if line]
    with_answer = [r for r in rows if r["answerable"] and any(c["label"] for c in r["candidates"])]
    best = [max(range(len(r["p"])), key=r["p"].__getitem__) for r in with_answer]
    model_first = sum(r["candidates"][i]["label"] for r, i in zip(with_answer, best, strict=True))
    hand_first = sum(r["candidates"][0]["label"] for r in with_answer)
    print(
        f"answerable with the answer among the evidence: {len(with_answer)}; its best sentence "
        f"is the answer: model {model_first / len(with_answer):.3f}, "
        f"hand-set score {hand_first / len(with_answer):.3f}"
    )
    answerable = [max(r["p"]) for r in with_answer]
    unanswerable = [max(r["p"]) for r in rows if not r["answerable"] and r["candidates"]]
    print(f"area, answerable against unanswerable: {_area(answerable, unanswerable):.2f}")
    withheld = [max(r["p"]) for r in rows if r["outcome"] == "abstained" and r["candidates"]]
    silent = [max(r["p"]) for r in rows if r["outcome"] == "silent" and r["candidates"]]
    print(f"area, withheld against rightly not stated: {_area(withheld, silent):.2f}")
    for threshold in (0.5, 0.6, 0.7, 0.8, 0.9):
        right = wrong = loose = 0
        for row in rows:
            if not row["candidates"] or max(row["p"]) < threshold:
                continue
            top = max(range(len(row["p"])), key=row["p"].__getitem__)
            if row["outcome"] == "abstained":
                right += row["candidates"][top]["label"]
                wrong += 1 - row["candidates"][top]["label"]
            loose += row["outcome"] == "silent"
        print(f"fallback at {threshold}: withheld -> right {right}, -> wrong {wrong}; ", end="")
        print(f"not stated -> loose {loose}")
    _share_of_words(read(work))


def _share_of_words(rows: list[Row]) -> None:
    """The share of the question's words (what a quantity is asked of, for a quantity) the first
    shown sentence holds, for right, wrong and loose answers; and how many of each a label
    below 0.35 would mark."""
    from certiq.answering.answer_types import asks_for_a_quantity
    from certiq.answering.topic import topic
    from certiq.text import content_terms

    shares: dict[str, list[float]] = {"right": [], "wrong": [], "loose": []}
    for row in rows:
        asked = topic(row["question"]) if asks_for_a_quantity(row["question"]) else row["question"]
        terms = set(content_terms(asked))
        if row["outcome"] in shares and row["shown"] and terms:
            held = terms & set(content_terms(row["shown"][0]))
            shares[row["outcome"]].append(len(held) / len(terms))
    for outcome, values in shares.items():
        values.sort()
        quartiles = [round(values[int(len(values) * q)], 2) for q in (0.25, 0.5, 0.75)]
        marked = sum(value < 0.35 for value in values)
        print(f"{outcome}: {len(values)}, quartiles {quartiles}, below 0.35: {marked}")


def _area(positives: list[float], negatives: list[float]) -> float:
    pairs = [(p > n) + 0.5 * (p == n) for p in positives for n in negatives]
    return sum(pairs) / len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("step", choices=("dump", "train", "report"))
    parser.add_argument("--work", type=Path, default=ROOT / ".relevance" / "fallback")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--negatives", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3e-5)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(Path(__file__).parent))
    if args.step == "dump":
        dump(args.work)
    elif args.step == "train":
        train(args.work, args.seed, args.epochs, args.negatives, args.lr)
    else:
        report(args.work)


if __name__ == "__main__":
    main()
