"""Whether a sentence is about another thing of the kind a question names ("visitor logs", not
"application logs"), and the things a question asks about together ("invoices and backups"),
each of which answers for the others."""

from __future__ import annotations

import itertools
import re
from typing import Final

from certiq.answering.stated import NUMBER_WORDS
from certiq.text import STOPWORDS, content_terms, stem, words, written_words

# Words before a noun that name no kind of it ("the Manchester office": a name after them does).
DETERMINERS: Final = frozenset(
    "the a an my your our their his her its this that these those".split()
)
# Words no name of a thing holds: verbs, pronouns and small words.
NOT_IN_A_NAME: Final = frozenset(
    """
    is are was were be been do does did must can could may might should shall will would has
    have had the a an my your our their his her its this that these those i you we they it he
    she me us them of to for with in on at by from about as if or and not
    """.split()
)


def a_plural(word: str) -> bool:
    """The word is a plural noun ("records", not "is" or "process")."""
    return word not in NOT_IN_A_NAME and _PLURAL.search(word) is not None


_PLURAL: Final = re.compile(r"[^su]s$")
_STOPWORD_STEMS: Final = frozenset(stem(word) for word in STOPWORDS)


_SUBJECT_PRONOUNS: Final = frozenset("i we you they he she".split())
_GETS: Final = frozenset("get gets got getting".split())


_PHRASE_BREAK: Final = re.compile(r"[,;:()]")
_COUNT: Final = re.compile(rf"[\d.,]+|{NUMBER_WORDS}", re.IGNORECASE)
_STATE: Final = re.compile(r"(?!un|non|hundred)[a-z]{2,}[^\We\d_]ed", re.IGNORECASE)


def about_another(
    asked: str,
    sentence: str,
    *,
    names_only: bool = False,
    kind: str | None = None,
    alternatives: frozenset[str] = frozenset(),
) -> bool:
    """What is asked about names a thing by two words ("visitor logs", "the Manchester office")
    and the sentence names another of its kind ("Application and security logs", "the Leeds
    office"): the noun is there, the word before it in the question is not, and another word
    stands before it in the sentence. What the sentence says of security logs is no answer
    about visitor logs. A capitalised word is such a word only after a determiner ("the
    Manchester office", not "Does TED use cookies?"); ``names_only``: only such a word is read,
    as any question may name one; ``kind``: only the kind of thing asked for is read ("the
    encryption standard" is not "NIST 800-88 standard"); ``alternatives``: things asked about
    together, each of which names no other ("a SEV1 or a SEV2 page": a SEV1 page is one)."""
    tokens = written_words(asked)
    question_words = [stem(token.lower()) for token in tokens]
    sentence_words = [stem(word) for word in words(sentence)]
    present = {*sentence_words, *content_terms(sentence)}  # "full-disk": full, disk
    before: dict[str, set[str]] = {}
    # within a phrase: in "Dental nurses, hygienists and therapists" nurses are no kind of
    # hygienist
    for phrase in _PHRASE_BREAK.split(sentence):
        for previous, word in itertools.pairwise(words(phrase)):
            before.setdefault(stem(word), set()).add(previous)
    for index, (modifier, noun) in enumerate(itertools.pairwise(question_words)):
        if tokens[index][0].isupper():
            # A name modifies a noun after a determiner ("the Manchester office"), an acronym
            # one in the plural ("HR records", "IT systems"); otherwise a capitalised word is
            # the subject ("Does TED use cookies?").
            acronym = tokens[index].isupper() and a_plural(tokens[index + 1].lower())
            if not acronym and (index == 0 or tokens[index - 1].lower() not in DETERMINERS):
                continue
        elif names_only and kind is None:
            continue
        if kind is not None and noun != kind:
            continue
        if index and tokens[index - 1].lower() in _SUBJECT_PRONOUNS:
            continue  # "do we keep data about ...": a verb after its subject names no kind
        if tokens[index].lower() in _GETS:
            continue  # "get paid" is a passive: "Fair Payment" is no other kind of paying
        if modifier in _STOPWORD_STEMS or noun in _STOPWORD_STEMS or modifier in present:
            continue
        if len(modifier) < 2:  # a letter: "how long r logs kept" asks of logs, not "r logs"
            continue
        # A participle says what state a thing is in, not which kind it is: "Recorded
        # footage" is CCTV footage, unless the question names a state too ("archived emails");
        # a number says how many ("4 swaps" are shift swaps).
        stated = bool(_STATE.fullmatch(tokens[index]))
        kinds = {
            stem(w)
            for w in before.get(noun, ())
            if (stated or not _STATE.fullmatch(w)) and not _COUNT.fullmatch(w)
        }
        if any(w not in _STOPWORD_STEMS and w not in alternatives for w in kinds):
            return True
    return False


# Two things asked about together, a word each: "invoices and backups", "logs or backups".
# A word may hold digits ("the SEV1 or the SEV2 page"), after a determiner; two things compared
# are asked about together too ("Are backups kept longer than support tickets?").
_COORDINATED: Final = re.compile(
    r"\b([^\W_]*[^\W\d_][^\W_]*) (?:and|or) (?:the |an? )?([^\W_]*[^\W\d_][^\W_]*)\b"
    r"|^\W*(?:are|is|were|was)\s+(?:the\s+)?([^\W_]+)\s+\w+\s+(?:longer|shorter)\s+than\s+"
    r"(?:the\s+)?((?:[^\W_]+\s+)?[^\W_]+)\W*$",
    re.IGNORECASE,
)


def coordinated_terms(asked: str) -> set[str]:
    """The terms of things asked about together ("How long are invoices and backups kept?":
    invoice and backup), each of which another sentence may answer for."""
    together = ([word for word in match.groups() if word] for match in _COORDINATED.finditer(asked))
    return {
        term
        for things in together
        if all(content_terms(word) for word in things)
        for term in content_terms(" ".join(things))
    }
