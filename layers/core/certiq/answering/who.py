"""Who questions: who holds a role, and who does something; and whom a question asks is told.

"Who is the Data Protection Officer?" asks for someone other than the role: a sentence about
what the Data Protection Officer does ("The Data Protection Officer (DPO) owns this policy ...")
does not say who it is. The answer names the role as what someone is ("The on-call security
engineer is the Incident Commander ..."), labels it as a field ("Owner: Chief Information
Security Officer."), or puts a name beside it ("Jane Smith, our Data Protection Officer, ...";
"The DPO is Jane Smith.").

"Who reviews the incident response plan?" is answered by a sentence in which someone reviews it
("... reviewed by the CISO at least once a year"), before one in which the action is a thing
("The review records the root cause ...") or part of a title ("The Communications Lead drafts
..." for who leads the response).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Final

from certiq.answering.actions import (
    WHO_ACTS,
    action_asked,
    names_the_action,
)
from certiq.answering.answer_types import (
    AGENT_WORDS,
    asks_who,
    names_someone,
)
from certiq.text import content_terms, stem, written_words
from certiq.trust.claims import field_labels

# "Who is the X ...?": the role, up to a word that qualifies it ("before", "of", "for").
_WHO_IS_THE: Final = re.compile(
    r"^\W*who\s+(?:is|are|was|were)\s+(?:the|our|your|their|its)\s+(?:[\w-]+['\u2019]s\s+)?"
    r"(?P<role>[\w-]+(?:\s+(?!(?:of|for|at|in|on|before|after|during|when|while|until|who|"
    r"that|to|from|with|and|or)\b)[\w-]+){0,3})",
    re.IGNORECASE,
)


def role_asked(question: str) -> str | None:
    """The role a "who is the X" question asks the holder of ("Data Protection Officer"), or
    None: not such a question, or X names no role ("Who is the contact for privacy
    questions?" asks for a contact, which an address gives)."""
    found = _WHO_IS_THE.search(question)
    if found is None:
        return None
    role = found.group("role").strip()
    return role if names_someone(f"The {role}") else None


def identifies(role: str, sentence: str) -> bool:
    """The sentence says who holds the role: as what someone is or acts as, as a field's label,
    or with a name beside it."""
    named = re.escape(role).replace(r"\ ", r"\s+")
    short = r"(?:\s*\([^)]*\))?"  # "Data Protection Officer (DPO)"
    patterns = (
        rf"\b(?:is|are|was|were|becomes?|acts?\s+as|serves?\s+as|as)\s+"
        rf"(?:the\s+|our\s+|its\s+|their\s+|an?\s+)?{named}\b",
        rf"\b{named}{short}\s+(?:is|are|was)\s+(?:(?-i:[A-Z]\w+\s+[A-Z])|the\s+"
        r"(?:[\w-]+\s+){0,2}?(?:engineer|officer|manager|lead|head|director|counsel|team)\b)",
        rf"(?-i:\b[A-Z]\w+\s+[A-Z]\w+),\s+(?:the\s+|our\s+|its\s+)?{named}\b",
        # "... the Speaking Up Guardian, Priya Lennox, on 0161 ...": the name after the role
        rf"\b{named}{short},\s+(?-i:[A-Z]\w+\s+[A-Z]\w+)\b",
    )
    if any(re.search(pattern, sentence, re.IGNORECASE) for pattern in patterns):
        return True
    return any(re.fullmatch(named, label, re.IGNORECASE) for label in field_labels(sentence))


_DETERMINERS: Final = frozenset(
    "the a an this that these those each every any no its our their".split()
)


def does_it(action: str, sentence: str, *, done: bool = False) -> bool:
    """The sentence names the action as something done (a verb, or its noun after "by", in a
    passive or before "of" its doer), not as a thing after a determiner ("The review records
    ...") nor as a word of a title ("The Communications Lead ...", capitalised after the
    sentence's first word). ``done``: not only as what someone is for ("An Authorised Person is
    a supervisor appointed ... to issue permits" says what the role is, not who issues them)."""
    written = written_words(sentence)
    for index, word in enumerate(written):
        if not names_the_action(action, content_terms(word)):
            continue
        before = written[index - 1].lower() if index else ""
        if done and before == "to":
            continue
        after = written[index + 1].lower() if index + 1 < len(written) else ""
        titled = index > 0 and word[:1].isupper()
        # "... paid only with the approval of the Finance Director": the noun and its doer
        if (before not in _DETERMINERS or after == "of") and not titled:
            return True
    return False


# Words naming whose or what data in any words a policy may use ("the user's data" is
# "customer information" there), and the organisation whose document it is ("this website"):
# they do not tell one object of an action from another.
_ANY_DATA: Final = frozenset(
    content_terms(
        "data information info personal user customer person people individual website site "
        "company app service platform organisation organization"
    )
)
_POSSESSIVE: Final = re.compile(r"(?<=\w)['\u2019]s?\b")


def acted_on(question: str) -> frozenset[str]:
    """The terms of what a "who" question asks is acted on ("Who must approve access to
    production systems?": access, production, system), empty when it names nothing after the
    verb but someone's data ("Who can access the user's data?"), or is not such a question."""
    found = WHO_ACTS.search(question)
    if found is None or action_asked(question) is None:
        return frozenset()
    after = _POSSESSIVE.sub("", question[found.end(1) :])  # "the user's data": user, data
    if _IT_NOW.match(after):
        # "I forgot a mileage claim from four months ago - who can approve it now?": "it" is
        # what the question opened with.
        after = question[: found.start(1)]
    return frozenset(content_terms(after)) - _ANY_DATA


def asks_after_its_case(question: str) -> bool:
    """A "who" question opening with the case it asks of: "If the CEO is on leave, who signs
    off ...?"."""
    found = WHO_ACTS.search(question)
    return found is not None and not opens_with_who(question)


def opens_with_who(text: str) -> bool:
    """The text's first word is "who"."""
    return _WHO_FIRST.match(text) is not None


_WHO_FIRST: Final = re.compile(r"^\W*who\b", re.IGNORECASE)
# What is acted on, named by a pronoun standing for what came before, and a word of time.
_IT_NOW: Final = re.compile(
    r"^\s*(?:off\s+)?(?:it|them|this|that|these|those)?\s*(?:now|then|today)?\s*[?.!]*\s*$",
    re.IGNORECASE,
)


# What policies call a request to depart from them: "Who approves requests to keep data
# longer?" is answered by "The Data Protection Officer (DPO) ... approves exceptions ...".
_REQUESTS: Final = frozenset(content_terms("request requests"))
_EXCEPTIONS: Final = frozenset(content_terms("exception exceptions waiver waivers"))


def names_what_is_acted_on(done_to: frozenset[str], terms: AbstractSet[str]) -> bool:
    """A sentence of these terms names what the question says is acted on: one of its words
    beyond a request ("a request for a new card" is not one for more days of leave), or an
    exception where the question speaks of a request."""
    named = done_to - _REQUESTS or done_to
    return not named.isdisjoint(terms) or (
        not done_to.isdisjoint(_REQUESTS) and not _EXCEPTIONS.isdisjoint(terms)
    )


def parties_told(question: str) -> frozenset[str]:
    """The parties a question asks about telling ("How quickly must the regulator be told about
    a breach?": authority), empty for a "who" question, where they are context: a sentence
    telling another party ("The DPO must be informed ... within 24 hours") is not the answer
    when one tells them ("... the supervisory authority is notified within 72 hours")."""
    terms = frozenset(content_terms(question))
    if asks_who(question) or _NOTIFY not in terms:
        return frozenset()
    return terms & AGENT_WORDS


def tells_one_of(parties: frozenset[str], terms: AbstractSet[str]) -> bool:
    """A sentence of these terms tells one of the parties: names it and the telling ("Backups
    of customer data ..." tells customers nothing)."""
    return _NOTIFY in terms and not parties.isdisjoint(terms)


_NOTIFY: Final = stem("notify")
