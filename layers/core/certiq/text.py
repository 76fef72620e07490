"""Word-level text handling shared by span selection, the extractive answerer and the verifier."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache
from pathlib import PurePosixPath

_WORD = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_URL_IN_TEXT = re.compile(r"""https?://[^\s<>"'\]\[)(]+""", re.IGNORECASE)
# Scripts written without spaces between words (kana, CJK ideographs, Thai, Lao, Myanmar,
# Khmer): their words are one to three characters long, and the regex above reads a whole
# clause as one word.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
)

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves s t don shall may might must also per via
    what's whats who's where's when's how's it's that's there's i'm i've we're we've you're they're
    """.split()
)

NEGATIONS = frozenset({"no", "not", "never", "none", "nor", "cannot", "without", "neither"})


def words(text: str) -> list[str]:
    """Lower-cased words, keeping numbers like 3.5 and hyphenated words whole."""
    return [word.lower() for word in written_words(text)]


def written_words(text: str) -> list[str]:
    """The words of ``words``, as written (capitals kept)."""
    return [match.group(0) for match in _WORD.finditer(text)]


def word_count(text: str) -> int:
    """How many words a reader would count: in scripts without spaces every two characters
    count as one word, so "备份保留多久？" (how long are backups kept?) counts three, not one."""
    count = 0
    for word in words(text):
        unspaced = len(_UNSPACED.findall(word))
        count += (unspaced + 1) // 2 + (1 if unspaced < len(word) else 0) if unspaced else 1
    return count


# Irregular past forms of verbs policies use, to their base form: 'kept' meets 'keep', 'held'
# meets 'hold'. Forms that are also common nouns or adjectives ('left', 'found', 'bound', 'led',
# 'won') are left out. A few other words meet a verb too: synonyms of 'keep' that policies use
# for it, and derived words (at the end).
_IRREGULAR = {
    form: base
    for base, forms in {
        "become": "became",
        "begin": "began begun",
        "break": "broke broken",
        "bring": "brought",
        "build": "built",
        "buy": "bought",
        "catch": "caught",
        "choose": "chose chosen",
        "come": "came",
        "deal": "dealt",
        "draw": "drew drawn",
        "drive": "drove driven",
        "fight": "fought",
        "forget": "forgot forgotten",
        "freeze": "froze frozen",
        "get": "got gotten",
        "give": "gave given",
        "grow": "grew grown",
        "hide": "hid hidden",
        "hold": "held",
        # "How long do we keep logs?" is answered by "logs are retained for 13 months", "How
        # long are backups stored?" by "Backups ... are kept for 35 days".
        "keep": "kept retain retains retained retaining store stores stored storing",
        "know": "knew known",
        "lend": "lent",
        "lose": "lost loss losses",  # a loss is what is lost
        "make": "made",
        "mean": "meant",
        "pay": "paid",
        "seek": "sought",
        "sell": "sold",
        "send": "sent",
        "show": "shown",
        "speak": "spoke spoken",
        "spend": "spent",
        "stand": "stood",
        "steal": "stole stolen theft thefts",  # a theft is what is stolen
        "take": "took taken",
        "teach": "taught",
        "think": "thought",
        "throw": "threw thrown",
        "understand": "understood",
        "withhold": "withheld",
        "write": "wrote written",
        # A document's control fields name roles by their agent nouns ("Owner: ...",
        # "Approver: ..."), which readers ask about with the verb ("Who owns the plan?"), and
        # its date by the adjective ("Effective 1 March 2024." / "When did it take effect?").
        "own": "owner owners",
        "approve": "approver approvers",
        "review": "reviewer reviewers",
        "effect": "effective",
        # A contract ends by termination: "What must the supplier do at the end of the
        # contract?" is answered by "On termination the supplier deletes all Northwind data".
        "end": "terminate terminates terminated terminating termination terminations",
        "contract": "agreement agreements",
        # A regulator is a supervisory authority: "When must the regulator be told of a breach?"
        # is answered by "... the supervisory authority is notified within 72 hours".
        "authority": "regulator regulators",
        # A leaked or compromised password is an exposed one: "What should I do if my password
        # was leaked?" is answered by "A password that may have been exposed must be changed".
        "expose": "leak leaks leaked leaking compromise compromises compromised",
        # Unsubscribing is opting out: "How can I opt out of marketing emails?" is answered by
        # "To unsubscribe from our newsletters, click on the link ...".
        "opt": "unsubscribe unsubscribes unsubscribed unsubscribing",
        # Personal data is personal information: "How long will you keep my data?" is answered
        # by "We keep personal information as long as it is necessary ...".
        "data": "information info",
        # CCTV footage is its recordings: "How long are CCTV recordings kept?" is answered by
        # "CCTV footage from the Leeds office is overwritten after 30 days".
        "recording": "footage",
        # An e-mail is an email: "Can I use my personal email ...?" meets "... required for
        # e-mail" (a hyphen after one letter joins no two words: the compound stays whole).
        "email": "e-mail e-mails e-mailed e-mailing",
        # Nor do Wi-Fi's two letters on each side: "Can I use the wifi ...?" meets "Public Wi-Fi".
        "wifi": "wi-fi",
        # A fake claim is a false one: "What is the penalty for a fake expenses claim?" is
        # answered by "Deliberately false claims are treated as gross misconduct ...".
        "false": "fake fakes faked",
        # A quote is a quotation: "How many quotes do I need ...?" is answered by "... at least
        # three written quotations".
        "quote": "quotation quotations",
        "motorcycle": "motorbike motorbikes",
        # A crash or a collision is an accident: "What number do I ring after a crash?" is
        # answered by "Every accident ... must be reported to the 24-hour accident line ...".
        "accident": "crash crashes crashed collision collisions",
        "additional": "extra",  # "How many extra days can I buy?": "... ten additional days"
        # A Saturday is a weekend: "I need to come in on a Saturday, who approves that?" is
        # answered by "Access ... at weekends must be approved ...".
        "weekend": "weekends saturday saturdays sunday sundays",
        # Wine and beer are alcohol: "Can I claim for a glass of wine?" is answered by
        # "Alcohol cannot be claimed in any circumstances."
        "alcohol": "wine wines beer beers alcoholic",
        # "How many chars does a password need?" asks for characters.
        "character": "char chars",
        # Telling or informing someone is notifying them: "How quickly must the regulator be
        # told about a breach?" is answered by "... the supervisory authority is notified".
        "notify": "tell tells telling told inform informs informed informing",
        # One's family are one's relatives: "Can I complain for my elderly mum?" is answered
        # by "A relative or friend may complain on a patient's behalf ...", and a daughter is a
        # child ("... decides whether the child is mature enough ...").
        "relative": "relatives mum mums mother mothers dad dads father fathers parent parents "
        "husband husbands wife wives spouse spouses brother brothers sister sisters family "
        "families grandparent grandparents",
        "child": "daughter daughters son sons kid kids",
    }.items()
    for form in forms.split()
}
# A noun in -tion or -sion meets its verb: "violations" and "violated", "encryption" and
# "encrypted", "deletion" and "deleted". Short words keep theirs ("action", "version").
_NOUN_OF_VERB = re.compile(r"([a-z]{4,}[ts])ions?")
# One in -ification meets its verb in -ify: "notification" and "notified", "classification" and
# "classify".
_NOUN_OF_IFY = re.compile(r"([a-z]{2,})ifications?")
# So does one in -ment: "acknowledgement" and "acknowledge", "payment" and "paid". Not the words
# whose -ment is no suffix, or a verb's own ending ("implement", "document").
_NOUN_IN_MENT = re.compile(r"([a-z]{3,})ments?")
# And one in -ability its adjective: "liability" and "liable", "availability" and "available".
# (A responsibility stays a duty, not what someone is responsible for doing.)
_NOUN_OF_ABLE = re.compile(r"([a-z]{2,}a)bilit(?:y|ies)")
_MENT_WORDS = frozenset(
    """
    implement supplement complement document comment element moment segment cement garment
    lament ferment torment augment fragment sediment compartment apartment pigment figment
    """.split()
)
_DOUBLING = frozenset({"ings", "ing", "ed", "edly"})
_UNDOUBLED = frozenset("bcfgkmnprtv")  # not d: "added" is "add"


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English suffix stripper: enough to match 'backups' with 'backup', 'kept' stays.

    A word with none of those endings loses a final e (as in Porter's step 5), so that it meets
    its forms stripped of -ed, -es or -ing: 'acknowledge' and 'acknowledged', 'minute' and
    'minutes', 'agree' and 'agreed'. A few irregular past forms become their verb's stem: 'kept'
    is 'keep', 'made' is 'mak' like 'make' and 'making'.
    """
    if word.endswith(("'s", "\u2019s")) and len(word) > 3:
        return stem(word[:-2])  # a possessive is its noun: "the Guardian's number"
    base = _IRREGULAR.get(word)
    if base is not None:
        return stem(base)
    noun = _NOUN_OF_IFY.fullmatch(word)
    if noun is not None:
        return stem(noun.group(1) + "ify")
    noun = _NOUN_OF_VERB.fullmatch(word)
    if noun is not None:
        return stem(noun.group(1) + "e")
    noun = _NOUN_OF_ABLE.fullmatch(word)
    if noun is not None:
        return stem(noun.group(1) + "ble")
    noun = _NOUN_IN_MENT.fullmatch(word)
    if noun is not None and noun.group(1) + "ment" not in _MENT_WORDS:
        return stem(noun.group(1))
    stripped = _strip_suffix(word)
    if stripped == word and len(word) >= 4 and word.endswith("e") and not word[0].isdigit():
        return word[:-1]
    return stripped


