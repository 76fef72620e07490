"""The reader's training data: questions, each with candidate sentences in their context and
whether each states the answer (models/reader/MODEL_CARD.md).

When to run it: before scripts/train_reader.py (`make train-reader` runs both), after changing
the reader's data (its sources, or how candidate sentences are drawn).

From ../shared/data (its README gives each set's licence):
- qa/squad_v1.1_dev: a question against the sentences of its paragraph (the one holding an
  answer is relevant) and a few sentences of other paragraphs of the same article; and, as
  unanswerable questions, a question against another paragraph of its article.
- qa/qed_dev_sentences: a Natural Questions query against the sentences of its paragraph.
- qa/covid_qa: a biomedical question against the sentences of the paper's paragraph.
- qa/cuad_relevance + qa/cuad: a lawyer's clause question against lines of the contract; the
  questions a contract does not answer (CUAD's "if any") against its other clauses.
- policyqa/dev.json, the tuning half of its policies only (scripts/policyqa_halves.py): the
  held-out half is what the reader's figures are measured on. A sentence is relevant when it
  holds a gold span of the question asked anywhere in its policy. Negatives: the segment's other
  sentences, the policy's sentences sharing most words with the question, a few at random; and
  the question naming its organisation, asked of another organisation's policy (all irrelevant),
  so a question naming one company is not answered from another's.

A tenth of the questions carry a one-letter typo, as people type. Written as gzipped JSON lines
in scripts/train_reader.py's format: ``{"source", "group", "question", "candidates":
[{"text", "label", "chunk_rank", "weighted"}]}``, where ``text`` is
certiq.retrieval.reading.reader_passage and ``weighted`` the share of the question's terms the
sentence holds (what "hardest" negatives are chosen by). Seeded; standard library and certiq.

    python scripts/reader_data.py [--out .reader/questions.jsonl.gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from bench_policyqa import collection_name, normalised
from policyqa_halves import tuning_policies

from certiq.retrieval.reading import document_title, reader_passage
from certiq.sentences import split_sentences
from certiq.text import content_terms

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
Row = dict[str, Any]
# How many questions each set gives (seeded samples): about 100,000 pairs an epoch in all.
SQUAD_QUESTIONS = 4000
SQUAD_UNANSWERABLE = 1500
CUAD_QUESTIONS = 2500
CUAD_UNANSWERABLE = 1500
OTHER_PARAGRAPH_SENTENCES = 3
POLICY_OVERLAP_NEGATIVES = 10
POLICY_RANDOM_NEGATIVES = 5
NAMED_SHARE = 0.25
TYPO_SHARE = 0.1


def sentences_of(text: str) -> list[str]:
    return [text[start:end] for start, end in split_sentences(text)]


def overlap(question_terms: set[str], sentence: str) -> float:
    return len(question_terms & set(content_terms(sentence))) / max(1, len(question_terms))


def candidate(
    sentence: str,
    label: bool,
    terms: set[str],
    title: str | None = None,
    heading: str | None = None,
    previous: str | None = None,
) -> Row:
    return {
        "text": reader_passage(sentence, title, heading, previous),
        "label": label,
        "chunk_rank": 0,
        "weighted": round(overlap(terms, sentence), 4),
    }


def in_context(
    sentences: Sequence[str], labels: Sequence[bool], terms: set[str], title: str | None
) -> list[Row]:
    """Each sentence of one passage, with the one before it as context."""
    return [
        candidate(sentence, label, terms, title, None, sentences[i - 1] if i else None)
        for i, (sentence, label) in enumerate(zip(sentences, labels, strict=True))
    ]


def holds(sentence: str, answers: Iterable[str]) -> bool:
    text = normalised(sentence)
    return any(span and span in text for span in map(normalised, answers))


def read_jsonl(path: Path) -> Iterator[Row]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def squad(rng: random.Random) -> list[Row]:
    rows = list(read_jsonl(DATA / "qa" / "squad_v1.1_dev.jsonl"))
    paragraphs: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if row["passage"] not in paragraphs[row["doc"]]:
            paragraphs[row["doc"]].append(row["passage"])
    split = {p: sentences_of(p) for passages in paragraphs.values() for p in passages}
    picked = rng.sample(rows, SQUAD_QUESTIONS + SQUAD_UNANSWERABLE)
    out = []
    for n, row in enumerate(picked):
        title = row["doc"].replace("_", " ")
        terms = set(content_terms(row["question"]))
        others = [p for p in paragraphs[row["doc"]] if p != row["passage"]]
        if not others:
            continue
        if n < SQUAD_QUESTIONS:
            own = split[row["passage"]]
            candidates = in_context(own, [holds(s, row["answers"]) for s in own], terms, title)
            pool = [
                (s, p, i)
                for p in others
                for i, s in enumerate(split[p])
                if not holds(s, row["answers"])
            ]
            for s, p, i in rng.sample(pool, min(OTHER_PARAGRAPH_SENTENCES, len(pool))):
                candidates.append(
                    candidate(s, False, terms, title, None, split[p][i - 1] if i else None)
                )
        else:  # unanswerable: asked of another paragraph of its article
            other = rng.choice(others)
            sentences = split[other]
            if any(holds(s, row["answers"]) for s in sentences):
                continue
            candidates = in_context(sentences, [False] * len(sentences), terms, title)
        out.append(question_row("squad", row["doc"], row["question"], candidates))
    return out


def qed() -> list[Row]:
    grouped: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in read_jsonl(DATA / "qa" / "qed_dev_sentences.jsonl"):
        grouped[(row["question"], row["doc"])].append(row)
    out = []
    for (question, doc), rows in grouped.items():
        terms = set(content_terms(question))
        sentences = [r["sentence"] for r in rows]
        labels = [r["label"] == "relevant" for r in rows]
        out.append(question_row("qed", doc, question, in_context(sentences, labels, terms, doc)))
    return out


def covid_qa() -> list[Row]:
    out = []
    for row in read_jsonl(DATA / "qa" / "covid_qa.jsonl"):
        sentences = sentences_of(row["passage"])
        terms = set(content_terms(row["question"]))
        labels = [holds(s, row["answers"]) for s in sentences]
        if any(labels):
            candidates = in_context(sentences, labels, terms, None)
            out.append(question_row("covid_qa", row["doc"], row["question"], candidates))
    return out


_CUAD = re.compile(r'related to "(?P<category>[^"]+)".*Details: (?P<details>.*)$', re.DOTALL)


def cuad_question(template: str) -> str:
    """CUAD's template ("Highlight the parts (if any) of this contract related to ...") as a
    question a person would ask."""
    found = _CUAD.search(template)
    if found is None:
        return template
    return f"What does the contract say about {found['category']}? {found['details'].strip()}"


def contract_title(doc: str) -> str:
    return doc.rsplit("_", 1)[-1].strip()


def cuad(rng: random.Random) -> list[Row]:
    grouped: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in read_jsonl(DATA / "qa" / "cuad_relevance.jsonl.gz"):
        grouped[(row["question"], row["doc"])].append(row)
    keys = rng.sample(sorted(grouped), min(CUAD_QUESTIONS, len(grouped)))
    out = []
    for template, doc in keys:
        question = cuad_question(template)
        terms = set(content_terms(question))
        candidates = [
            candidate(r["sentence"], r["label"] == "relevant", terms, contract_title(doc))
            for r in grouped[(template, doc)]
        ]
        out.append(question_row("cuad", doc, question, candidates))
    # Questions a contract does not answer, against its clauses on other matters.
    clauses: dict[str, list[Row]] = defaultdict(list)
    for row in read_jsonl(DATA / "qa" / "cuad.jsonl"):
        clauses[row["doc"]].append(row)
    templates = sorted({row["question"] for rows in clauses.values() for row in rows})
    unanswered = [
        (template, doc)
        for doc, rows in sorted(clauses.items())
        for template in templates
        if template not in {row["question"] for row in rows} and len(rows) >= 3
    ]
    for template, doc in rng.sample(unanswered, min(CUAD_UNANSWERABLE, len(unanswered))):
        question = cuad_question(template)
        terms = set(content_terms(question))
        candidates = [
            candidate(r["passage"], False, terms, contract_title(doc))
            for r in rng.sample(clauses[doc], 3)
        ]
        out.append(question_row("cuad", doc, question, candidates))
    return out


def organisation(title: str) -> str:
    """PolicyQA's policy titles are web sites: "ticketmaster.com" -> "ticketmaster"."""
    return title.split(".")[0]


