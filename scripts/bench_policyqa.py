"""Benchmark: does what an answer shows hold the span a reader needed? PolicyQA dev, end to end.

When to run it: `make bench` runs it twice (--scorer weighted, --scorer model); run it after
changing retrieval, the span score, the reader or the answerer.

Each of the 20 privacy policies is laid out as a PDF (its title, then one paragraph per segment),
ingested through the real pipeline into a collection of its own, and every question is asked
within its policy's collection through the answer state machine. A question counts as answered
when one of its gold answers (whitespace and case aside) lies within the statements the answer
shows: PolicyQA gives 1 to 8 per question (1,583 of the 3,809 have more than one, mostly a long
and a short span), and its evaluation, SQuAD's, counts any of them. Also printed: how often the
first gold answer alone is shown (``answered_first``, the figure this bench gave before), how
often a gold answer to the same question asked of another segment of the policy is shown
(``answered_in_policy``: PolicyQA asks one question of every segment that answers it, and the
answer here is drawn from the whole policy), how many sentences answers show, how often the
answerer abstains, and how often a gold answer was among the evidence sentences the answerer
could choose from (the ceiling).

The reader trains on the policies at even places in title order (`scripts/policyqa_halves.py`),
never on the others: the figures are printed for all questions and for each half, and the
held-out half's is the one that counts.

The reader (span_scorer model, the product's local default) was trained on the tuning half's
policies only (scripts/reader_data.py), so with --scorer model only the held-out half is asked:
policies the reader never saw, in training or in choosing its settings. --scorer weighted (this
script's default) measures the hand-set score alone, on every policy.

With --scanned, each policy is ingested as an image-only scan of its PDF (rendered, turned a
little, speckled: certiq.evaluation.scans) and read by OCR, to compare with the originals.

    .venv/bin/python scripts/bench_policyqa.py [--per-policy N] [--out FILE] [--scanned]
        [--scorer weighted|model]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from policyqa_halves import tuning_policies
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.deps import Deps
from certiq.evaluation.scans import scanned_copy
from certiq.ingestion.service import Upload, ingest
from certiq.questions import receive

ROOT = Path(__file__).resolve().parents[1]
POLICYQA = ROOT.parent / "shared" / "data" / "policyqa" / "dev.json"


@dataclass(frozen=True)
class Question:
    policy: str
    question: str
    span: str  # the first gold answer
    spans: tuple[str, ...] = ()  # every gold answer of this question (SQuAD's protocol: any)
    in_policy: tuple[str, ...] = ()  # every gold answer to the same question in its policy


@dataclass(frozen=True)
class Outcome:
    policy: str
    question: str
    span: str
    answered: bool  # one of the question's gold answers is within what is shown
    available: bool  # ... within one of the evidence sentences
    answered_first: bool  # the first gold answer alone is within what is shown
    answered_in_policy: bool  # a gold answer to the same question in the policy is shown
    shown: int  # statements shown
    abstained: bool
    seconds: float


def read_policies(path: Path) -> dict[str, list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    return {policy["title"]: policy["paragraphs"] for policy in data}


def questions_of(policies: dict[str, list[dict[str, Any]]]) -> list[Question]:
    """Every question with its gold answers, and those of the same question asked of another
    segment of its policy (PolicyQA asks one question of each segment that answers it)."""
    rows = [
        (title, qa["question"], tuple(answer["text"] for answer in qa["answers"]))
        for title, paragraphs in policies.items()
        for paragraph in paragraphs
        for qa in paragraph["qas"]
    ]
    in_policy: dict[tuple[str, str], list[str]] = defaultdict(list)
    for title, question, spans in rows:
        in_policy[(title, normalised(question))].extend(spans)
    return [
        Question(title, question, spans[0], spans, tuple(in_policy[(title, normalised(question))]))
        for title, question, spans in rows
    ]


def policy_pdf(title: str, paragraphs: list[dict[str, Any]]) -> bytes:
    """The policy as a reader would get it: the title, then each segment as a paragraph."""
    styles = getSampleStyleSheet()
    flow: list[Any] = [Paragraph(escape(f"{title} privacy policy"), styles["Title"])]
    for paragraph in paragraphs:
        flow += [Paragraph(escape(paragraph["context"]), styles["BodyText"]), Spacer(1, 6)]
    output = io.BytesIO()
    SimpleDocTemplate(output, pagesize=A4, invariant=True, title=title).build(flow)
    return output.getvalue()


def collection_name(title: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", title.lower()).strip("-")


def normalised(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def ingest_policies(
    policies: dict[str, list[dict[str, Any]]], deps: Deps, *, scanned: bool = False
) -> None:
    """Each policy into its own collection; `scanned`: as an image-only scan of its PDF."""
    for number, (title, paragraphs) in enumerate(policies.items()):
        data = policy_pdf(title, paragraphs)
        if scanned:
            data = scanned_copy(data, seed=number)
        record = ingest(
            Upload(
                data=data,
                file_name=f"{collection_name(title)}.pdf",
                uri=f"file:///{collection_name(title)}.pdf",
                tenant="default",
                collection=collection_name(title),
            ),
            deps,
        )
        ocr = f", {len(record.ocr_pages)} pages by OCR" if record.ocr_pages else ""
        print(f"  {title}: {record.status.value}{ocr}", file=sys.stderr)


def ask(question: Question, deps: Deps) -> Outcome:
    started = time.perf_counter()
    state = receive(question.question, deps, collection=collection_name(question.policy))
    run = LocalRuntime(deps).run(state)
    seconds = time.perf_counter() - started
    record = deps.questions.get(state.question_id)
    response = record.response if record is not None else None
    spans = [span for span in map(normalised, question.spans or (question.span,)) if span]
    statements = [s for s in response.statements if s.shown] if response else []
    shown = normalised(" ".join(s.text for s in statements))
    evidence = [normalised(e.text) for e in run.state.evidence]
    first = normalised(question.span)
    return Outcome(
        policy=question.policy,
        question=question.question,
        span=question.span,
        answered=any(span in shown for span in spans),
        available=any(span in sentence for span in spans for sentence in evidence),
        answered_first=bool(first) and first in shown,
        answered_in_policy=any(
            span in shown for span in map(normalised, question.in_policy) if span
        ),
        shown=len(statements),
        abstained=not statements,
        seconds=seconds,
    )


def summary(outcomes: list[Outcome]) -> dict[str, float]:
    count = len(outcomes)
    return {
        "questions": count,
        "answered": round(sum(o.answered for o in outcomes) / count, 4),
        "available": round(sum(o.available for o in outcomes) / count, 4),
        "answered_first": round(sum(o.answered_first for o in outcomes) / count, 4),
        "answered_in_policy": round(sum(o.answered_in_policy for o in outcomes) / count, 4),
        "shown_mean": round(statistics.mean(o.shown for o in outcomes), 2),
        "abstained": round(sum(o.abstained for o in outcomes) / count, 4),
        "seconds_p50": round(statistics.median(o.seconds for o in outcomes), 3),
    }


def by_half(outcomes: list[Outcome], titles: Iterable[str]) -> dict[str, dict[str, float]]:
    """The summary of each half of ``titles`` (every policy, so the halves are the same whichever
    were asked): the tuning half and the held-out half, each when some of it was asked."""
    tuning = tuning_policies(titles)
    halves = {
        half: [o for o in outcomes if (o.policy in tuning) == (half == "tuning")]
        for half in ("tuning", "held_out")
    }
    return {half: summary(asked) for half, asked in halves.items() if asked}


def bench_settings(home: Path, scorer: str = "weighted") -> Settings:
    """The settings every question is asked with: a data directory of its own, reuse off (each
    question is answered afresh) and the span scorer chosen."""
    settings = Settings()
    return settings.model_copy(
        update={
            "home": home,
            "reuse": settings.reuse.model_copy(update={"enabled": False}),
            "retrieval": settings.retrieval.model_copy(update={"span_scorer": scorer}),
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=POLICYQA)
    parser.add_argument("--per-policy", type=int, default=0, help="0: every question")
    parser.add_argument("--out", type=Path, default=None, help="write each outcome (JSON lines)")
    parser.add_argument(
        "--scanned",
        action="store_true",
        help="ingest image-only scans of the policies (certiq.evaluation.scans), read by OCR",
    )
    parser.add_argument("--scorer", choices=("weighted", "model"), default="weighted")
    args = parser.parse_args()
    policies = read_policies(args.data)
    titles = list(policies)
    if args.scorer == "model":  # the reader trained on the tuning half: ask the others
        tuning = tuning_policies(titles)
        policies = {title: policy for title, policy in policies.items() if title not in tuning}
    questions = questions_of(policies)
    if args.per_policy:
        by_policy: dict[str, list[Question]] = defaultdict(list)
        for question in questions:
            by_policy[question.policy].append(question)
        rng = random.Random(14)
        questions = [
            q
            for group in by_policy.values()
            for q in rng.sample(group, min(args.per_policy, len(group)))
        ]
    with tempfile.TemporaryDirectory() as home:
        settings = bench_settings(Path(home), args.scorer)
        deps = build_deps(settings)
        ingest_policies(policies, deps, scanned=args.scanned)
        outcomes = []
        for number, question in enumerate(questions, start=1):
            outcomes.append(ask(question, deps))
            if number % 100 == 0:
                print(f"  asked {number}: {summary(outcomes)}", file=sys.stderr)
    if args.out:
        args.out.write_text(
            "".join(json.dumps(asdict(o)) + "\n" for o in outcomes), encoding="utf-8"
        )
    print(
        json.dumps(
            {
                "answerer": deps.chat_model.name,
                "span_scorer": args.scorer,
                "scanned": args.scanned,
                **summary(outcomes),
                "halves": by_half(outcomes, titles),
            }
        )
    )


if __name__ == "__main__":
    main()
