"""A question's misspelt word, or acronym, read as the evidence's words it was meant to be.

People type questions quickly: "how long does a whistleblowing investigaton take", "How far in
advance do I book a visiter in?". The offline answerer matches words, so a misspelt word
matches nothing and a true answer is withheld. A word is read as misspelt when it is neither
in the evidence nor an English word (a whole word of the WordPiece vocabulary certiq's shipped
models read), and exactly one word of the evidence, by its stem, is one edit away (two for a
word of eight letters or more): "investigaton" is "investigations", "visiter" is "visitor".
"contact" stays "contact" beside "contract": it is an English word. The words questions ask
with ("number", "often", "minimum") are read so too, in the evidence or not.

A short form is read as the word it is short for ("mat pay" is maternity pay, "occ health"
occupational health, "hrs" hours), and a clipped word as the one evidence word it begins
("ortho models" are orthodontic models).
An acronym the evidence never writes is read as the one run of evidence words it stands for:
"DSE" is "display screen equipment", "BYOD" (or "byod") "bring your own device", "PO" is
"purchase order" ("What happens to an invoice without a PO number?" is answered by "Invoices
that arrive without a valid purchase order number ...").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Final

from certiq.text import STOPWORDS, stem, written_words

_SHORTEST: Final = 5  # shorter words are too close to too many others
# Words often written in capitals that stand for no run of the document's words: "Is it OK to
# ...?" is asking permission, whatever "office keys" a document holds.
_WORDS_IN_CAPITALS: Final = frozenset("ok okay us uk eu id go am pm tv pc".split())
_LONG: Final = 8  # from this length two edits are allowed
_SHORTEST_CLIPPED: Final = 4  # "uni" begins unit, union and uniform as well
# Words a question asks with, which the evidence need not write: "whats the out of hours numbr
# for the press office" asks for a number.
_ASKING_WORDS: Final = frozenset(
    "number address phone email website often long much many minimum maximum deadline".split()
)


def corrected(question: str, texts: Iterable[str]) -> str:
    """The question with each misspelt word or unwritten acronym replaced by the evidence's
    words (``texts``)."""
    question = written_out(question)
    sentences = [written_words(text) for text in texts]
    vocabulary = {word.lower() for words in sentences for word in words if word.isalpha()}
    vocabulary |= _ASKING_WORDS
    stems = {stem(word) for word in vocabulary}
    for word in set(written_words(question)):
        meant = (
            _spelt_out(word, sentences, vocabulary)
            or _meant(word.lower(), vocabulary, stems)
            or _clipped(word.lower(), vocabulary)
        )
        if meant is not None:
            question = re.sub(rf"\b{re.escape(word)}\b", meant, question)
    return question


def written_out(question: str) -> str:
    """The question with its short forms written out ("occ health": occupational health), as
    retrieval reads it too."""
    for short, meant in _SHORT_FORMS:
        question = short.sub(meant, question)
    return question


# Short forms (and everyday words) people type for words policies write out: "mat pay", "24
# hrs", "nicked". ("max" and "min" stay: questions ask with them as they are.)
_SHORT_FORMS: Final = tuple(
    (re.compile(short, re.IGNORECASE), meant)
    for short, meant in (
        (r"\bmat\b(?=\s+(?:leave|pay))", "maternity"),
        (r"\bocc\.?(?=\s+health\b)", "occupational"),
        (r"\bnicked\b", "stolen"),  # said, not written
        (r"\bhang(?:ing)?\s+on\s+to\b", "keep"),  # "how long do we hang on to a jumper"
        (r"\bin\s+one\s+go\b", "per transaction"),  # "the most I can spend in one go"
        (r"\bgood\s+for(?=\W*$)", "valid for"),  # "how many hrs is it good for"
        (r"\b(?:broken|broke|breaks?|breaking)\s+down\b", "breakdown"),  # "the car broke down"
        (r"\bturn(?:s|ed|ing)?\s+down\b", "refuse"),  # "can my boss turn down my leave"
        (r"\bexplain\s+why\b", "give a reason"),
        (r"\b(parking|speeding)\s+ticket(s?)\b", r"\1 fine\2"),  # a ticket a driver is given
        # "I give a colleague a lift": carrying a passenger
        (r"\bgiv(?:e|es|ing)\s+(?:\w+\s+){0,2}?a\s+lift\b", "carry a passenger"),
        (r"\bboss\b", "manager"),
        (r"\bbosses\b", "managers"),
        (r"\b(?:look|go)(?:ing)?\s+(?:back\s+)?through\b", "review"),  # "look back through"
        # ringing someone is calling them; "a ring" is jewellery
        (r"(?:(?<=\bi )|(?<=\bwe )|(?<=\byou )|(?<=\bto ))ring\b", "call"),
        (r"\bpat\b(?=\s+(?:leave|pay))", "paternity"),
        (r"\bsubbie\b", "subcontractor"),
        (r"\bsubbies\b", "subcontractors"),
        # "fridge temp"; not a temp worker ("a temp", "temp staff", "temps")
        (
            r"(?<!\ba )\btemp\b(?!\s+(?:staff|workers?|agency|jobs?|roles?|contract|cover)\b)",
            "temperature",
        ),
        (r"\bhrs\b", "hours"),
        (r"\bmins\b", "minutes"),
        (r"\byrs\b", "years"),
        (r"\bwks\b", "weeks"),
    )
)


def _spelt_out(word: str, sentences: list[list[str]], vocabulary: set[str]) -> str | None:
    """The one run of evidence words whose initials spell an acronym of 2 to 5 capitals that
    the evidence never writes."""
    # In capitals, or in lower case when it is no English word ("byod")
    typed = word.isupper() or (len(word) >= 3 and word.islower() and word not in _english())
    if not (2 <= len(word) <= 5 and word.isalpha() and typed):
        return None
    if word.lower() in vocabulary or word.lower() in STOPWORDS | _WORDS_IN_CAPITALS:
        return None
    letters = word.lower()
    runs = sorted(
        " ".join(words[start : start + len(letters)]).lower()
        for words in sentences
        for start in range(len(words) - len(letters) + 1)
        if all(
            part.isalpha()
            and part[0].lower() == letter
            # a small word only inside the run: "bring your own device", not "in the"
            and (part.lower() not in STOPWORDS or 0 < index < len(letters) - 1)
            for index, (part, letter) in enumerate(
                zip(words[start : start + len(letters)], letters, strict=True)
            )
        )
    )
    # "purchase order" and "Purchase Orders" are one run
    meanings = {tuple(stem(part) for part in run.split()) for run in runs}
    return runs[0] if len(meanings) == 1 else None


def _meant(word: str, vocabulary: set[str], stems: set[str]) -> str | None:
    """The evidence word a misspelt ``word`` stands for; ``stems`` are the vocabulary's."""
    if len(word) < _SHORTEST or not word.isalpha() or word in vocabulary or word in _english():
        return None
    if stem(word) in stems:
        return None
    edits = 2 if len(word) >= _LONG else 1
    near = sorted(
        known
        for known in vocabulary
        if known[0] == word[0]
        and (_within(word, known, edits) or _within(stem(word), stem(known), edits))
    )
    stems = {stem(known) for known in near}
    return near[0] if len(stems) == 1 else None


