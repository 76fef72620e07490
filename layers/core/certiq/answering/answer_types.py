"""What kind of answer a question asks for, and whether a sentence can be one.

A question asking for a quantity ("How many days ...", "What is the maximum fine ...") is not
answered by a sentence that states no quantity: "Sharing passwords is not allowed." shares the
question's words but says nothing of a fine. Nor is "Which cloud provider hosts ...?" answered
by a sentence that names no provider, however many of the question's words it shares. The
offline answerer passes over such sentences, so that it says the documents do not state the
answer instead of showing a related rule as one. A question asking who does something prefers
the sentences that name someone (a role, a party, a capitalised name) to those that do not.

English question forms only; a question in another language asks for no particular kind. The
rules were written from the demo's questions, not fitted on PolicyQA.
"""

from __future__ import annotations

import re
from typing import Final

from certiq.answering.actions import action_asked, does_the_action
from certiq.answering.amounts import (
    bands_stated,
    holds_an_amount_asked,
    names_what_is_paid_for,
)
from certiq.answering.another import (
    DETERMINERS,
    NOT_IN_A_NAME,
    a_plural,
    about_another,
    coordinated_terms,
)
from certiq.answering.kinds import names_kind
from certiq.answering.stated import (
    AMOUNT_WORDS,
    AN_AMOUNT_OF_TIME,
    CLOCK,
    DATE_WORDS,
    DURATION_WORDS,
    FREQUENCY_WORDS,
    MONEY,
    NUMBER_WORDS,
    contact_asked,
    names_another_place,
)
from certiq.text import content_terms, numbers, stem, words

# Asking for an amount: only a sentence with a number (or a number word) can answer.
AMOUNT_ASKED: Final = re.compile(
    r"\bhow (?:many|much)\b"
    r"|\bwhat(?:'s|’s|s| is| are| was| were) the (?:maximum|minimum|max|min|total|number|amount|"
    r"percentage|proportion|share|rate|limit|cap|fine|fines|fee|fees|price|cost)\b"
    # "whats the most i can spend on the fuel card": an amount, as "the maximum" asks
    r"|\bwhat(?:'s|’s|s| is) the (?:most|least)(?=\s+(?:i|we|you|they)\s+(?:can|could|may)\b)"
    r"|\bwhat (?:percentage|proportion|number|amount)\b"
    # "What fine applies?" asks for an amount as "what is the fine" does.
    r"|\bwhat (?:(?:maximum|minimum|max|min)\s+)?(?:fines?|fees?|prices?|costs?|charges?)\b",
    re.IGNORECASE,
)
# Asking for a duration or a frequency: a number, or the words that state one without digits.
# "What is the notice period ...?" asks for one too; what it is about starts after "the".
DURATION_ASKED: Final = re.compile(
    r"\bhow (?:long|often|frequently|soon|quickly|fast|far (?:ahead|in advance))\b"
    r"|\bwhat(?:'s|’s|s| is| are| was| were) the (?=(?:[\w'-]+\s+){0,3}?"
    r"(?:period|periods|duration|timeframe|time limit|deadlines?)\b)"
    # "For what time period will you store my information?" asks how long.
    r"|\b(?:for|in|within) (?:what|which) (?:(?:time|length of time)\s+)?"
    r"(?:period|duration|time\s?frame|length of time)\b"
    # "Which is longer, invoices or backups?", "Are backups kept longer than support tickets?":
    # each one's duration is the answer.
    r"|\bwhich\s+(?:is|are|one is|lasts?)\s+(?:longer|shorter|faster|slower|quicker|sooner)\b"
    r"|^\W*(?:are|is|were|was|do|does)\b(?=[^?]*\b(?:longer|shorter)\s+than\b)"
    # "When does the supplier agreement expire?" asks how long it runs.
    r"|\bwhen\b(?=\s+(?:does|will)\s+(?:the|this|our)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:agreement|contract|policy|plan)\s+(?:expire|end|lapse|run out)\b)",
    re.IGNORECASE,
)
# Asked for a fine, a fee, a price or a cost, the answer names it or states money.
_MONEY_ASKED: Final = re.compile(r"\b(fines?|fees?|prices?|costs?|charges?)\b", re.IGNORECASE)

