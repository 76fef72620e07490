"""The answerability sets of tests/data/answerability (scripts/bench_answerability.py asks them,
scripts/answer_sets.py reads them) still say what their README says: unique ids, and every
answerable question's answering words written in its documents, in one passage."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_answer_sets() -> ModuleType:
    """scripts/answer_sets.py (scripts/ is not a package)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import answer_sets
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return answer_sets


answer_sets = load_answer_sets()
SETS = ["demo", "heldout", *(f"heldout-{letter}" for letter in "bcdefghijklmn")]


def passages_of(name: str) -> Iterator[str]:
    for document in answer_sets.documents(name):
        yield document.title
        yield (
            f"Version {document.version}. Effective {document.effective}. Owner: {document.owner}."
        )
        yield from (section.heading for section in document.sections)
        for section in document.sections:
            yield from (*section.paragraphs, *section.bullets)


def test_every_set_has_its_documents_and_its_questions() -> None:
    # GIVEN the documents files of tests/data/answerability/documents
    # THEN they are the sets the benchmarks know, each with four documents and its questions
    assert answer_sets.names() == SETS
    for name in SETS:
        assert len(answer_sets.documents(name)) == 4, name
        assert answer_sets.questions_path(name).is_file(), name


@pytest.mark.parametrize("name", SETS)
def test_every_answerable_question_names_words_its_documents_hold(name: str) -> None:
    # GIVEN a question set and the documents it asks
    rows = answer_sets.questions(name)
    passages = list(passages_of(name))
    # THEN its ids are unique, and every row says whether it is answerable and in which split
    assert len({row["id"] for row in rows}) == len(rows)
    assert all(row["split"] in ("dev", "test") and "answerable" in row for row in rows)
    # AND each answering words of an answerable question are in one passage of the documents
    for row in (row for row in rows if row["answerable"]):
        evidence = row["evidence"] if isinstance(row["evidence"], list) else [row["evidence"]]
        for words in evidence:
            assert any(words in passage for passage in passages), (row["id"], words)


def test_a_misspelt_field_in_a_documents_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a documents file whose section misspells "paragraphs"
    document = {
        "file_name": "policy.pdf",
        "title": "Policy",
        "version": "1",
        "effective": "1 May 2024",
        "owner": "Board",
        "company": "Example Ltd",
        "scanned": False,
        "sections": [{"heading": "1. Purpose", "paragraph": ["Read as no paragraph at all."]}],
    }
    (tmp_path / "misspelt.json").write_text(
        json.dumps({"about": "", "questions": "none.jsonl", "documents": [document]})
    )
    monkeypatch.setattr(answer_sets, "DOCUMENTS", tmp_path)
    # THEN reading it fails, rather than leaving the section without its paragraph
    with pytest.raises(TypeError, match="paragraph"):
        answer_sets.documents("misspelt")
