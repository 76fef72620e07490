"""Questions that ask what a section of a document says, or what it lists.

"What are the severity levels?" is answered by what "2. Severity levels" says, all of it, in the
document's order: the SEV1, SEV2 and SEV3 lines, not the one sentence that uses the question's
words most. "What does the legal hold section say?" and "List the retention periods." ask the
same of their sections. A question names a section when the words it asks about (numbers aside)
are the heading's words, or at least half of them ("What are the roles?" names "3. Roles and
responsibilities"); other questions are answered sentence by sentence as before.
"""

from __future__ import annotations

import re
from typing import Final

from certiq.text import heading_terms

_THE: Final = r"(?:(?:the|our|its|their|all(?: the)?|your)\s+)?"
# What the question asks of a section, the words naming it in group "named".
_ASKS_FOR_A_SECTION: Final = (
    # "What are the severity levels?", "Which were the retention periods?"
    re.compile(rf"^(?:what|which)\s+(?:are|were)\s+{_THE}(?P<named>[^?]+?)\s*\??$", re.I),
    # "What roles are there?", "Which retention periods apply?"
    re.compile(
        r"^(?:what|which)\s+(?P<named>[^?]+?)\s+(?:are there|do we have|exist|apply)\s*\??$",
        re.I,
    ),
    # "List the retention periods.", "Name all severity levels"
    re.compile(
        rf"^(?:list|name|show(?: me)?|give(?: me)?)\s+{_THE}(?P<named>[^?.]+?)\s*[.?]?$", re.I
    ),
    # "What does the legal hold section say?", "What is in the roles section?",
    # "Summarise the legal hold section."
    re.compile(
        rf"^(?:what\s+(?:does|do)\s+{_THE}(?P<named>[^?]+?)\s+section\s+"
        r"(?:say|state|cover|contain|set out)"
        rf"|what\s+is\s+in\s+{_THE}(?P<named_in>[^?]+?)\s+section"
        rf"|summari[sz]e\s+{_THE}(?P<named_summary>[^?.]+?)\s+section)\s*[.?]?$",
        re.I,
    ),
    # "What does the section on legal holds say?"
    re.compile(
        r"^what\s+(?:does|do)\s+the\s+section\s+(?:on|about)\s+(?P<named>[^?]+?)\s+"
        r"(?:say|state|cover|contain|set out)\s*\??$",
        re.I,
    ),
)


def section_asked(question: str) -> frozenset[str] | None:
    """The content terms naming the section the question asks about ("severity", "level" of
    "What are the severity levels?"), or None: the question asks something else."""
    for pattern in _ASKS_FOR_A_SECTION:
        match = pattern.match(question.strip())
        if match is None:
            continue
        return heading_terms(next(group for group in match.groups() if group)) or None
    return None


def section_match(asked: frozenset[str], section: str | None) -> float:
    """How completely the asked terms name the section: the share of the heading's terms they
    hold, when they are all the heading's and at least half of them; 0 otherwise."""
    if not section:
        return 0.0
    heading = heading_terms(section)
    if not heading or not asked <= heading or 2 * len(asked) < len(heading):
        return 0.0
    return len(asked) / len(heading)
