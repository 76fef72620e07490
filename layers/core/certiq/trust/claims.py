"""The claim compiler: each draft sentence becomes the atomic claims the verifier judges.

A sentence such as "Backups are encrypted and are kept for 35 days" states two things, and the
evidence may support one and not the other: judged whole, one unsupported half would make the
whole UNVERIFIED, or (worse, with a lenient verifier) ride on the supported half. So sentences are
split into clauses first, each keeping the sentence's citation ids.

Offline the splitter is rule-based (RuleSplitter). With an LLM configured, a ClaimSplitter adapter
decomposes instead, and any failure of the model falls back to the rules; the claim records which
compiler made it and why (``Claim.compiled_by``).

Then every claim is normalised: hedges ("may", "it seems that", "reportedly", ...) are stripped so
the verifier judges the plain assertion, and duplicates (same normalised words) are dropped. The
stripped claim is the stronger statement, so evidence that supports it also supports the hedged
sentence; what is shown keeps the hedge: the claim carries its source sentence as written and the
hedges it lost (see certiq.trust.policy.render).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from certiq.errors import CertiqError
from certiq.models import Claim
from certiq.ports import ClaimSplitter
from certiq.text import words

RULES = "rules"
QUOTED = "quoted"  # a sentence quoted word for word from its evidence: judged whole, as written

# Hedges, longest first so "it seems that" goes before "it seems". Stripped before judging.
HEDGES: tuple[str, ...] = tuple(
    sorted(
        (
            "it seems that",
            "it seems",
            "it appears that",
            "it appears",
            "it is possible that",
            "it is likely that",
            "it is thought that",
            "it is believed that",
            "it is reported that",
            "it has been suggested that",
            "may",
            "might",
            "could",
            "possibly",
            "perhaps",
            "probably",
            "presumably",
            "reportedly",
            "apparently",
            "allegedly",
            "seemingly",
            "arguably",
            "likely",
            "conceivably",
        ),
        key=len,
        reverse=True,
    )
)
_HEDGE = re.compile(
    r"(?i)(?<![\w'-])(" + "|".join(re.escape(h) for h in HEDGES) + r")(?![\w'-])[,]?\s*"
)

# Words that make a stretch of text a clause rather than a noun phrase: auxiliaries, copulas,
# modals and common verbs of policy and scientific prose. A clause needs one of these or a word
# ending in -ed; "salt and pepper" or "terms and conditions" have none and are never split.
AUXILIARIES = frozenset(
    """is are was were be been being am has have had do does did can cannot will would shall
    should must may might could""".split()
)
_VERB_STEMS = (
    "allow apply cause collect contain cover delete encrypt ensure get give hold include increase "
    "keep lead make mean need offer protect provide receive reduce remain require retain run "
    "send share show store support take use affect improve prevent suggest indicate"
)
# Irregular past forms: like -ed words, a clause may end on them ("backups are kept and ...").
_PAST_FORMS = frozenset(
    """kept held made ran took gave sent shown led meant got done found known seen said
    told left become became""".split()
)
VERBS = (
    frozenset(
        form
        for stem in _VERB_STEMS.split()
        for form in (
            stem,
            stem + "s",
            stem + "es",
            stem[:-1] + "ies" if stem.endswith("y") else stem,
        )
    )
    | _PAST_FORMS
)
# Words that open a subordinate clause: an "and" after one coordinates inside that clause
# ("explains how the company keeps and removes data"), so the rules leave the sentence whole.
_SUBORDINATORS = frozenset(
    """how that which whether what when where who whom whose why if because although while
    unless until""".split()
)
# Words that open a sentence with a subordinate clause ("Where A and B, C"): until its comma, an
# "and" coordinates inside it, and splitting there would cut the condition from what it governs.
_LEADING_SUBORDINATORS = frozenset(
    """if when where while although though because unless until whether once""".split()
)
# Split points between clauses; "and"/"but" split only when both sides are clauses.
_SEMICOLON = re.compile(r"\s*;\s*")
_CONJUNCTION = re.compile(r",?\s+(?:and|but|whereas)\s+", re.IGNORECASE)
# Pronouns and determiners that may start an independent clause ("and it is kept ...").
_CONNECTIVES = frozenset({"and", "but", "whereas", "that"})
_END = ".!?"


def _is_verb(word: str) -> bool:
    return word in AUXILIARIES or word in VERBS or (len(word) > 4 and word.endswith("ed"))


def _first_verb(tokens: Sequence[str]) -> int | None:
    return next((i for i, word in enumerate(tokens) if _is_verb(word)), None)


class RuleSplitter:
    """Implements ClaimSplitter without a model: semicolons, then "and"/"but" between clauses.

    A right-hand side that starts with a verb shares the left's subject ("Backups are encrypted
    and stored in Frankfurt" -> "Backups are encrypted" + "Backups are stored in Frankfurt");
    one with its own subject and verb stands alone. Anything else (noun phrases, lists, ranges
    such as "between 3 and 5 days") stays whole.
    """

    @property
    def name(self) -> str:
        return RULES

    def split(self, sentence: str) -> list[str]:
        text = sentence.strip()
        if not text:
            return []
        end = text[-1] if text[-1] in _END else ""
        body = text[:-1].rstrip() if end else text
        clauses: list[str] = []
        for part in _SEMICOLON.split(body):
            clauses.extend(self._split_conjunctions(part.strip()))
        return [_finish(clause, end or ".") for clause in clauses if clause.strip()]

    def _split_conjunctions(self, text: str) -> list[str]:
        for match in _CONJUNCTION.finditer(text):
            left, right = text[: match.start()].strip(), text[match.end() :].strip()
            left_words, right_words = left.split(), right.split()
            left_tokens = [_token(w) for w in left_words]
            right_tokens = [_token(w) for w in right_words]
            verb = _first_verb(left_tokens)
            if verb is None or verb == 0 or len(right_tokens) < 2:
                continue  # the left side is no clause with a subject: a noun phrase or a list
            if _SUBORDINATORS.intersection(left_tokens[1:]) or _awaits_object(left_tokens[-1]):
                continue  # inside a subordinate clause, or "keeps and removes the data"
            if left_tokens[0] in _LEADING_SUBORDINATORS and "," not in left:
                continue  # inside the opening "Where ... ," clause
            if _is_verb(right_tokens[0]):
                subject = left_words[:verb]
                if right_tokens[0] not in AUXILIARIES and left_tokens[verb] in AUXILIARIES:
                    # "are encrypted and stored": the auxiliary carries over with the subject.
                    subject = left_words[: verb + 1]
                right = " ".join([*subject, right])
            elif _first_verb(right_tokens) in (None, 0) or len(right_tokens) < 3:
                continue  # "salt and pepper", "names and addresses", "3 and 5 days"
            return [left, *self._split_conjunctions(right)]
        return [text]


def _awaits_object(word: str) -> bool:
    """An active verb form ("keeps", "stores") ending a conjunct shares the object after "and"."""
    return (
        word in VERBS
        and word not in AUXILIARIES
        and word not in _PAST_FORMS
        and not word.endswith("ed")
    )


def _token(word: str) -> str:
    found = words(word)
    return found[0] if found else ""


def _finish(clause: str, end: str) -> str:
    clause = clause.strip().rstrip(",;:")
    clause = clause[:1].upper() + clause[1:]
    return clause if clause[-1:] in _END else clause + end


CLOSING_MARKS = "\"')]\u201d\u2019"
# A field of a document's header, "Owner: Chief Information Security Officer.": a label of one
# to three words, a colon, its value and a full stop states the value, title case or not.
_FIELD = re.compile(r"(?P<label>[A-Z][\w-]*(?:\s[\w-]+){0,2}):\s+\S")
# So does a label followed by a number or a date without a colon: "Version 1.4.", "Effective
# 1 March 2024.", "Last reviewed January 2025.". Not a caption or a page label ("Figure 2.",
# "Page 3."), and not a numbered heading, which starts with its number.
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*"
_DATED_FIELD = re.compile(
    r"(?!(?:Page|Figure|Fig|Table|Section|Chapter|Appendix|Annex|Part|Step|Article|Clause)\b)"
    r"(?P<label>[A-Z][a-z-]+(?:\s[a-z-]+){0,2})\s+"
    rf"(?:\d[\w./-]*|(?:\d{{1,2}}\s+)?{_MONTH}\s+\d{{4}}|{_MONTH}\s+\d{{1,2}},?\s+\d{{4}})\.$"
)


def is_statement(text: str) -> bool:
    """Whether a sentence states something a claim can rest on.

    Titles, section headings, running headers, table rows and page numbers do not: they have no
    verb, or they are short, end without a full stop and capitalise every word. A sentence ends
    in . ! or ? and has three words or more, and a verb unless it reads like a title or is a
    header field ("Owner: Data Protection Officer.", "Version 1.4."); a line without that ending
    must be a long one with a verb (a bullet point written without its full stop).
    """
    tokens = text.split()
    if _DATED_FIELD.match(text.strip()) is not None:
        return True
    if len(tokens) < 3:
        return False
    letters = [token for token in tokens if token[:1].isalpha()]
    title_case = bool(letters) and all(token[:1].isupper() for token in letters)
    has_verb = any(_is_verb(word) for word in words(text))
    if text.rstrip().rstrip(CLOSING_MARKS).endswith(tuple(_END)):
        return has_verb or not title_case or _FIELD.match(text) is not None
    return has_verb and len(tokens) >= 8 and not title_case


_HEADING_WORDS = 12
# A page label ("Page 2 of 3", "Version 3.2 Page 2", "2 / 3") is no heading: a short document's
# running header or footer outlives furniture detection.
_BULLETS = "\u2022\u25e6\u25aa\u2023\u00b7*-\u2013"
_PAGE_LABEL = re.compile(r"\bpage\s+\d+|^\d+(?:\s*(?:of|/)\s*\d+)?$", re.IGNORECASE)


def is_heading(text: str) -> bool:
    """Whether a line reads as a section heading ("6. Legal hold", "Reporting a lost device",
    "DATA RETENTION POLICY"): no statement, a dozen words at most, one of them a word, not
    a list item (bulleted, or begun in lower case), not a lead-in to one (ending in ':'), nor
    a page label."""
    stripped = text.strip()
    if is_statement(stripped) or _PAGE_LABEL.search(stripped) or stripped[:1] in _BULLETS:
        return False
    tokens = stripped.split()
    if not tokens or len(tokens) > _HEADING_WORDS or stripped.endswith((":", ";", ",")):
        return False
    first_word = next((token for token in tokens if token[:1].isalpha()), "")
    return len(first_word) > 1 and not first_word[0].islower()


def field_labels(text: str) -> list[str]:
    """The labels of a line of header or form fields: ["Owner"] of "Owner: Data Protection
    Officer.", ["Version"] of "Version 1.4.", ["Employee name", "Start date"] of "Employee name:
    Jane Smith; Start date: 2026-01-05."; none for any other line, and none for a run-in heading
    before a sentence ("Mobile services: we collect ...": its value has a verb)."""
    if not is_statement(text):
        return []
    labels = []
    for part in text.strip().split("; "):
        match = _DATED_FIELD.match(part) or _FIELD.match(part)
        if match is None or any(_is_verb(word) for word in words(part[match.end("label") :])):
            return []
        labels.append(match.group("label"))
    return labels


def strip_hedges(text: str) -> tuple[str, list[str]]:
    """The text without its hedges, and the hedges found (lower-cased, in order)."""
    found = [m.group(1).lower() for m in _HEDGE.finditer(text) if not _is_month(m.group(1))]
    if not found:
        return text, []
    stripped = _HEDGE.sub(lambda m: m.group(0) if _is_month(m.group(1)) else "", text)
    stripped = re.sub(r"\s{2,}", " ", stripped).strip()
    stripped = re.sub(r"\s+([,.;:!?])", r"\1", stripped)
    return stripped[:1].upper() + stripped[1:], found


def _is_month(word: str) -> bool:
    # "in May 2024" is a date, not a hedge: dropping it would make the claim vaguer, and so
    # easier to verify than what the draft said.
    return word == "May"


def normalised(text: str) -> str:
    """The key duplicates share: lower-cased words, hedges and punctuation gone."""
    return " ".join(words(strip_hedges(text)[0]))


def compile_claims(
    sentences: Sequence[Claim], splitter: ClaimSplitter | None = None
) -> list[Claim]:
    """Atomic claims K1.. from sentence claims, each keeping its sentence's citation ids.

    Claims that already carry a source were compiled before and pass through unchanged (the
    Verify state may run twice); so does a sentence marked QUOTED (see ``quoted_whole``). A
    splitter that fails is replaced by the rules for that sentence, and the claims say why in
    ``compiled_by``.
    """
    rules = RuleSplitter()
    claims: list[Claim] = []
    seen: dict[str, int] = {}
    for sentence in sentences:
        if sentence.source is not None:
            source, compiled_by = sentence.source, sentence.compiled_by
            pieces = [(sentence.text, sentence.hedges)]
        else:
            source = sentence.text.strip()
            if not source:
                continue
            texts, compiled_by = _split(source, splitter or rules, rules)
            pieces = [strip_hedges(text) for text in texts]
        for text, hedges in pieces:
            key = normalised(text)
            if not key:
                continue
            if key in seen:
                # Said twice: judged once, on the citations of both sentences.
                kept = claims[seen[key]]
                merged = [*kept.citation_ids]
                merged += [cid for cid in sentence.citation_ids if cid not in merged]
                claims[seen[key]] = kept.model_copy(update={"citation_ids": merged})
                continue
            seen[key] = len(claims)
            claims.append(
                Claim(
                    id=f"K{len(claims) + 1}",
                    text=text,
                    citation_ids=list(sentence.citation_ids),
                    source=source,
                    hedges=list(hedges),
                    compiled_by=compiled_by,
                )
            )
    return claims


def quoted_whole(sentence: Claim, quotes: Sequence[str]) -> Claim:
    """The sentence marked to be judged whole, as written, when it is one of its quotes word for
    word: splitting and dehedging the document's own sentence would only judge, and show, words
    the document does not have ("the severity change as more is learned")."""
    if sentence.source is None and any(words(quote) == words(sentence.text) for quote in quotes):
        text = sentence.text.strip()
        return sentence.model_copy(update={"text": text, "source": text, "compiled_by": QUOTED})
    return sentence


def _split(sentence: str, splitter: ClaimSplitter, rules: RuleSplitter) -> tuple[list[str], str]:
    if splitter.name == RULES:
        return rules.split(sentence), RULES
    try:
        texts = [text.strip() for text in splitter.split(sentence) if text.strip()]
    except CertiqError as error:
        return rules.split(sentence), f"{RULES} ({splitter.name} failed: {error})"
    if not texts:
        return rules.split(sentence), f"{RULES} ({splitter.name} returned no claims)"
    return texts, splitter.name


def covers(source: str, claims: Sequence[Claim]) -> bool:
    """Whether the claims together use every word of their source sentence (hedges and
    connectives aside): only then may the sentence be shown in their place."""
    stripped, _ = strip_hedges(source)
    needed = set(words(stripped)) - _CONNECTIVES
    have = {word for claim in claims for word in words(claim.text)}
    return needed <= have
