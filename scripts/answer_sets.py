"""The answerability sets: each set's documents and questions, read from their data files.

When to run it: never on its own; it is a library. scripts/bench_answerability.py,
scripts/calibrate_reader.py, scripts/make_sample_pdfs.py (the demo's documents) and
tests/unit/test_answerability_data.py read the sets through it, and scripts/make_sample_pdfs.py
turns a set's documents into PDFs (`make_sample_pdfs.py DIR SET` writes them for a look).

A set is named as ``bench_answerability.py --documents`` takes it: ``demo`` (the offline demo's
documents), ``heldout`` (set A) and ``heldout-b`` to ``heldout-n``. Its data lie in
tests/data/answerability, beside the README that says how each set was written:

- ``documents/<set>.json``: ``about`` (what the documents are), ``questions`` (the set's JSON
  lines file, in the same folder as the README) and ``documents``, each with ``file_name``,
  ``title``, ``version``, ``effective``, ``owner``, ``company`` (in each page's running header),
  ``scanned`` (written as an image-only scan of itself) and ``sections``, each a ``heading``,
  its ``paragraphs`` and then its ``bullets``, laid out in that order;
- ``<set>_questions.jsonl``: one question a line, its expected answer and labels (``id``,
  ``question``, ``answerable``, ``evidence``, ``split``, optional ``all_evidence`` and
  ``parts_not_stated``: the README there says what each means).

To add a set, add its two files: the set's name is its documents file's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "answerability"
DOCUMENTS = DATA / "documents"


@dataclass(frozen=True)
class Section:
    heading: str
    paragraphs: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()


@dataclass(frozen=True)
class SampleDocument:
    file_name: str
    title: str
    version: str
    effective: str
    owner: str
    company: str  # in every page's running header and the PDF's author
    sections: tuple[Section, ...]
    scanned: bool = False  # written as an image-only scan of itself


def names() -> list[str]:
    """Every set with a documents file, demo first."""
    found = sorted(path.stem for path in DOCUMENTS.glob("*.json"))
    return sorted(found, key=lambda name: name != "demo")


def documents(name: str) -> tuple[SampleDocument, ...]:
    """The set's documents, in the order they are written and ingested."""
    return tuple(_document(item) for item in _read(name)["documents"])


def questions_path(name: str) -> Path:
    return DATA / str(_read(name)["questions"])


def questions(name: str) -> list[dict[str, Any]]:
    """The set's questions, one dict a row, in the order written."""
    return read_questions(questions_path(name))


def read_questions(path: Path) -> list[dict[str, Any]]:
    """A JSON lines question set (a set's own, or one given with --questions)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _read(name: str) -> dict[str, Any]:
    path = DOCUMENTS / f"{name}.json"
    if not path.is_file():
        raise ValueError(f"no answerability set {name!r}: {path} is missing ({', '.join(names())})")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _document(item: dict[str, Any]) -> SampleDocument:
    # a field the dataclasses do not know (a misspelt key) fails here, not silently
    sections = tuple(_section(Section(**section)) for section in item["sections"])
    return SampleDocument(**{**item, "sections": sections})


def _section(read: Section) -> Section:
    """JSON's lists as the tuples a frozen dataclass holds."""
    return Section(read.heading, tuple(read.paragraphs), tuple(read.bullets))
