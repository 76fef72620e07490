"""S3 event sequencers: checked, compared and turned into a key that sorts as they do.

AWS: s3.object.sequencer is a hexadecimal string of varying length that grows with each event
for one key; compare two after left-padding the shorter with zeros, and the greater is the later.
"""

from __future__ import annotations

from certiq.errors import InvalidRequest

HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# Wide enough for any sequencer S3 sends (about 18 digits today); a longer one is refused.
SEQUENCER_KEY_WIDTH = 64


def check_sequencer(value: str, name: str = "sequencer") -> str:
    """The sequencer, refused unless hexadecimal and at most SEQUENCER_KEY_WIDTH digits (it is
    recorded, and compared later)."""
    if not value or any(digit not in HEX_DIGITS for digit in value):
        raise InvalidRequest(name, f"not a hexadecimal S3 sequencer: {value!r}")
    if len(value) > SEQUENCER_KEY_WIDTH:
        raise InvalidRequest(name, f"longer than {SEQUENCER_KEY_WIDTH} hex digits: {value!r}")
    return value


def sequencer_key(sequencer: str) -> str:
    """The sequencer padded to a fixed width and upper-cased: two keys compare as plain strings
    (a DynamoDB condition, say) exactly as the sequencers do under AWS's rule."""
    return check_sequencer(sequencer).upper().rjust(SEQUENCER_KEY_WIDTH, "0")


def sequencer_is_later(sequencer: str, applied: str) -> bool:
    """True when an event with this sequencer comes after the one applied (same key)."""
    check_sequencer(applied, "applied sequencer")
    return sequencer_key(sequencer) > sequencer_key(applied)
