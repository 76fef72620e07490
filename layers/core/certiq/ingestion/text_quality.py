"""Whether a page's text layer says anything a reader could read.

A PDF can carry a text layer that is not text: a font without a usable ToUnicode map gives
private-use code points or one glyph id after another, a broken map gives symbol soup or
letters that spell nothing. Indexed as it is, such a page answers nothing and quotes gibberish
as evidence. Such a page is read by OCR instead (certiq.ingestion.pdf), or left out with the
reason.

Two kinds of signal. garbage_reason looks at the characters alone, so it holds for every script:
private-use and replacement characters, and text that is mostly neither letters nor digits.
unlikely_reason looks at the words of Latin-script text: real prose in the languages written
with it uses their commonest words ("the", "de", "und") all the time; letters from a wrong map
spell none of them. A list of names does not either, so that signal is a suspicion, settled by
comparing the text layer with what OCR reads on the page (word_agreement).
"""

from __future__ import annotations

import difflib
import re
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


MIN_WORDS: Final = 60  # fewer Latin-script words are not judged
MIN_COMMON_SHARE: Final = 0.08  # prose runs at 20-50%, letters from a wrong map at 2-4%
AGREEING: Final = 0.5  # a text layer OCR reads half of as written is the page's real text

_ALPHABETIC = re.compile(r"[^\W\d_]+")

# The commonest short words of the languages written in Latin script that documents here are
# in (English, French, German, Spanish, Italian, Portuguese, Dutch, the Nordic languages).
COMMON_WORDS: Final = frozenset(
    """a an and are as at be by for from has have in is it its not of on or that the this to
    was were will with which who must may shall should can all any be been our your their
    le la les de des du un une et est en que qui pour dans par sur au aux ne pas ce cette il
    der die das und ist den dem des ein eine zu mit von im nicht sich auf für werden oder
    el los las del y es por con para una se lo al como más o
    il di che è per un una con non sono gli della delle nel alla
    o os as um uma com não por para do da dos das em
    het een en van is op te dat zijn voor met niet worden of
    och att det som är en ett av på för med till inte om og er til af den ikke""".split()
)


def unlikely_reason(text: str) -> str | None:
    """Why Latin-script text looks like no language at all, or None (also when too short)."""
    words = _ALPHABETIC.findall(text)
    latin = [word for word in words if all(ord(char) < 0x250 for char in word)]
    if len(latin) < MIN_WORDS or len(latin) < 0.8 * len(words):
        return None
    common = sum(1 for word in latin if word.casefold() in COMMON_WORDS)
    if common / len(latin) >= MIN_COMMON_SHARE:
        return None
    return (
        f"its text layer spells no words (only {common} of its {len(latin)} words are common"
        " words of a language written in Latin script: a font whose character map is wrong)"
    )


def word_agreement(reference: str, read: str) -> float:
    """The share of the reference's words found in `read`, in order (difflib's matching
    blocks): 1.0 when every word came back as written."""
    expected, found = reference.split(), read.split()
    if not expected:
        return 1.0 if not found else 0.0
    matcher = difflib.SequenceMatcher(a=expected, b=found, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(expected)


def _private_or_replacement(char: str) -> bool:
    return unicodedata.category(char) == "Co" or char == "\ufffd"
