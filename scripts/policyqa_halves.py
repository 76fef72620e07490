"""PolicyQA's policies in two halves: rules are written from the tuning half's questions
(`scripts/policyqa_misses.py`), never from the held-out half's, whose figure measures them.
Imported by the bench and by the relevance model's training, which needs none of certiq."""

from __future__ import annotations

from collections.abc import Iterable


def tuning_policies(titles: Iterable[str]) -> frozenset[str]:
    """The policies rules may be written from: every other one in title order, the first
    included. The rest are held out from rule writing."""
    return frozenset(sorted(titles)[::2])