def named(question: str, org: str, rng: random.Random) -> str:
    """The question as someone asks it of one organisation."""
    body = question.rstrip(" ?")
    lowered = body[:1].lower() + body[1:]
    return rng.choice((f"{body} at {org}?", f"According to {org}, {lowered}?", f"{org}: {body}?"))


def policyqa(rng: random.Random) -> list[Row]:
    data = json.loads((DATA / "policyqa" / "dev.json").read_text(encoding="utf-8"))["data"]
    policies = {policy["title"]: policy["paragraphs"] for policy in data}
    tuning = sorted(tuning_policies(policies))
    # Each policy's sentences in order: (sentence, the one before, its segment's number).
    laid_out: dict[str, list[tuple[str, str | None, int]]] = {}
    for title in tuning:
        rows = []
        for number, paragraph in enumerate(policies[title]):
            sentences = sentences_of(paragraph["context"])
            rows += [(s, sentences[i - 1] if i else None, number) for i, s in enumerate(sentences)]
        laid_out[title] = rows
    out = []
    for title in tuning:
        spans: dict[str, list[str]] = defaultdict(list)
        asked: dict[str, tuple[str, set[int]]] = {}
        for number, paragraph in enumerate(policies[title]):
            for qa in paragraph["qas"]:
                key = normalised(qa["question"])
                spans[key] += [answer["text"] for answer in qa["answers"]]
                asked.setdefault(key, (qa["question"], set()))[1].add(number)
        doc_title = document_title(f"{collection_name(title)}.pdf")
        sentences = laid_out[title]
        for key, (question, segments) in asked.items():
            terms = set(content_terms(question))
            labels = [holds(s, spans[key]) for s, _, _ in sentences]
            if not any(labels):
                continue
            own = [i for i, (_, _, number) in enumerate(sentences) if number in segments]
            rest = [i for i in range(len(sentences)) if i not in set(own)]
            close = sorted(rest, key=lambda i: -overlap(terms, sentences[i][0]))
            chosen = set(own) | set(close[:POLICY_OVERLAP_NEGATIVES])
            chosen |= set(rng.sample(rest, min(POLICY_RANDOM_NEGATIVES, len(rest))))
            chosen |= {i for i, label in enumerate(labels) if label}

            if rng.random() < NAMED_SHARE:
                org = organisation(title)
                asking = named(question, org, rng)
                out.append(
                    question_row(
                        "policyqa",
                        title,
                        asking,
                        policy_rows(sentences, labels, chosen, asking, doc_title),
                    )
                )
                # The same question, naming this organisation, asked of another's policy.
                other = rng.choice([t for t in tuning if t != title])
                theirs = laid_out[other]
                asked_terms = set(content_terms(question))
                best = sorted(range(len(theirs)), key=lambda i: -overlap(asked_terms, theirs[i][0]))
                other_title = document_title(f"{collection_name(other)}.pdf")
                candidates = [
                    candidate(theirs[i][0], False, asked_terms, other_title, None, theirs[i][1])
                    for i in best[:6]
                ]
                out.append(question_row("policyqa", title, asking, candidates))
            else:
                out.append(
                    question_row(
                        "policyqa",
                        title,
                        question,
                        policy_rows(sentences, labels, chosen, question, doc_title),
                    )
                )
    return out


