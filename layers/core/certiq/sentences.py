"""Rule-based sentence splitting that returns offsets, so every sentence maps back to its words.

A citation quotes one sentence and points at its boxes; a split in the wrong place cuts a fact in
two, so the rules lean towards not splitting: a period after an abbreviation, an initial, a list
number or inside a number never ends a sentence.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence

__all__ = ["sentence_spans", "split_sentences"]

_OPENERS = "\"'“‘«(["
_CLOSERS = "\"'”’»)]"
# End punctuation and any closing quotes or brackets, before whitespace or the end of the text.
_END = re.compile(r"[.!?…]+[\"'”’»)\]]*(?=\s|$)")  # what _end_punctuation finds
_END_MARKS = ".!?…"
_CLOSERS_SET = frozenset(_CLOSERS)
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
# A line that starts with a bullet starts a sentence even when the previous one has no period;
# the bullet itself is left out of the sentence, so a quote reads as the text does.
_BULLETS = "•◦▪▫‣∙●○■□►▶➢✓✔*"
_BULLET_LINE = re.compile(rf"\n(?=[ \t]*[{_BULLETS}][ \t])")
_LEADING_BULLET = re.compile(rf"\s*[{_BULLETS}]\s+")
_LAST_TOKEN = re.compile(r"(\S+)$")
_LAST_WORD = re.compile(r"(\S+)\s+$")
_SPACE = re.compile(r"\s")
_TRAILING_SPACE = re.compile(r"\s(?=\S*$)")  # the last whitespace character before the end
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
    cuts = [0]
    ends_sentence = _ends_sentence
    for start, end in _end_punctuation(text):
        # The usual end, decided inline: "... ordinary. Next" (a word of five letters or more,
        # no abbreviation, then one space and a capital).
        if end - start == 1 and text[start] == "." and text[end : end + 1] == " ":
            following = text[end + 1 : end + 2]
            if following.isupper():
                token = text[max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1 : start]
                if len(token) > 4 and token.isalpha() and token.lower() not in _ABBREVIATIONS:
                    cuts.append(end)
                    continue
        if ends_sentence(text, start, end):
            cuts.append(end)
    cuts.append(len(text))
    extra = [position for match in _BLANK_LINE.finditer(text) for position in match.span()]
    extra += [match.start() for match in _BULLET_LINE.finditer(text)]
    if extra:
        cuts = sorted({*cuts, *extra})
    spans = []
    for start, end in itertools.pairwise(cuts):
        # The usual span: one space after the previous sentence's end, then a word.
        first = start + 1 if text[start : start + 1] == " " else start
        head = text[first : first + 1]
        if head and not head.isspace() and head not in _BULLETS and not text[end - 1].isspace():
            spans.append((first, end))
            continue
        span = _trim(text, start, end)
        if span is not None:
            spans.append(span)
    return spans


def _end_punctuation(text: str) -> list[tuple[int, int]]:
    """The spans _END matches, found with str.find: a page has a few dozen end marks, and a
    regular expression scan costs more than the rest of the splitting together."""
    marks = sorted(position for mark in _END_MARKS for position in _positions(text, mark))
    spans: list[tuple[int, int]] = []
    length = len(text)
    taken = 0
    for start in marks:
        if start < taken:
            continue  # inside a run already looked at ("...", "?!")
        end = start + 1
        while end < length and text[end] in _END_MARKS:
            end += 1
        while end < length and text[end] in _CLOSERS_SET:
            end += 1
        taken = end
        if end == length or text[end].isspace():
            spans.append((start, end))
    return spans


def _positions(text: str, mark: str) -> Iterator[int]:
    position = text.find(mark)
    while position >= 0:
        yield position
        position = text.find(mark, position + 1)


def _ends_sentence(text: str, punct_start: int, punct_end: int) -> bool:
    """Does the end punctuation at text[punct_start:punct_end] close a sentence?"""
    next_char = text[punct_end + 1 : punct_end + 2]  # the usual case: one space, then a letter
    if text[punct_end : punct_end + 1] != " " or next_char.isspace() or next_char in _OPENERS:
        following = _NEXT.match(text, punct_end)
        next_char = following.group(1) if following else ""
    if next_char and not _can_start_sentence(next_char):
        return False
    if text[punct_start] != "." or text.startswith("..", punct_start):
        return True  # "!", "?", "…" and "..." end a sentence before a capital
    before = _token_start(text, punct_start)
    if before == punct_start:
        return True
    token = text[before:punct_start].lstrip(_OPENERS)
    word = token.lower()
    if len(token) > 4 and token.isalpha() and word not in _ABBREVIATIONS:
        return True  # the usual case: an ordinary word ends the sentence
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


def _token_start(text: str, position: int) -> int:
    """Where the run of non-space characters ending at `position` starts."""
    # Two searches in C for the usual separators, checked, rather than a regex search backwards.
    start = max(text.rfind(" ", 0, position), text.rfind("\n", 0, position)) + 1
    if text[start:position].isprintable():
        return start
    match = _LAST_TOKEN.search(text, start, position)  # another kind of space inside the run
    return match.start() if match else position


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
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    if stripped[0] in _BULLETS:
        bullet = _LEADING_BULLET.match(text, start, end)
        if bullet is not None:
            return _trim(text, bullet.end(), end) if bullet.end() < end else None
    start += len(piece) - len(piece.lstrip())
    return start, start + len(stripped)


def sentence_spans(
    text: str, line_starts: Sequence[int] = (), max_chars: int | None = None
) -> list[tuple[int, int]]:
    """split_sentences, with every span longer than max_chars cut into pieces of at most that.

    A "sentence" that long is a table or a list without punctuation: it is cut at the last line
    start (one of `line_starts` that follows whitespace, so never inside a word hyphenated
    across lines) that leaves the piece at least half full, else at the last space; a single
    word longer than max_chars stays whole.
    """
    spans = split_sentences(text)
    if max_chars is None or all(end - start <= max_chars for start, end in spans):
        return spans
    cuts = [start for start in line_starts if start > 0 and text[start - 1].isspace()]
    pieces: list[tuple[int, int]] = []
    for start, end in spans:
        pieces.extend(_pieces(text, start, end, max_chars, cuts))
    return pieces


def _pieces(
    text: str, start: int, end: int, max_chars: int, line_cuts: Sequence[int]
) -> Iterator[tuple[int, int]]:
    while end - start > max_chars:
        limit = start + max_chars
        cut = -1
        index = bisect.bisect_right(line_cuts, limit) - 1
        if index >= 0 and line_cuts[index] > start:
            line_cut = line_cuts[index]
            if len(text[start:line_cut].rstrip()) >= max_chars // 2:
                cut = line_cut
        if cut < 0:
            space = _last_space(text, start, limit)
            if space <= start:
                space = _next_space(text, limit, end)
            if space >= end:
                break  # one word to the end: it stays whole
            cut = space
        piece = _trim(text, start, cut)
        if piece is not None:
            yield piece
        start = cut
        while start < end and text[start].isspace():
            start += 1
    piece = _trim(text, start, end)
    if piece is not None:
        yield piece


def _last_space(text: str, start: int, limit: int) -> int:
    """The last whitespace position in text[start:limit + 1] (cutting there keeps limit chars)."""
    match = _TRAILING_SPACE.search(text, start, limit + 1)
    return match.start() if match else start


def _next_space(text: str, position: int, end: int) -> int:
    match = _SPACE.search(text, position, end)
    return match.start() if match else end
