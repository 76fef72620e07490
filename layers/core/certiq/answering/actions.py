"""What a "who" question asks the doer of, and whether a sentence names that doing.

"Who must approve access?" asks who approves; "Approval is given by the CISO." names the
approving, as do the words policies write for it ("authorised", "signed off"). A question may
open with its case ("I forgot a claim - who can approve it now?", "If the CEO is on leave, who
signs off ...?") and ask with "has to", "needs to" or "is allowed to".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from certiq.text import content_terms, stem, words

# "Who must approve ...", "Who audits ...", "Who is notified ...": the action a question opening
# with "who" asks the doer of ("... third parties, who gets my data?" asks for names), after
# modals and "do"; after "is" or "are" only a passive participle, as "who is responsible" and
# "who is the owner" ask for a role, not an action.
# An adverb before a verb ("Who must promptly report ...?"), not a verb in -ly: "apply",
# "comply", "reply", "rely", "supply" are what is done.
ADVERB: Final = r"(?:(?!(?:apply|comply|imply|multiply|reply|rely|supply)\b)\w+ly\s+)?"
# A question may open with its case, then ask who, after a dash or a comma: "I forgot a claim
# from four months ago - who can approve it now?", "If the CEO is on leave, who signs off the
# statement?", "I want to do 40 days of consultancy this year, who has to agree?".
_LEAD_IN: Final = (
    r"(?:[^?]*?\s[-\u2013\u2014]\s+"
    # a clause, not a question of its own: "Does the website name the third parties, who gets
    # my data?" asks who gets it of the website
    r"|(?!(?:does|do|did|is|are|was|were|can|could|will|would|should|may|must|has|have|what|"
    r"which|how|where|why)\b)[^?;]*?,\s*)?"
)
# What is done after a modal, or after "has to", "needs to", "is allowed to".
_MODAL: Final = (
    r"(?:must|should|can|could|may|might|will|would|shall|does|do|did|ought\s+to"
    r"|(?:has|have)\s+(?:got\s+)?to|needs?\s+to|gets?\s+to"
    r"|(?:is|are)\s+(?:allowed|permitted|able|authori[sz]ed)\s+to)"
)
WHO_ACTS: Final = re.compile(
    rf"^\W*{_LEAD_IN}who\s+(?:{_MODAL}\s+)?(?:(?:is|are|was|were|be)\s+)?{ADVERB}([a-z]+)\b",
    re.IGNORECASE,
)
_PASSIVE: Final = re.compile(r"(?:ed|en)$")
# An action's stem and its noun's share this many letters: approv-e / approv-al, notif-y /
# notif-ication, audit / audit-or.
_ACTION_PREFIX: Final = 5
# Actions policies state in other words, by the first letters of each: who may talk to
# journalists is answered by who may speak to the press.
_ALIKE_ACTIONS: Final = tuple(
    frozenset(group.split())
    for group in (
        "talk speak spoke comme commu",
        "appro autho sign okay",
        "see view acces read",
        "decid decis deter",
        "tell told infor notif repor",
        "recei get obtai shar disclo",
        "handl manag respo run lead head deal",
        # A stem shorter than the prefix is its own key: "writes" is "writ".
        "writ draft",
        # Setting an account up is opening or creating one.
        "set open creat",
        "log recor",
        # A register is kept by whoever holds or maintains it.
        "keep kept hold held maint",
        # Wiping footage after 31 days is deleting it, or overwriting it.
        "delet destr erase purge wip overw shred",
    )
)


def action_asked(question: str) -> str | None:
    """The stem of what a "who" question asks the doer of ("Who must approve ...?": approv; "Who
    is responsible for checking ...?": check), or None: not such a question, or asks a role."""
    found = WHO_ACTS.search(question)
    if found is None:
        return None
    verb = found.group(1)
    duty = _RESPONSIBLE_FOR.match(question[found.start(1) :])
    if duty is not None:  # "Who is responsible for checking the defibrillators?": checking
        verb = duty.group(1)
    passive = re.search(rf"\b(?:is|are|was|were|be)\s+{ADVERB}$", question[: found.start(1)])
    if passive and not _PASSIVE.search(verb.lower()) and duty is None:
        return None
    terms = content_terms(verb)
    return terms[0] if terms else None


_RESPONSIBLE_FOR: Final = re.compile(r"(?:responsible|accountable)\s+for\s+([a-z]+ing)\b", re.I)


def does_the_action(action: str, sentence: str) -> bool:
    """The sentence names the action, as a verb or its noun (approves, approval, approver), or
    one of the actions policies write for it (speak for talk, authorise for approve). Its words
    are read as written too: "agreement" is a contract among content terms, and agreeing here.
    """
    # A participle before its noun describes it: "an approved supplier" approves nothing.
    sentence = _ATTRIBUTIVE.sub(r"\1", sentence)
    return names_the_action(
        action,
        {
            *content_terms(sentence),
            *(word.lower() for word in words(sentence) if stem(word) not in _NOT_ACTIONS),
        },
    )


_ATTRIBUTIVE: Final = re.compile(r"\b(an?|the)\s+\w+ed(?=\s+[a-z])", re.IGNORECASE)


def names_the_action(action: str, terms: Iterable[str]) -> bool:
    """The terms name the action, as does_the_action reads a sentence."""
    prefix = action[:_ACTION_PREFIX]
    prefixes = tuple({prefix}.union(*(group for group in _ALIKE_ACTIONS if prefix in group)))
    return any(term.startswith(prefixes) and term not in _NOT_ACTIONS for term in terms)


# Words that begin as an action does but name no doing of it: an authority authorises
# nothing by being named ("... notify customers and regulators" is no sign-off), nor does
# information inform.
_NOT_ACTIONS: Final = frozenset(content_terms("authority information significant"))


def with_the_action(action: str | None, terms: set[str]) -> set[str]:
    """The terms, with the action asked of when they name it in other words: "approved" does
    what "Who signs off ...?" asks."""
    return terms | {action} if action is not None and names_the_action(action, terms) else terms