def policy_rows(
    sentences: Sequence[tuple[str, str | None, int]],
    labels: Sequence[bool],
    indices: Iterable[int],
    asking: str,
    title: str,
) -> list[Row]:
    """The chosen sentences of a policy, in its order, as candidates for ``asking``."""
    terms = set(content_terms(asking))
    return [
        candidate(sentences[i][0], labels[i], terms, title, None, sentences[i][1])
        for i in sorted(indices)
    ]


def question_row(source: str, group: str, question: str, candidates: list[Row]) -> Row:
    return {"source": source, "group": group, "question": question, "candidates": candidates}


def with_typo(question: str, rng: random.Random) -> str:
    """One letter dropped, doubled or two swapped, in one word of four letters or more."""
    spots = [m for m in re.finditer(r"[A-Za-z]{4,}", question)]
    if not spots:
        return question
    word = rng.choice(spots)
    at = rng.randrange(word.start() + 1, word.end() - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return question[:at] + question[at + 1 :]
    if kind == 1:
        return question[:at] + question[at] + question[at:]
    return question[:at] + question[at + 1] + question[at] + question[at + 2 :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / ".reader" / "questions.jsonl.gz")
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = policyqa(rng) + squad(rng) + cuad(rng) + qed() + covid_qa()
    for row in rows:
        if rng.random() < TYPO_SHARE:
            row["question"] = with_typo(row["question"], rng)
    rng.shuffle(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    questions = Counter(row["source"] for row in rows)
    answerable = Counter(
        row["source"] for row in rows if any(c["label"] for c in row["candidates"])
    )
    candidates = Counter()
    for row in rows:
        candidates[row["source"]] += len(row["candidates"])
    for source in sorted(questions):
        print(
            f"{source}: {questions[source]} questions ({answerable[source]} answerable),"
            f" {candidates[source]} candidates",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
