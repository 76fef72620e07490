"""PolicyQA's policies in two halves: the reader trains on the tuning half's questions
(`scripts/reader_data.py`), never on the held-out half's, whose figure measures it. Imported by
the bench and by the reader's data.

When to run it: never on its own; it is a library that scripts/bench_policyqa.py and
scripts/reader_data.py import.
"""

from __future__ import annotations

from collections.abc import Iterable


def tuning_policies(titles: Iterable[str]) -> frozenset[str]:
    """The policies the reader may train on: every other one in title order, the first
    included. The rest are held out."""
    return frozenset(sorted(titles)[::2])
