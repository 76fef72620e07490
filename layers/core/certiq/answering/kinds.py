"""Whether a sentence names the kind of thing a question asks for ("Which supplier ...?",
"What temperature ...?"): in the kind's own word, or in what names one of its kind (a legal
form names a company, a stated value a temperature, a dismissal a penalty)."""

from __future__ import annotations

import re
from typing import Final

from certiq.answering.amounts import states_a_temperature
from certiq.answering.instructions import states_an_obligation
from certiq.text import content_terms, stem

# A kind an answer names in other words: "What is the penalty for violating the policy?" is
# answered by "Violations ... may lead to disciplinary action, up to and including dismissal".
# (A penalty is not always an amount: "What is the maximum fine ...?" asks for one.)
_SANCTIONS: Final = frozenset(
    content_terms(
        "penalty penalties sanction sanctions punishment punished disciplinary discipline "
        "dismissal dismissed termination terminated suspension suspended fine fines fined "
        "prosecution prosecuted misconduct offence offences offense offenses police"
    )
)
_KINDS_NAMED_BY: Final = {kind: _SANCTIONS for kind in content_terms("penalty sanction punishment")}

_TEMPERATURE_KIND: Final = stem("temperature")


# A duty is named by saying what someone must do: "Each system owner must keep an up-to-date
# entry ..." is one of "the responsibilities of system owners".
_DUTIES: Final = frozenset(content_terms("responsibility duty obligation responsible"))


# An organisation is named by its name: "Which supplier stores the off-site backups?" is
# answered by "Fabrikam Storage GmbH provides encrypted off-site backup storage ...", which never
# says "supplier". A name is told by its legal form.
_ORGANISATION_KINDS: Final = frozenset(
    content_terms(
        "supplier vendor provider processor subprocessor contractor subcontractor company firm "
        "organisation organization business partner bank insurer auditor"
    )
)
_ORGANISATION_NAME: Final = re.compile(
    r"\b[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*,?\s+"
    r"(?:GmbH|AG|Ltd|Limited|Inc|Incorporated|LLC|LLP|plc|PLC|Corp|Corporation|S\.A|B\.?V|N\.?V|"
    r"SAS|SARL|S\.p\.A|ApS|Pty)\b\.?"
)


def names_kind(kind: str, sentence: str) -> bool:
    """The sentence names the kind of thing asked for, in its word or one that names it (an
    organisation's name, with its legal form, names a supplier, a vendor, a company)."""
    terms = content_terms(sentence)
    if kind in _DUTIES and (states_an_obligation(sentence) or not _DUTIES.isdisjoint(terms)):
        return True
    if kind in _ORGANISATION_KINDS and _ORGANISATION_NAME.search(sentence):
        return True
    if kind == _TEMPERATURE_KIND:
        # a measure by its value: "5°C or below", "between 18 and 21 degrees"; not
        # "Temperatures are checked twice a day"
        return states_a_temperature(sentence)
    return not _KINDS_NAMED_BY.get(kind, frozenset((kind,))).isdisjoint(terms)
