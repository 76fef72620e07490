"""Redact: personal data is found and replaced by typed placeholders before anything leaves the
state machine.

Each detector checks what a pattern found with the format's own rule, so near-misses stay:
payment cards need an issuer prefix and the Luhn check digit, US SSNs the SSA's area and group
rules, Canadian SINs the Luhn digit, IBANs the ISO 7064 check (python-stdnum), phone numbers the
numbering plan of their region (phonenumberslite; a full ten-digit North American number, its
extension included, whether or not its area code is assigned yet; never fewer than seven digits),
IP addresses a parse by ``ipaddress``. Numbers
that follow words such as "order", "invoice" or "version" are identifiers, not personal data.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.ca import sin as stdnum_sin
from stdnum.us import ssn as stdnum_ssn

EMAIL = "EMAIL"
PHONE = "PHONE"
CARD = "CARD"
SSN = "SSN"
SIN = "SIN"
IBAN = "IBAN"
IP_ADDRESS = "IP_ADDRESS"
NAME = "NAME"

# When two findings overlap, the one found by the earlier detector wins.
PRIORITY = (EMAIL, IBAN, CARD, SSN, SIN, IP_ADDRESS, PHONE, NAME)

DEFAULT_REGIONS = ("US", "FR", "GB", "DE")

_EMAIL = re.compile(
    r"(?<![\w.+'-])[A-Za-z0-9](?:[A-Za-z0-9._%+'-]{0,63})@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])"
)
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9])")
# 12 to 19 digits, in groups separated by single spaces or dashes (12: Maestro alone).
_CARD = re.compile(r"(?<![\d.,-])\d(?:[ -]?\d){11,18}(?![\d-]|[.,]\d)")
_MAESTRO = re.compile(r"^(?:50|5[6-9]|6)")
_CARD_PREFIX = re.compile(
    r"^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|30[0-5]|3[689]|6(?:011|5|4[4-9]|2)|35"
    r"|50|5[6-9]|6[37]|1(?=\d{14}$)"  # 1...: UATP (airline) cards, 15 digits
    r"|2131(?=\d{11}$))"  # JCB's 15-digit range
)
# Not preceded by "<digit> ": a group inside a longer number (a VAT or account number).
_SSN = re.compile(r"(?<![\d.-])(?<!\d )(\d{3})([-. ])(\d{2})\2(\d{4})(?![\d-]|[. ]\d)")
_SIN = re.compile(r"(?<![\d.-])(?<!\d )\d{3}([-. ])\d{3}\1\d{3}(?![\d-]|[. ]\d)")
# US phone numbers are never grouped 3-2-4 with dashes or dots: that is the shape of an SSN,
# valid or not, and never a phone number.
_SSN_SHAPE = re.compile(r"\d{3}([-.])\d{2}\1\d{4}")
_NINE_DIGITS = re.compile(r"(?<![\d-])\d{9}(?![\d-])")
# "SSN", "my SSN is", "social security number:", "SIN no." just before a number.
_CONTEXT_TAIL = r"(?:\s+(?:is|was|number|no\.?|n°|est|:))*\W{0,4}$"
_SSN_CONTEXT = re.compile(r"\b(?:ssn|social security(?: number| no\.?| #)?)" + _CONTEXT_TAIL, re.I)
_SIN_CONTEXT = re.compile(
    r"\b(?:sin|nas|social insurance(?: number)?|num[ée]ro d'assurance sociale)" + _CONTEXT_TAIL,
    re.I,
)
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
# A full stop after an address ends the sentence, it is not part of the address.
_IPV6 = re.compile(
    r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?"
    r"(?![\w:]|\.\w)"
)
# A CIDR suffix belongs to the address it follows: /24 names the network being disclosed.
_PREFIX_LENGTH = re.compile(r"/(\d{1,3})(?!\d)")
# Words after which a number is an identifier of a thing, not of a person.
_IDENTIFIER_CONTEXT = re.compile(
    r"\b(?:order|invoice|ticket|ref|reference|case|po|sku|isbn|version|release|build|v|ver|"
    r"tracking|shipment|serial|part|item|account id|firmware|fw|kernel|vat|tva|siren|siret|"
    r"tax id|commande|facture|dossier|colis)"
    r"\s*[#:.]?\s*(?:number|no\.?|n°|num[ée]ro)?\s*[#:]?\s*$",
    re.I,
)


@dataclass(frozen=True)
class Entity:
    """A personal value in a text: its type and offsets (the value itself never leaves memory)."""

    type: str
    start: int
    end: int
    value: str


@dataclass
class RedactionResult:
    text: str
    entities: list[Entity] = field(default_factory=list)
    placeholders: dict[str, str] = field(default_factory=dict)  # placeholder -> type
    spans: list[tuple[Entity, str]] = field(default_factory=list)  # entity, its placeholder

    @property
    def types(self) -> list[str]:
        return sorted(set(self.placeholders.values()))


def _after_identifier_word(text: str, start: int) -> bool:
    return bool(_IDENTIFIER_CONTEXT.search(text[max(0, start - 30) : start]))


def _emails(text: str) -> Iterable[Entity]:
    for match in _EMAIL.finditer(text):
        yield Entity(EMAIL, match.start(), match.end(), match.group(0))


def _ibans(text: str) -> Iterable[Entity]:
    for match in _IBAN.finditer(text):
        value = match.group(0)
        # The pattern may run into a following code ("... 189 EUR"): drop trailing groups
        # until the check digits hold.
        while value:
            if stdnum_iban.is_valid(value):
                yield Entity(IBAN, match.start(), match.start() + len(value), value)
                break
            cut = max(value.rfind(" "), value.rfind("-"))
            value = value[:cut] if cut > 4 else ""


def _cards(text: str) -> Iterable[Entity]:
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if (
            _CARD_PREFIX.match(digits)
            and (len(digits) >= 13 or _MAESTRO.match(digits))
            and len(set(digits)) > 1
            and luhn.is_valid(digits)
            and not _after_identifier_word(text, match.start())
        ):
            yield Entity(CARD, match.start(), match.end(), match.group(0))


def _ssns(text: str) -> Iterable[Entity]:
    for match in _SSN.finditer(text):
        if stdnum_ssn.is_valid(re.sub(r"\D", "", match.group(0))):
            yield Entity(SSN, match.start(), match.end(), match.group(0))
    for match in _NINE_DIGITS.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()]
        if _SSN_CONTEXT.search(before) and stdnum_ssn.is_valid(match.group(0)):
            yield Entity(SSN, match.start(), match.end(), match.group(0))


def _sins(text: str) -> Iterable[Entity]:
    for match in _SIN.finditer(text):
        if stdnum_sin.is_valid(re.sub(r"\D", "", match.group(0))):
            yield Entity(SIN, match.start(), match.end(), match.group(0))
    for match in _NINE_DIGITS.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()]
        if _SIN_CONTEXT.search(before) and stdnum_sin.is_valid(match.group(0)):
            yield Entity(SIN, match.start(), match.end(), match.group(0))


def _ip_addresses(text: str) -> Iterable[Entity]:
    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(text):
            value = match.group(0)
            if value.count(":") >= 2 and not any(char.isdigit() for char in value.strip(":")):
                continue  # "::" alone, or colons in prose
            try:
                ipaddress.ip_address(value)
            except ValueError:
                continue
            if pattern is _IPV4 and _after_identifier_word(text, match.start()):
                continue  # "version 10.2.0.1" is a version number
            if pattern is _IPV4 and _is_netmask(value):
                continue  # 255.255.255.0 is a subnet mask, nobody's address
            end = match.end()
            prefix = _PREFIX_LENGTH.match(text, end)
            if prefix and int(prefix.group(1)) <= (32 if pattern is _IPV4 else 128):
                end = prefix.end()
            yield Entity(IP_ADDRESS, match.start(), end, text[match.start() : end])


def _is_netmask(value: str) -> bool:
    bits = int(ipaddress.IPv4Address(value))
    inverted = ~bits & 0xFFFFFFFF
    return value.startswith("255.") and inverted & (inverted + 1) == 0


# A phone number written with fewer digits is a local number, a zip code or a house number.
MIN_PHONE_DIGITS = 7
# North American numbers: any number written in the plan's shape (three, three and four digits,
# an optional +1 and extension; area code and exchange from 2 to 9) is a phone number, assigned
# area code or not: a number is personal data before its area code is in service. Not inside a
# longer token (a parcel's tracking number).
_NANP_SHAPE = re.compile(
    r"(?:\+?1[-. ]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[-. ]?)[2-9]\d{2}[-. ]?\d{4}"
    r"(?: ?(?:x|ext\.?) ?\d{1,6})?",
    re.IGNORECASE,
)


def _phones(text: str, regions: Sequence[str]) -> Iterable[Entity]:
    found: dict[tuple[int, int], str] = {}
    for region in regions:
        for match in phonenumbers.PhoneNumberMatcher(text, region, phonenumbers.Leniency.VALID):
            found.setdefault((match.start, match.end), match.raw_string)
    if "US" in regions:
        possible = phonenumbers.PhoneNumberMatcher(text, "US", phonenumbers.Leniency.POSSIBLE)
        for match in possible:
            overlaps = any(start < match.end and match.start < end for start, end in found)
            glued = (
                text[match.start - 1 : match.start].isalnum()
                or text[match.end : match.end + 1].isalnum()
            )
            if not overlaps and not glued and _NANP_SHAPE.fullmatch(match.raw_string):
                found[(match.start, match.end)] = match.raw_string
    for (start, end), raw in sorted(found.items()):
        before = text[max(0, start - 40) : start]
        if (
            sum(character.isdigit() for character in raw) >= MIN_PHONE_DIGITS
            and not _after_identifier_word(text, start)
            and not _SSN_SHAPE.fullmatch(raw)
            and not _SSN_CONTEXT.search(before)
            and not _SIN_CONTEXT.search(before)
        ):
            yield Entity(PHONE, start, end, raw)


def find_entities(text: str, regions: Sequence[str] = DEFAULT_REGIONS) -> list[Entity]:
    """Every personal value the detectors find, without overlaps, in text order."""
    found = [
        *_emails(text),
        *_ibans(text),
        *_cards(text),
        *_ssns(text),
        *_sins(text),
        *_ip_addresses(text),
        *_phones(text, regions),
    ]
    return resolve_overlaps(found)


def resolve_overlaps(entities: Iterable[Entity]) -> list[Entity]:
    """Keeps the earlier-priority finding (then the longer) where findings overlap."""
    ranked = sorted(entities, key=lambda e: (PRIORITY.index(e.type), -(e.end - e.start), e.start))
    kept: list[Entity] = []
    for entity in ranked:
        if all(entity.end <= other.start or entity.start >= other.end for other in kept):
            kept.append(entity)
    return sorted(kept, key=lambda e: e.start)


def find_names(text: str, names: Iterable[str], taken: Sequence[Entity] = ()) -> list[Entity]:
    """Every whole-word occurrence of the given names that no other finding covers."""
    found: list[Entity] = []
    for name in sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True):
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text):
            found.append(Entity(NAME, match.start(), match.end(), match.group(0)))
    return [
        entity
        for entity in resolve_overlaps([*taken, *found])
        if entity.type == NAME and entity not in taken
    ]


def _value_key(entity: Entity) -> str:
    """Two spellings of the same value share a placeholder: digits only, emails in lower case."""
    if entity.type in (EMAIL, NAME):
        return entity.value.casefold()
    if entity.type == IP_ADDRESS:
        address, slash, prefix = entity.value.partition("/")
        return str(ipaddress.ip_address(address)) + slash + prefix
    if entity.type == IBAN:
        return re.sub(r"[\s-]", "", entity.value).upper()
    if entity.type == PHONE:
        return re.sub(r"\D", "", entity.value)[-9:]
    return re.sub(r"\D", "", entity.value)


def mask(text: str, entities: Sequence[Entity]) -> RedactionResult:
    """Replaces each entity by [TYPE_n]; the same value always gets the same placeholder."""
    seen: dict[tuple[str, str], str] = {}
    counters: dict[str, int] = {}
    placeholders: dict[str, str] = {}
    spans: list[tuple[Entity, str]] = []
    pieces: list[str] = []
    position = 0
    for entity in sorted(entities, key=lambda e: e.start):
        key = (entity.type, _value_key(entity))
        if key not in seen:
            counters[entity.type] = counters.get(entity.type, 0) + 1
            seen[key] = f"[{entity.type}_{counters[entity.type]}]"
            placeholders[seen[key]] = entity.type
        pieces += [text[position : entity.start], seen[key]]
        spans.append((entity, seen[key]))
        position = entity.end
    pieces.append(text[position:])
    return RedactionResult(
        text="".join(pieces), entities=list(entities), placeholders=placeholders, spans=spans
    )


def redact(text: str, regions: Sequence[str] = DEFAULT_REGIONS) -> RedactionResult:
    """The text with every personal value the detectors find replaced by its placeholder."""
    return mask(text, find_entities(text, regions))
