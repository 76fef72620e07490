"""The answerability question sets of tests/data/answerability (scripts/bench_answerability.py
asks them) still say what their README says: unique ids, and every answerable question's
answering words written in its documents, in one passage."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "answerability"
SETS = {
    "demo_questions.jsonl": "make_sample_pdfs",
    "heldout_questions.jsonl": "heldout_documents",
    "heldout_b_questions.jsonl": "heldout_documents_b",
    "heldout_c_questions.jsonl": "heldout_documents_c",
    "heldout_d_questions.jsonl": "heldout_documents_d",
    "heldout_e_questions.jsonl": "heldout_documents_e",
    "heldout_f_questions.jsonl": "heldout_documents_f",
    "heldout_g_questions.jsonl": "heldout_documents_g",
    "heldout_h_questions.jsonl": "heldout_documents_h",
    "heldout_i_questions.jsonl": "heldout_documents_i",
    "heldout_j_questions.jsonl": "heldout_documents_j",
    "heldout_k_questions.jsonl": "heldout_documents_k",
    "heldout_l_questions.jsonl": "heldout_documents_l",
    "heldout_m_questions.jsonl": "heldout_documents_m",
    "heldout_n_questions.jsonl": "heldout_documents_n",
}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def passages_of(module_name: str) -> list[str]:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        documents = importlib.import_module(module_name).DOCUMENTS
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return [
        passage
        for document in documents
        for passage in (
            document.title,
            f"Version {document.version}. Effective {document.effective}. Owner: {document.owner}.",
            *(text for section in document.sections for text in (section.heading,)),
            *(
                text
                for section in document.sections
                for text in (*section.paragraphs, *section.bullets)
            ),
        )
    ]


@pytest.mark.parametrize(("file_name", "module_name"), sorted(SETS.items()))
def test_every_answerable_question_names_words_its_documents_hold(
    file_name: str, module_name: str
) -> None:
    # GIVEN a question set and the documents it asks
    rows = read_jsonl(DATA / file_name)
    passages = passages_of(module_name)
    # THEN its ids are unique, and every row says whether it is answerable and in which split
    assert len({row["id"] for row in rows}) == len(rows)
    assert all(row["split"] in ("dev", "test") and "answerable" in row for row in rows)
    # AND each answering words of an answerable question are in one passage of the documents
    for row in (row for row in rows if row["answerable"]):
        evidence = row["evidence"] if isinstance(row["evidence"], list) else [row["evidence"]]
        for words in evidence:
            assert any(words in passage for passage in passages), (row["id"], words)