def _strip_suffix(word: str) -> str:
    if len(word) <= 3 or word[0].isdigit():
        return word
    for suffix, replacement in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ings", ""),  # "recordings" meets "recording" and "recorded"
        ("ing", ""),
        ("edly", ""),
        ("ied", "y"),  # "notified" meets "notify" and "notifies"
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word  # "anonymous" meets "anonymously", "status" and "basis" stay
            if suffix == "ly" and word.endswith("ply"):
                return word  # "apply", "supply", "comply" are verbs, not adverbs
            base = word[: len(word) - len(suffix)] + replacement
            # "capped", "shipped", "transferring": the consonant doubled before the ending is
            # one letter of the word (as in Porter's step 1b; d, l, s and z stay double).
            if suffix in _DOUBLING and base[-1] == base[-2] and base[-1] in _UNDOUBLED:
                base = base[:-1]
            return base
    return word


# A compound of words joined by hyphens ("third-party", "opt-out"), each part two letters or
# more: its parts are its terms, so that "Do you share my data with third parties?" meets
# "third-party vendors" and "Do I have an opt-out choice?" meets "to opt out of ...". Not "e-mail",
# "COVID-19" or "800-88", whose parts are no words of their own.
_COMPOUND = re.compile(r"[^\W\d_]{2,}(?:-[^\W\d_]{2,})+")


