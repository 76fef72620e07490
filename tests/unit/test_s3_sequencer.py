"""Ordering S3 events of one key by s3.object.sequencer, as AWS documents it: left-pad the
shorter hexadecimal string with zeros, then the greater one is the later event."""

from __future__ import annotations

import pytest

from certiq.errors import InvalidRequest
from certiq.ingestion.s3_events import sequencer_is_later


@pytest.mark.parametrize(
    ("sequencer", "applied", "later"),
    [
        ("0055AED6DCD90281E6", "0055AED6DCD90281E5", True),  # same length: plain order
        ("0055AED6DCD90281E5", "0055AED6DCD90281E6", False),
        ("0055AED6DCD90281E5", "0055AED6DCD90281E5", False),  # a duplicate is not later
        # Different lengths: "F" pads to "0F", so "10" is later, though "10" < "F" as text.
        ("10", "F", True),
        ("F", "10", False),
        ("00F", "F", False),  # padding makes them equal
        ("5E", "005D", True),
        ("5e", "5D", True),  # hex digits in either case
    ],
)
def test_sequencers_compare_after_left_padding(sequencer: str, applied: str, later: bool) -> None:
    # GIVEN two sequencers of one key WHEN compared THEN the padded greater one is later
    assert sequencer_is_later(sequencer, applied) is later


@pytest.mark.parametrize("bad", ["", "12G4", "0x1F", " 1F"])
def test_a_sequencer_that_is_not_hexadecimal_is_refused(bad: str) -> None:
    # GIVEN a malformed sequencer WHEN compared THEN a clear error, not a guess at the order
    with pytest.raises(InvalidRequest, match="not a hexadecimal S3 sequencer"):
        sequencer_is_later(bad, "1F")
    with pytest.raises(InvalidRequest, match="not a hexadecimal S3 sequencer"):
        sequencer_is_later("1F", bad)