# "What is the effective date ...?" asks for a date: a sentence stating none ("Periods run from
# the date the record was created") is about dates, not one. So does "when" asked in the past
# ("When did the plan take effect?"); "When must customers be told?" may be answered by a
# condition or a deadline.
_DATE: Final = re.compile(
    r"\b(?:what|which) (?:is|was|are|were) the (?:[\w'-]+\s+){0,3}?dates?\b"
    r"|\bwhen (?:did|was|were)\b"
    # "When is the procedure next due for review?": the date of the next one
    r"|\bwhen\s+(?:is|are|will)\b[^?]*\b(?:next\s+(?:be\s+)?(?:due|review|reviewed|updated|renewed)"
    r"|due\s+(?:for|to\s+be)\s+(?:review|renewal|update|reviewed|renewed|updated))\b"
    r"|\b(?:on|by) (?:what|which) (?:date|day)\b",
    re.IGNORECASE,
)

# "What time ...?" asks for a time of day: "every night" is how often, not when.
# Not "what time period", "what time frame": a duration.
_TIME_OF_DAY: Final = re.compile(r"\bwhat time\b(?!\s*(?:period|frame|limit|span))", re.I)
# "What are their opening hours?" asks when a place is open: "checks in with them every 24
# hours" says nothing of it, "9am to 5pm, Monday to Friday" does.
_OPENING_HOURS: Final = re.compile(
    r"\bopening\s+(?:hours|times)\b|\bwhat hours\b"
    # not "Is travel outside working hours paid?"
    r"|\bwhat\s+(?:are|is)\s+(?:the\s+|their\s+|its\s+|your\s+)?"
    r"(?:office|business|working)\s+hours\b",
    re.IGNORECASE,
)
_WHEN_OPEN: Final = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bweek(?:day|end)s?\b"
    r"|\b24\s+hours\s+a\s+day\b|\b24/7\b|\bround the clock\b",
    re.IGNORECASE,
)

# "How often ...?" asks for a frequency: "within 30 days" states a duration, not how often.
_FREQUENCY: Final = re.compile(r"\bhow (?:often|frequently)\b", re.IGNORECASE)