def _term_words(word: str) -> list[str]:
    """The words a written word stands for as terms: itself, or the parts of a hyphenated
    compound."""
    return word.split("-") if _COMPOUND.fullmatch(word) and word not in _IRREGULAR else [word]


def content_terms(text: str) -> list[str]:
    """Stemmed words that carry meaning: stopwords dropped, order and repeats kept."""
    return [
        stem(part)
        for word in words(text)
        if word not in STOPWORDS
        for part in _term_words(word)
        if part not in STOPWORDS
    ]


@lru_cache(maxsize=1024)
def file_name_terms(file_name: str) -> frozenset[str]:
    """The content terms of a document's file name: data-retention-policy.pdf gives data,
    retention and policy."""
    return frozenset(content_terms(re.sub(r"[-_.]+", " ", PurePosixPath(file_name).stem)))


def section_terms(section: str | None, query: AbstractSet[str]) -> frozenset[str]:
    """The content terms of a section's heading, its number aside, when the question asks of
    every one: "6. Legal hold" gives legal and hold to the question how long there is to confirm
    a legal hold. A heading names what its sentences are about only as a whole: "3. Term and
    termination" does not make "This agreement runs for 3 years." about ending the contract."""
    terms = heading_terms(section) if section else frozenset()
    return terms if terms <= query else frozenset()


@lru_cache(maxsize=1024)
def heading_terms(section: str) -> frozenset[str]:
    """A heading's content terms, its number aside: severity and level of "2. Severity levels"."""
    return frozenset(term for term in content_terms(section) if not term.isdigit())


def numbers(text: str) -> set[str]:
    """Numbers as written, with thousands separators removed ("1,000" -> "1000")."""
    return {match.group(0).replace(",", "") for match in _NUMBER.finditer(text)}


def has_negation(text: str) -> bool:
    return any(word in NEGATIONS or word.endswith("n't") for word in words(text))


def urls_in(text: str) -> list[str]:
    """http(s) URLs written in a text, trailing punctuation left out, in order, once each."""
    found: list[str] = []
    for match in _URL_IN_TEXT.finditer(text):
        url = match.group(0).rstrip(".,;:!?")
        if url not in found:
            found.append(url)
    return found


# Citation markers as answers carry them: [C1], [S2, S3] (answering.parsing reads them).
CITATION_LABEL = re.compile(r"[SC]([1-9][0-9]*)", re.IGNORECASE)
CITATION_MARKER = re.compile(r"\[([^\[\]\n]{1,200})\]")
MARKER_TOKENS = re.compile(r"[\s,;]+")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,;:!?])")
_SPACES = re.compile(r"\s+")


def strip_markers(text: str) -> str:
    """Text without citation markers like [C1] or [S2, S3] (earlier answers shown as history)."""
    kept = CITATION_MARKER.sub(
        lambda match: (
            ""
            if all(
                CITATION_LABEL.fullmatch(token)
                for token in MARKER_TOKENS.split(match.group(1))
                if token
            )
            else match.group(0)
        ),
        text,
    )
    return tidy_spacing(kept)


def tidy_spacing(text: str) -> str:
    """One space between words, none before punctuation."""
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", _SPACES.sub(" ", text)).strip()