def _clipped(word: str, vocabulary: set[str]) -> str | None:
    """The one evidence word (by its stem) a clipped ``word`` begins: "ortho models" are
    orthodontic models, a "decontam assistant" a decontamination assistant."""
    if len(word) < _SHORTEST_CLIPPED or not word.isalpha() or word in vocabulary:
        return None
    if word in _english():
        return None
    whole = sorted(
        known for known in vocabulary if known.startswith(word) and len(known) >= len(word) + 3
    )
    return whole[0] if len({stem(known) for known in whole}) == 1 else None


def _within(word: str, other: str, edits: int) -> bool:
    """Optimal string alignment distance (a swap of two letters is one edit) at most ``edits``."""
    if abs(len(word) - len(other)) > edits:
        return False
    previous2: list[int] = []
    previous = list(range(len(other) + 1))
    for i, letter in enumerate(word, 1):
        current = [i] + [0] * len(other)
        for j, other_letter in enumerate(other, 1):
            cost = letter != other_letter
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and letter == other[j - 2] and word[i - 2] == other_letter:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
        if min(previous) > edits:
            return False
    return previous[-1] <= edits


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """The whole words of the WordPiece vocabulary shipped with certiq's verifier model."""
    tokenizer = resources.files("certiq.trust").joinpath("verifier_model/tokenizer.json")
    vocabulary = json.loads(tokenizer.read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(word for word in vocabulary if word.isalpha())
