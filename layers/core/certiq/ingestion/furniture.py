"""Running headers and footers ("page furniture"): found on a sample of pages, kept out of chunks.

A line is furniture when a line of the same text sits in the same band (the top or the bottom of
the page) on most pages, above or below body text: at least half of the sampled pages and at
least three of them. Digits are normalised before comparing, so "Page 3 of 40" on page 3 and
"Page 4 of 40" on page 4 are the same line. Only pages with a line outside both bands count as
evidence: on a page of a few short lines, all near an edge, those lines are the body.

Dropped, furniture is never quoted by a citation, and never makes a chunk match a query because
the company name in its header repeats on every page.

Detection works on a sample of pages spread over the whole document (every page of a short
one), chosen from the page count alone: a document parsed in page batches drops exactly the
lines a single pass drops.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "SAMPLE_PAGES",
    "Furniture",
    "LineSample",
    "PageSample",
    "detect_furniture",
    "furniture_key",
    "sample_numbers",
]

SAMPLE_PAGES = 24  # pages a decision is made on; every page of shorter documents
BAND = 0.12  # share of the page height, at the top and at the bottom, where furniture sits
MIN_PAGES = 3  # a line seen on fewer sampled pages is never furniture
MIN_SHARE = 0.5  # ... nor one seen on fewer than this share of them

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class LineSample:
    """A line of a page as displayed: its text, and its top and bottom in points from the top."""

    text: str
    top: float
    bottom: float


@dataclass(frozen=True, slots=True)
class PageSample:
    height: float
    lines: tuple[LineSample, ...]


@functools.lru_cache(maxsize=4096)  # a running header is the same text on every page
def furniture_key(text: str) -> str:
    """The text a repeated line is recognised by: case-folded, digit runs as "#", spaces single."""
    return " ".join(_DIGITS.sub("#", text.casefold()).split())


def band_of(top: float, bottom: float, height: float) -> str | None:
    """ "top" or "bottom" when the line lies wholly inside that band of the page, else None."""
    if height <= 0:
        return None
    if bottom <= BAND * height:
        return "top"
    if top >= (1 - BAND) * height:
        return "bottom"
    return None


def sample_numbers(page_count: int, size: int = SAMPLE_PAGES) -> list[int]:
    """1-based page numbers spread evenly from the first page to the last, at most `size`."""
    if page_count <= size:
        return list(range(1, page_count + 1))
    step = (page_count - 1) / (size - 1)
    return sorted({1 + round(index * step) for index in range(size)})


@dataclass(frozen=True, slots=True)
class Furniture:
    """The (band, key) pairs found to repeat; `drops` tells whether a line is one of them."""

    lines: frozenset[tuple[str, str]] = frozenset()

    @staticmethod
    def bands(height: float) -> tuple[float, float]:
        """Where the top band ends and the bottom band starts, in points from the top."""
        return BAND * height, (1 - BAND) * height

    def drops(self, text: str, top: float, bottom: float, height: float) -> bool:
        if not self.lines:
            return False
        band = band_of(top, bottom, height)
        return band is not None and (band, furniture_key(text)) in self.lines


def detect_furniture(pages: Sequence[PageSample]) -> Furniture:
    """The lines repeated in the top or bottom band of at least half the pages (and >= 3)."""
    needed = max(MIN_PAGES, math.ceil(MIN_SHARE * len(pages)))
    if len(pages) < needed:
        return Furniture()
    seen: Counter[tuple[str, str]] = Counter()
    for page in pages:
        keys = set()
        has_body = False
        for line in page.lines:
            band = band_of(line.top, line.bottom, page.height)
            if band is None:
                has_body = True
            else:
                key = furniture_key(line.text)
                if key:
                    keys.add((band, key))
        # A header sits above a page's body: on a page whose every line is near an edge (a
        # short page of a few lines) those lines are the body, however alike the pages are.
        if has_body:
            seen.update(keys)  # once per page, however often a page repeats it
    return Furniture(frozenset(key for key, pages_with in seen.items() if pages_with >= needed))
