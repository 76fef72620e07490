"""Folds the usual disguises out of a text before patterns are matched against it.

Pattern lists are written over the folded form: lower case ASCII words separated by single
spaces (apostrophes and punctuation become spaces: "d'être" is "d etre"). Folding removes
zero-width and other invisible characters, accents and compatibility forms (full-width letters,
ligatures), undoes "leetspeak-lite" digit and symbol swaps inside words, and joins letters
spelled out one by one ("i g n o r e", "i.g.n.o.r.e").
"""

from __future__ import annotations

import re
import unicodedata

# Format characters (Cf: zero-width spaces and joiners, bidi marks, soft hyphen, BOM) and the
# combining grapheme joiner, which render as nothing and are used to split trigger words.
_INVISIBLE = {0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0}

# Swaps used to dodge word lists. Applied only inside a word that has a letter, so plain
# numbers ("35 days", "2024") are left alone.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
# A trailing "!" is punctuation, not an "i".
_LEET_WORD = re.compile(r"[a-z0-9@$!]*[a-z][a-z0-9@$]*")
# Four or more single letters separated by one space or punctuation: a spelled-out word.
_SPELLED = re.compile(r"\b(?:[a-z][ .\-_*]){3,}[a-z]\b")
_NOT_WORD = re.compile(r"[^a-z0-9 ]+")
_SPACES = re.compile(r"\s+")


def strip_invisible(text: str) -> str:
    """Removes characters that render as nothing (zero-width, bidi marks, soft hyphens)."""
    if text.isascii():  # every such character is outside ASCII
        return text
    return "".join(
        char for char in text if unicodedata.category(char) != "Cf" and ord(char) not in _INVISIBLE
    )


def fold(text: str) -> str:
    """The form pattern lists are matched against: see the module docstring."""
    text = strip_invisible(text)
    if not text.isascii():  # ASCII has no accents or compatibility forms to undo
        text = unicodedata.normalize("NFKD", text)
        text = "".join(char for char in text if not unicodedata.combining(char))
    text = text.casefold()
    text = _LEET_WORD.sub(lambda match: match.group(0).translate(_LEET), text)
    text = _SPELLED.sub(lambda match: re.sub(r"[ .\-_*]", "", match.group(0)), text)
    text = _NOT_WORD.sub(" ", text)
    return _SPACES.sub(" ", text).strip()
