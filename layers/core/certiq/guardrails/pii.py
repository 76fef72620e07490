"""Redact: personal data is replaced by typed placeholders before anything leaves the state."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
# International or North American numbers with separators; at least 9 digits in all, so years,
# amounts and section numbers are left alone.
_PHONE = re.compile(
    r"(?<![\w.])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?!\w|\.\d)"
)

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (("EMAIL", _EMAIL), ("PHONE", _PHONE))


@dataclass
class RedactionResult:
    text: str
    placeholders: dict[str, str] = field(default_factory=dict)  # placeholder -> type

    @property
    def types(self) -> list[str]:
        return sorted(set(self.placeholders.values()))


def redact(text: str) -> RedactionResult:
    """Replaces each distinct value by [TYPE_n]; the same value gets the same placeholder."""
    seen: dict[tuple[str, str], str] = {}
    placeholders: dict[str, str] = {}
    counters: dict[str, int] = {}

    def replacer(kind: str) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            value = match.group(0)
            if kind == "PHONE" and sum(ch.isdigit() for ch in value) < 9:
                return value
            key = (kind, value)
            if key not in seen:
                counters[kind] = counters.get(kind, 0) + 1
                seen[key] = f"[{kind}_{counters[kind]}]"
                placeholders[seen[key]] = kind
            return seen[key]

        return replace

    for kind, pattern in PATTERNS:
        text = pattern.sub(replacer(kind), text)
    return RedactionResult(text=text, placeholders=placeholders)
