"""Ordering S3 events of one key by s3.object.sequencer, as AWS documents it: left-pad the
shorter hexadecimal string with zeros, then the greater one is the later event."""

from __future__ import annotations

import pytest

from certiq.errors import InvalidRequest
from certiq.ingestion.s3_events import sequencer_is_later
from certiq.ingestion.sequencer import SEQUENCER_KEY_WIDTH, sequencer_key


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
    # AND their fixed-width keys (what DynamoDB compares) order the same way as plain strings
    assert (sequencer_key(sequencer) > sequencer_key(applied)) is later


def test_a_sequencer_key_is_upper_case_and_fixed_width() -> None:
    # GIVEN a short lower-case sequencer WHEN keyed THEN zero-padded, upper-cased, 64 wide
    assert sequencer_key("5e") == "0" * (SEQUENCER_KEY_WIDTH - 2) + "5E"


def test_a_sequencer_longer_than_the_key_is_refused() -> None:
    # GIVEN a sequencer too long for the key WHEN compared THEN refused rather than misordered
    with pytest.raises(InvalidRequest, match="longer than 64"):
        sequencer_is_later("1" * (SEQUENCER_KEY_WIDTH + 1), "1F")


@pytest.mark.parametrize("bad", ["", "12G4", "0x1F", " 1F"])
def test_a_sequencer_that_is_not_hexadecimal_is_refused(bad: str) -> None:
    # GIVEN a malformed sequencer WHEN compared THEN a clear error, not a guess at the order
    with pytest.raises(InvalidRequest, match="not a hexadecimal S3 sequencer"):
        sequencer_is_later(bad, "1F")
    with pytest.raises(InvalidRequest, match="not a hexadecimal S3 sequencer"):
        sequencer_is_later("1F", bad)
