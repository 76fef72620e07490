"""What the reader reads: a candidate sentence with its context, written the same way in training
(scripts/reader_data.py) and at run time (certiq.answering.extractive), so the model meets at
answer time the text it learnt from.

The sentence comes first, so when the pair is too long for the model it is the context that is
cut; then the document's title and the section heading, which say whose rule it is and what it
is about ("how long does Honda keep ..." is not answered by another company's policy); then the
sentence before it, which says what "It" or "This data" stands for.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Final

# The sentence before is context, not the candidate: its first words say what it is about.
PREVIOUS_WORDS: Final = 30


def document_title(file_name: str) -> str:
    """A file's name as words: "data-retention-policy.pdf" -> "data retention policy"."""
    stem = PurePosixPath(file_name).stem
    return " ".join(re.split(r"[\s_\-.]+", stem)).strip()


def reader_passage(
    sentence: str, title: str | None = None, heading: str | None = None, previous: str | None = None
) -> str:
    """The text the reader judges against a question."""
    parts = [sentence.strip()]
    context = " · ".join(part.strip() for part in (title, heading) if part and part.strip())
    if context:
        parts.append(f"In: {context}")
    if previous and previous.strip():
        parts.append("After: " + " ".join(previous.split()[:PREVIOUS_WORDS]))
    return " | ".join(parts)
