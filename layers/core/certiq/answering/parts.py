"""Questions in parts: "How long are invoices kept and who owns the retention policy?" asks two
things, each retrieved for and answered (or said not stated) on its own. The cut is grammar, not
a word list: "and", "but" or ";" followed by a new question (a wh- word, or a verb and its
subject), and a part that brings no words of its own stays with the part before ("Who must be
told about a breach, and when must they be told?" is one question)."""

from __future__ import annotations

import re
from typing import Final

from certiq.text import content_terms

_WH: Final = r"(?:what|which|who|whom|whose|when|where|why|how)\b"
_YES_NO: Final = (
    r"(?:is|are|was|were|does|do|did|can|could|will|would|should|shall|must|may|has|have)\s+"
    r"(?:the|a|an|it|they|there|this|that|these|those|my|our|your|their|its|any|i|we|you)\b"
)
_NEXT_PART: Final = re.compile(
    rf"\s*(?:[,;]\s*)?\b(?:and|but|also|plus)\s+(?=(?:{_WH}|{_YES_NO}))"
    rf"|\s*;\s*(?=(?:{_WH}|{_YES_NO}))",
    re.IGNORECASE,
)


def question_parts(question: str) -> list[str]:
    """The question's parts as written; the question itself when it is one."""
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in [*_NEXT_PART.finditer(question), None]:
        end = len(question) if cut is None else cut.start()
        part = question[start:end].strip()
        if part:
            before = question[spans[-1][0] : spans[-1][1]] if spans else ""
            if spans and set(content_terms(part)) <= set(content_terms(before)):
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        start = len(question) if cut is None else cut.end()
    parts = [question[low:high].strip() for low, high in spans]
    return parts if len(parts) > 1 else [question]
