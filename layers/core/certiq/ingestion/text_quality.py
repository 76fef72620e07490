"""Whether a page's text layer says anything a reader could read.

A PDF can carry a text layer that is not text: a font without a usable ToUnicode map gives
private-use code points or one glyph id after another, a broken map gives symbol soup. Indexed
as it is, such a page answers nothing and quotes gibberish as evidence. A page whose text is
garbage is therefore left out with a reason, as an unreadable page is (the OCR that could read
it is not part of this version).

The signals are about the characters alone, so they hold for every script: private-use and
replacement characters, and text that is mostly neither letters nor digits.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MIN_CHARS: Final = 40  # shorter texts (a page number, a caption) are not judged
MAX_PRIVATE_USE: Final = 0.10  # of the visible characters
MIN_LETTERS_AND_DIGITS: Final = 0.50  # of the visible characters


def garbage_reason(text: str) -> str | None:
    """Why the text is not readable text, or None when it is (or is too short to tell)."""
    visible = [char for char in text if not char.isspace()]
    if len(visible) < MIN_CHARS:
        return None
    private = sum(1 for char in visible if _private_or_replacement(char))
    if private / len(visible) > MAX_PRIVATE_USE:
        return (
            f"its text layer is unreadable ({private} of {len(visible)} characters are"
            " private-use or replacement characters: a font without a usable character map)"
        )
    readable = sum(1 for char in visible if char.isalnum())
    if readable / len(visible) < MIN_LETTERS_AND_DIGITS:
        return (
            f"its text layer is unreadable (only {readable} of {len(visible)} characters are"
            " letters or digits: symbols where words should be)"
        )
    return None


def _private_or_replacement(char: str) -> bool:
    return unicodedata.category(char) == "Co" or char == "\ufffd"
