"""Sweep the hand-set span score's cosine weight on PolicyQA, and choose it held out by policy.

Retrieves every PolicyQA question once within its policy's collection (the policies laid out and
ingested as scripts/bench_policyqa.py does, into .bench/policyqa, reused), keeps each question's
span candidates with their features, then replays the product's span selection and offline
answerer over them for each weight (`span_dense_weight`, with `span_bm25_weight` 1): the share
of questions whose gold answer is within what is shown, as the bench counts it (the replay of
the default weights gives the bench's own figure).

Then the choice, held out: the 20 policies are split in two halves (three seeds, each half in
turn the one chosen on); the weight that does best on one half is measured on the other, beside
the baseline weight there (``--baseline``, 1: the weight before this sweep chose 2).
``--at-most`` restricts the weights chosen among (the demo's questions withhold answers above
2: scripts/bench_answerability.py with CERTIQ_RETRIEVAL__SPAN_DENSE_WEIGHT).

    .venv/bin/python scripts/sweep_span_weights.py [--weights 0 0.5 1 1.5 2 3 6 10] [--at-most 2]
"""

from __future__ import annotations

import argparse
import random
import sys

from bench_policyqa import Question, normalised
from relevance_data import Found, retrieved

from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import AnswerSettings, RetrievalSettings, Settings
from certiq.retrieval.spans import best_spans


def answered(rows: list[tuple[Question, Found]], retrieval: RetrievalSettings) -> list[bool]:
    """Per question: is a gold answer within what the offline answerer shows?"""
    answerer = ExtractiveAnswerer(AnswerSettings())
    outcomes = []
    for question, found in rows:
        if found is None:
            outcomes.append(False)
            continue
        evidence = best_spans(question.question, *found, retrieval.max_spans, retrieval)
        drafted, _ = answerer.answer_parts(question.question, evidence)
        shown = normalised(" ".join(sentence.text for sentence in drafted))
        outcomes.append(any(span in shown for span in map(normalised, question.spans) if span))
    return outcomes


def share(outcomes: list[bool], policies: list[str], among: set[str]) -> float:
    picked = [hit for hit, policy in zip(outcomes, policies, strict=True) if policy in among]
    return sum(picked) / len(picked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--weights", type=float, nargs="+", default=[0, 0.5, 1, 1.5, 2, 3, 6, 10])
    parser.add_argument("--at-most", type=float, default=None, help="choose among these only")
    parser.add_argument(
        "--baseline", type=float, default=1.0, help="the weight compared with (1: before the sweep)"
    )
    args = parser.parse_args()
    product = Settings().retrieval
    rows = [(question, found) for question, _, found in retrieved(product.top_k, product)]
    baseline = args.baseline
    weights = sorted({*args.weights, baseline})
    results = {}
    for weight in weights:
        retrieval = product.model_copy(update={"span_dense_weight": weight})
        results[weight] = answered(rows, retrieval)
        print(f"cosine weight {weight:g}: {sum(results[weight]) / len(rows):.4f}", file=sys.stderr)
    policies = [question.policy for question, _ in rows]
    names = sorted(set(policies))
    eligible = [w for w in weights if args.at_most is None or w <= args.at_most]
    for seed in (1, 2, 3):
        shuffled = names[:]
        random.Random(seed).shuffle(shuffled)
        halves = (set(shuffled[: len(names) // 2]), set(shuffled[len(names) // 2 :]))
        for chosen_on, measured_on in (halves, halves[::-1]):
            best = max(eligible, key=lambda w: share(results[w], policies, chosen_on))
            print(
                f"seed {seed}: chose {best:g} on {len(chosen_on)} policies; on the other"
                f" {len(measured_on)}: {share(results[best], policies, measured_on):.4f}"
                f" against {share(results[baseline], policies, measured_on):.4f} at {baseline:g}"
            )


if __name__ == "__main__":
    main()
