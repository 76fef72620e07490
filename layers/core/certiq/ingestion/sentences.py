"""Rule-based sentence splitting that returns offsets, so every sentence maps back to its words.

A citation quotes one sentence and points at its boxes; a split in the wrong place cuts a fact in
two, so the rules lean towards not splitting: a period after an abbreviation, an initial, a list
number or inside a number never ends a sentence.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["split_sentences"]

_OPENERS = "\"'“‘«(["
_CLOSERS = "\"'”’»)]"
# End punctuation and any closing quotes or brackets, before whitespace or the end of the text.
_END = re.compile(r"[.!?…]+[\"'”’»)\]]*(?=\s|$)")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
# A line that starts with a bullet starts a sentence even when the previous one has no period;
# the bullet itself is left out of the sentence, so a quote reads as the text does.
_BULLETS = "•◦▪▫‣∙●○■□►▶➢✓✔*"
_BULLET_LINE = re.compile(rf"\n(?=[ \t]*[{_BULLETS}][ \t])")
_LEADING_BULLET = re.compile(rf"\s*[{_BULLETS}]\s+")
_LAST_TOKEN = re.compile(r"(\S+)$")
_LAST_WORD = re.compile(r"(\S+)\s+$")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")  # "U.S", "e.g", "a.m" before the last "."
_LIST_NUMBER = re.compile(r"\d{1,2}(?:\.\d{1,2})*|[ivx]{1,4}|[IVX]{1,4}")  # "1", "4.2", "iv", "II"
# The first character after the punctuation, past whitespace and opening quotes or brackets.
_NEXT = re.compile(r"\s*[\"'“‘«(\[]*(.?)", re.DOTALL)

# Abbreviations (lowercase, without the final period) after which a period does not end a
# sentence because a name, a number or more of the sentence follows.
_ABBREVIATIONS = frozenset(
    """
    e.g i.e cf vs viz approx ca resp incl excl esp
    mr mrs ms mx dr prof sr jr st rev hon gen col capt lt sgt
    fig figs eq eqs sec secs ch chap art arts para paras ref refs vol vols pp tab no nos
    jan feb mar apr jun jul aug sep sept oct nov dec
    dept univ corp ltd inc co bros
    """.split()
)
# Ambiguous ones are abbreviations only before a number ("No. 5", "Art. 17"): "The answer is
# no." and "Acme Inc." are ordinary sentence ends.
_BEFORE_NUMBER_ONLY = frozenset({"no", "nos", "art", "arts", "mar", "inc", "co", "sec", "ch"})
# Words after which a single capital letter is a label, not an initial ("see Appendix A.").
_LETTER_LABELS = frozenset(
    """
    appendix annex schedule exhibit section part chapter table figure class level tier grade
    type option plan step phase group zone category article item model version form vitamin
    """.split()
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Return (start, end) offsets of the sentences of `text`, trimmed of surrounding whitespace.

    Splits after . ! ? … (and closing quotes) followed by whitespace and a capital, a digit, an
    opening quote or a caseless letter; on blank lines; and before bulleted lines. Never returns
    an empty span.
    """
    cuts: set[int] = {0, len(text)}
    for match in _BLANK_LINE.finditer(text):
        cuts.update(match.span())
    for match in _BULLET_LINE.finditer(text):
        cuts.add(match.start())
    for match in _END.finditer(text):
        if _ends_sentence(text, match.start(), match.end()):
            cuts.add(match.end())
    ordered = sorted(cuts)
    spans = (_trim(text, start, end) for start, end in itertools.pairwise(ordered))
    return [span for span in spans if span is not None]


def _ends_sentence(text: str, punct_start: int, punct_end: int) -> bool:
    """Does the end punctuation at text[punct_start:punct_end] close a sentence?"""
    following = _NEXT.match(text, punct_end)
    next_char = following.group(1) if following else ""
    if next_char and not _can_start_sentence(next_char):
        return False
    if text[punct_start] != "." or text.startswith("..", punct_start):
        return True  # "!", "?", "…" and "..." end a sentence before a capital
    token_match = _LAST_TOKEN.search(text, 0, punct_start)
    if token_match is None:
        return True
    token = token_match.group(1).lstrip(_OPENERS)
    word = token.lower()
    before = token_match.start()
    if word in _ABBREVIATIONS:
        return word in _BEFORE_NUMBER_ONLY and not next_char.isdigit()
    if word == "al" and _previous_word(text, before) == "et":
        return False  # "et al."
    if _INITIALISM.fullmatch(token):
        return False  # "U.S.", "e.g.", "p.m."
    if len(token) == 1 and token.isupper():
        return _previous_word(text, before) in _LETTER_LABELS  # "J. Smith" vs "Appendix A."
    # A numbered heading or list item ("1. Purpose", "4.2. Scope", "II. Terms") goes on.
    return not (_LIST_NUMBER.fullmatch(token) and _starts_item(text, before))


def _can_start_sentence(first: str) -> bool:
    # Uppercase, a digit, or a letter of a script without case (Arabic, CJK): not lowercase.
    return first.isdigit() or first.isupper() or (first.isalpha() and not first.islower())


def _previous_word(text: str, position: int) -> str:
    match = _LAST_WORD.search(text, max(0, position - 40), position)
    return match.group(1).lower().strip(_OPENERS + _CLOSERS + ",;:") if match else ""


def _starts_item(text: str, position: int) -> bool:
    """Does a list marker at `position` open a line, or follow the end of a sentence?"""
    line_start = text.rfind("\n", 0, position) + 1
    before = text[line_start:position]
    stripped = before.rstrip()
    return not stripped or (stripped.endswith((".", "!", "?", ":")) and stripped != before)


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    bullet = _LEADING_BULLET.match(text, start, end)
    if bullet is not None:
        start = bullet.end()
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None