# "Which X ...": X is the one or two words after "which" (after "type of" and the like), up to
# a word that cannot be part of it; its last word names the kind of thing asked for.
_WHICH: Final = re.compile(r"\bwhich\s+(?:(?:type|types|kind|kinds|sort|sorts)\s+of\s+)?", re.I)
# "What X does ...": one or two words between "what" and a verb name the kind asked for, as do
# the words after "what is the"; "what does X ..." names none.
_WHAT_KIND: Final = re.compile(
    r"\bwhat\s+(?:(?:type|types|kind|kinds|sort|sorts)\s+of\s+)?"
    r"(?=(?:[a-z-]+\s+)?[a-z-]+\s+(?:does|do|did|is|are|was|were|must|can|could|will|would|"
    r"should|shall|may|might|has|have)\b)"
    r"|\bwhat(?:\s+(?:is|are|was|were)|['\u2019]s)\s+(?:the|a|an)\s+"
    # "Who is the CEO of ...?" asks for the CEO: a sentence naming someone else is no answer.
    r"|\bwho\s+(?:is|are|was|were)\s+(?:the|a|an|our|your|their)\s+",
    re.I,
)
# "What purpose", "what information", "what steps": an answer lists purposes, items or steps
# without repeating the word ("What service does the supplier provide?" is answered by
# "... provides encrypted off-site backup storage"), and "what is the retention period (the
# severity, the standard)" is answered by a value ("kept for 7 years"), so these name no kind a
# sentence must hold.
# Written from the "what X" questions of PolicyQA (nearly all of them are of these words) and
# the demo's.
# Words naming a quantity: "what is the retention period" is answered by "kept for 7 years",
# and in a quantity question they are not what the answer must be about.
QUANTITY_NOUNS: Final = (
    "length period duration number amount size frequency rate limit count level percentage deadline"
).split()
_GENERIC_KINDS: Final = frozenset(
    stem(word)
    for word in [
        *QUANTITY_NOUNS,
        *"""
        purpose reason scope extent way manner means method step measure action practice choice
        option control change use detail part thing kind type sort information info data policy
        maximum minimum main total current average time date deadline threshold value sla severity
        status name address role requirement rule service product person people
        individual contact consequence outcome difference
        """.split(),
    ]
)
_PREPOSITIONS: Final = frozenset(
    "behind towards toward regarding under between within after before during per via against"
    " into over across around upon".split()
)
# Who: a sentence names someone when it holds a role or party word, or a capitalised name
# after its first word.
AGENT_WORDS: Final = frozenset(
    stem(word)
    for word in """
    we us our i you he she they someone anyone everyone nobody person people individual
    officer counsel manager team department staff employee personnel supplier vendor provider
    processor controller contractor subcontractor partner affiliate advertiser customer client
    user owner administrator admin lead head director board committee authority authorities
    regulator court government agency police enforcement company companies organisation
    organization subsidiary party parties member members representative agent auditor
    engineer analyst commander deputy lawyer solicitor ciso cto ceo cfo dpo desk helpdesk
    """.split()
)
_ASKS_WHO: Final = re.compile(r"\b(?:who|whom|whose)\b", re.IGNORECASE)
_NAME: Final = re.compile(r"(?<=\s)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
# An address to write to is someone to contact: "Questions about this policy can be sent to
# privacy@northwind.example." answers "Who do I contact with privacy questions?".
_EMAIL: Final = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


# Asking what something is: "What is SEV1?", "What is a SEV2 incident?", "What counts as a SEV1
# incident?", "What does SEV3 mean?".
_WHAT_IS: Final = re.compile(
    r"^\W*(?:what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?=\S+\s*(?:\w+\s*)?\W*$)"
    r"|what\s+counts\s+as|what\s+does\s+\S+\s+mean|define)\b",
    re.IGNORECASE,
)
# "What is a X?" asks for a definition, which need not repeat X's kind; "What is the liability
# cap?" asks for a cap.
_WHAT_IS_A: Final = re.compile(r"^\W*what\s+(?:is|are)\s+an?\s+", re.IGNORECASE)
# A definition: a term of one to three words, a colon, what it is ("SEV1: confirmed breach of
# customer data, or a full outage of the production platform.").
_DEFINITION: Final = re.compile(r"^([A-Z][\w-]*(?:\s+[\w-]+){0,2}):\s+\S")


def asks_what_it_is(question: str) -> bool:
    return _WHAT_IS.search(question) is not None


def defined_term(sentence: str) -> str | None:
    """The term a definition line defines ("SEV1" for "SEV1: confirmed breach ..."), or None."""
    match = _DEFINITION.match(sentence.strip())
    return match.group(1) if match else None


def kind_asked(question: str) -> str | None:
    """The stemmed word naming the kind of thing a "which" question asks for, or None:
    "Which cloud provider hosts ...?" asks for a provider. "What X" followed by a verb, and
    "what is the X", ask the same: "What uptime does the supplier guarantee?" asks for an
    uptime, "What is the budget for security training?" for a budget; not when X holds a word
    answers do not repeat ("what is the purpose of ...")."""
    if _WHAT_IS_A.search(question):
        return None  # "What is a SEV2 incident?" is answered by "SEV2: suspected breach, ..."
    cue = _WHICH.search(question)
    what = cue is None
    cue = cue or _WHAT_KIND.search(question)
    if cue is None:
        return None
    # A title written in capitals is the name, whole: "Who is the Speaking Up Guardian?" asks
    # for a guardian, "Who is the Chief Information Security Officer?" for an officer.
    title = _TITLE.match(question[cue.end() :])
    if title is not None and _WHO.search(question[: cue.end()]):
        return stem(title.group(1).lower())
    name: list[str] = []
    following = words(question[cue.end() :])
    owners = set(_PLURAL_OWNER.findall(question.lower()))  # "the users' choices"
    for index, word in enumerate(following):
        if (word.endswith(("'s", "\u2019s")) or word in owners) and not name:
            continue  # "the company's policy" names a policy
        if word in NOT_IN_A_NAME or word in _PREPOSITIONS or len(name) == 2:
            break
        after = following[index + 1] if index + 1 < len(following) else ""
        if name and word.endswith("s") and (after in DETERMINERS or a_plural(after)):
            # "Which law governs the agreement?", "Which court settles disputes?": the verb, a
            # law and a court are asked for.
            break
        if name and a_plural(name[-1]):
            break  # "Which services need MFA?": a plural is the kind; "need" is the verb
        name.append(word)
    # "What are the ways third parties ...?" asks for ways, "Which systems require MFA?" for
    # systems: generic words, which the answer (a list of them) need not repeat.
    if not name or any(stem(word) in (_GENERIC_KINDS if what else _LISTED) for word in name):
        return None
    return stem(name[-1])


_WHO: Final = re.compile(r"\bwho\b", re.IGNORECASE)
_TITLE: Final = re.compile(r"(?-i:(?:[A-Z][a-z]+\s+){2,3}([A-Z][a-z]+))\b(?!['\u2019])")


_LISTED: Final = frozenset(
    content_terms("system service tool application app platform device user customer person people")
)


_PLURAL_OWNER: Final = re.compile(r"\b(\w+s)['\u2019](?!\w)")


_TIME_UNITS: Final = frozenset(
    stem(unit) for unit in "seconds minutes hours days nights weeks months quarters years".split()
)
_HOW_MANY: Final = re.compile(
    r"\bhow (?:many|much)\s+([^\W\d_]+)(?:\s+([^\W\d_]+))?", re.IGNORECASE
)
# "How many times ...?" counts occurrences, which a frequency states.
_OCCURRENCES: Final = stem("times")


def counted_kind(question: str) -> str | None:
    """The stemmed word naming what a "how many" or "how much" question counts, or None:
    "How many characters must a password have?" counts characters."""
    match = _HOW_MANY.search(question)
    if match is None or match.group(1).lower() in NOT_IN_A_NAME:
        return None
    # A compound counts its last noun: "how many shift swaps" counts swaps.
    head = match.group(2)
    if head is not None and a_plural(head.lower()) and not a_plural(match.group(1).lower()):
        return stem(head.lower())
    return stem(match.group(1).lower())


def states_a_count_of(kind: str, sentence: str) -> bool:
    """The sentence states a number of the (stemmed) kind of thing: "five tunics", "3 spare
    tunics", "one qualified first aider"; not of time, which any sentence with a deadline
    states ("within 30 days")."""
    return kind not in _TIME_UNITS and any(
        stem(noun.lower()) == kind for pair in _COUNT_OF.findall(sentence) for noun in pair
    )


# "five tunics", "3 spare tunics", "one qualified first aider"
_COUNT_OF: Final = re.compile(
    rf"\b(?:\d+|{NUMBER_WORDS})\s+([a-z-]+)(?:\s+([a-z]+))?(?:\s+([a-z]+))?", re.I
)


def asks_who(question: str) -> bool:
    return _ASKS_WHO.search(question) is not None


def names_someone(sentence: str) -> bool:
    """The sentence holds a role or party word, a capitalised name after its first word, or an
    e-mail address."""
    agents = AGENT_WORDS & {stem(word) for word in words(sentence)}
    if agents == {_INDIVIDUAL} and _INDIVIDUAL_THINGS.search(sentence):
        agents = frozenset()
    return bool(agents) or bool(_NAME.search(sentence) or _EMAIL.search(sentence))


# "individual" before a plural names things, not someone: "individual invoices".
_INDIVIDUAL: Final = stem("individual")
_INDIVIDUAL_THINGS: Final = re.compile(r"\bindividual\s+[a-z]+s\b", re.IGNORECASE)


def states_a_quantity(text: str) -> bool:
    """The text states a number, in digits or in words before a unit ("two years")."""
    return bool(numbers(text)) or _COUNTED.search(text) is not None


_COUNTED: Final = re.compile(
    rf"\b(?:{NUMBER_WORDS})\s+(?:second|minute|hour|day|week|month|quarter|year)s?\b", re.I
)


def asks_for_amount(question: str) -> bool:
    # "What number do I ring ...?" asks for a phone number, not an amount
    return AMOUNT_ASKED.search(question) is not None and contact_asked(question) is None


def asks_for_duration(question: str) -> bool:
    return DURATION_ASKED.search(question) is not None


# "When must ...?", "By when ...?"; not "What happens when ...?", which asks what.
_ASKS_WHEN: Final = re.compile(r"^\W*(?:(?:by|until|from)\s+)?when\b", re.IGNORECASE)


def answers_when(question: str, sentence: str) -> bool:
    """The question asks when, and the sentence states a time: a deadline ("within 48 hours"),
    a date or a time of day. "When must customers be told about a breach?" is better answered
    first by "... notified ... within 48 hours of the breach being confirmed" than by the
    definition of a breach's severity that shares as many of its words."""
    return _ASKS_WHEN.search(question) is not None and any(
        pattern.search(sentence) is not None for pattern in (DURATION_WORDS, DATE_WORDS, CLOCK)
    )


# "Where must customer data not be stored?"; not "Where can I find out when ...?" asked of a
# time, which this reads as where too: a place is then no worse an answer.
_ASKS_WHERE: Final = re.compile(r"^\W*where\b", re.IGNORECASE)
# A place: a preposition of place before a word that is not a number ("in personal cloud
# storage", "to privacy@northwind.example"; not "within 90 days").
_PLACE: Final = re.compile(r"\b(?:in|at|on|to|from|inside|outside|into|onto)\s+(?![\d])\w", re.I)


def answers_where(question: str, sentence: str) -> bool:
    """The question asks where, and the sentence states a place: "Where must customer data not
    be stored?" is better answered first by "Do not store customer data in personal cloud
    storage ..." than by how long customer data is kept, which shares as many of its words."""
    return _ASKS_WHERE.search(question) is not None and _PLACE.search(sentence) is not None


def asks_for_a_quantity(question: str) -> bool:
    """An amount, a duration or a frequency."""
    return asks_for_amount(question) or asks_for_duration(question)


# "Does the plan say anything about ransomware?", "What does the policy state on backups?",
# "Does the site induction cover asbestos awareness?": a sentence not naming it says nothing.
_SAYS_ABOUT: Final = re.compile(
    r"\b(?:say|says|mention|mentions|state|states)\s+(?:anything\s+|something\s+)?"
    r"(?:about|on|regarding)\s+([^?.!]+)"
    r"|^\W*(?:does|do|will)\b[^?]*?\b(?:cover|include|mention)\s+([^?.!]+)",
    re.IGNORECASE,
)


def _states_the_money(money: re.Match[str] | None, sentence: str) -> bool:
    """Asked of a fine, fee, price or cost (``money``, the question's word for it), the sentence
    states money or names it."""
    return (
        money is None
        or MONEY.search(sentence) is not None
        or stem(money.group(1).lower()) in content_terms(sentence)
    )


_IS_THERE: Final = re.compile(r"\b(?:is|are)\s+there\s+(?:an?|any)\b", re.IGNORECASE)
# "Is there a cycle to work scheme?": a sentence naming no scheme says there is none, whatever
# it says of work. The thing is the words up to what qualifies it ("for", "on", ...); a
# quantity ("Is there a limit on ...?") is answered by a value without the word.
_THERE_IS_A: Final = re.compile(
    r"^\W*(?:is|are)\s+there\s+(?:an?|any)\s+(?P<thing>[\w' -]+?)\s*"
    r"(?:\?|$|\b(?:for|on|about|regarding|in|at|when|if|that|which|with|from|of|per)\b)",
    re.IGNORECASE,
)
_VALUE_FOR: Final = re.compile(
    r"\bwhat(?:'s|’s|s| is| are) the (?:[\w'-]+\s+){0,2}?(?:rate|limit|cap|fee|price|cost|"
    r"allowance)s?\s+for\s+(?P<what>[^?.!]+)",
    re.IGNORECASE,
)
# after the subject, not before a noun: "Are visible tattoos OK" asks whether they are OK
_ABLE_PREDICATE: Final = re.compile(
    r"^\W*(?:is|are|was|were|will)\b[^?,;]*?\b([a-z]{2,}(?:able|ible))"
    r"(?=\s*(?:$|[?.!,;]|\b(?:for|to|on|in|if|when|under|after|by|at|and|or)\b))",
    re.IGNORECASE,
)


# Words a sentence says in many other ways: "publicly available" information is "public", an
# applicable choice one "you may make", an acceptable use one "allowed".
_SAID_OTHERWISE: Final = frozenset(
    "available applicable possible acceptable suitable reasonable responsible".split()
)


def _names_the_predicate(word: str, sentence: str) -> bool:
    """The sentence names the word, or what it is able to be: "refundable" by "refund"."""
    terms = content_terms(sentence)
    base = stem(word[:-4])
    return stem(word) in terms or (len(base) >= 4 and any(t.startswith(base) for t in terms))


# "Is there a way to opt out?" asks how: "You can unsubscribe ..." names no way.
_MEANS: Final = frozenset(
    content_terms("way option possibility process method means chance need requirement reason")
)
_VALUES: Final = frozenset(
    content_terms(" ".join(QUANTITY_NOUNS) + " cap maximum minimum threshold allowance budget")
)


_RESTRICTS: Final = re.compile(r"\b(?:only|not|never|no)\b", re.IGNORECASE)
# A question asking whether, at its start or after a clause: "patient wants £180 back in cash,
# can reception do that".
_ASKS_WHETHER: Final = re.compile(
    r"(?:^|[,;:\u2013-])\W*(?:can|could|may|might|is|are|am|do|does|did|will|would|should|must"
    r"|shall)\s+(?!.*\b(?:who|what|which|where|when|how)\b)",
    re.IGNORECASE,
)


def can_answer(
    question: str, sentence: str, heading: str | None = None, lead_in: str | None = None
) -> bool:
    """False when the question asks for an amount, a duration or a frequency that the sentence
    does not state in any form (how often: "every 12 months", "twice a year", "annually"), for
    a date or a time of day and the sentence states none, for a count of things ("how many
    employees") the sentence does not name, or for a kind of thing ("which provider", "who is
    the CEO") the sentence does not name, or when the sentence names another of the thing the
    question names by name ("about_another"), or for who does something ("who must approve")
    and the sentence does not name the doing (``heading``, its section's, or ``lead_in``, what
    the sentence continues, names it for a band of money listed under it); or when it states
    only bands of money that do not hold the amount asked of, gives no phone number, address or
    website asked for, or names no thing asked whether there is; True otherwise (nothing is
    known against it)."""
    said_about = _SAYS_ABOUT.search(question)
    if said_about and set(content_terms(said_about.group(1) or said_about.group(2))).isdisjoint(
        content_terms(sentence)
    ):
        return False  # asked what the plan says about ransomware, a sentence not naming it
    if holds_an_amount_asked(question, sentence) is False and not (
        _ASKS_WHETHER.search(question) and _RESTRICTS.search(sentence)
    ):
        # "£500,000 and above: ..." says nothing of a £150,000 contract, nor "Shifts of more
        # than 10 hours include a paid break" of a 7-hour one; but asked whether £180 may be
        # refunded in cash, "only for amounts of £100 or less" says no
        return False
    if names_what_is_paid_for(question, sentence) is False:
        return False  # whether gym membership is paid for, a sentence not naming it
    contact = contact_asked(question)
    if contact is not None:
        return contact.search(sentence) is not None
    # "What are the office hours?" asks when, not for a kind of hour
    kind = None if _OPENING_HOURS.search(question) else kind_asked(question)
    if kind is not None and (
        not names_kind(kind, sentence) or about_another(question, sentence, kind=kind)
    ):
        return False
    together = frozenset(coordinated_terms(question))
    if about_another(question, sentence, names_only=True, alternatives=together):
        return False
    if names_another_place(question, sentence):
        return False
    action = action_asked(question)
    # Asked who approves access, a sentence naming people but no approving is no answer; but
    # a band under a heading or lead-in naming it does it ("From £100,000 to £499,999: the
    # Director ..." under "4. Approval of Spend"; "above £1,000: the Clinical Director ..."
    # after "Where a refund is agreed, it is approved as follows:").
    if (
        action is not None
        and not does_the_action(action, sentence)
        and not (
            bands_stated(sentence)
            and any(does_the_action(action, context) for context in (heading, lead_in) if context)
        )
    ):
        return False

    money = _MONEY_ASKED.search(question)
    if asks_for_amount(question):
        counted = counted_kind(question)
        if counted in _TIME_UNITS:  # "how many days": 24 hours answers it too
            return DURATION_WORDS.search(sentence) is not None
        # "How many times a year ...?" counts occurrences: "twice a year" answers it.
        if counted not in (None, _OCCURRENCES) and counted not in content_terms(sentence):
            return False  # "how many employees": a number of something else is no answer
        if not _states_the_money(money, sentence):
            return False  # asked what fine applies, "the stricter of the two applies" is none
        if money is not None and MONEY.search(sentence) is None:
            # an amount of money, not of time: "capped at the fees paid in the 12 months before
            # the claim" says how much of what, never how much the fees are
            sentence = AN_AMOUNT_OF_TIME.sub(" ", sentence)
        return bool(numbers(sentence)) or AMOUNT_WORDS.search(sentence) is not None
    # A value of what it is asked for: "whats the hourly rate for a room attendant" is not
    # answered by "Hours worked beyond 40 ... are paid at 1.25 times the basic hourly rate."
    value_for = _VALUE_FOR.search(question)
    for_what = content_terms(value_for.group("what")) if value_for else []
    if for_what and for_what[-1] not in content_terms(sentence):
        return False  # nor by a room service rule: an attendant is who it is for
    # Whether something is liable (eligible, refundable): a sentence saying so names it, or
    # its noun ("liability"); one on breaches that names no liability says nothing of it.
    predicate = _ABLE_PREDICATE.match(question)
    word = predicate.group(1).lower() if predicate else ""
    if word and word not in _SAID_OTHERWISE and not _names_the_predicate(word, sentence):
        return False
    there_is = _THERE_IS_A.search(question)
    if there_is and not money:
        thing = content_terms(there_is.group("thing"))
        stated = set(content_terms(sentence))
        if thing and thing[-1] not in _VALUES | _MEANS and thing[-1] not in stated:
            return False
        # A value, of what it is asked of: "Is there a rate for electric scooters?" is not
        # answered by "... sooner if HMRC mileage rates change".
        rest = set(content_terms(question)) - set(thing)
        if thing and thing[-1] in _VALUES and rest and rest.isdisjoint(stated):
            return False
    if money and _IS_THERE.search(question):
        # "Is there a fee for exceptions?": money, for what is asked of; not "Approved
        # exceptions are valid ...", nor "... capped at the fees paid ...".
        rest = set(content_terms(question)) - set(content_terms(money.group(1)))
        return _states_the_money(money, sentence) and not rest.isdisjoint(content_terms(sentence))
    if _DATE.search(question):
        return DATE_WORDS.search(sentence) is not None
    if _OPENING_HOURS.search(question):
        return CLOCK.search(sentence) is not None or _WHEN_OPEN.search(sentence) is not None
    if _TIME_OF_DAY.search(question):
        return CLOCK.search(sentence) is not None
    if _FREQUENCY.search(question):
        return FREQUENCY_WORDS.search(sentence) is not None
    if asks_for_duration(question):
        # A number alone is no duration: "children under the age of 13" says nothing of how
        # long anything is kept; nor is how often something is done ("reports compliance ...
        # every quarter" says nothing of how long an exception lasts).
        return DURATION_WORDS.search(FREQUENCY_WORDS.sub(" ", sentence)) is not None
    return True
