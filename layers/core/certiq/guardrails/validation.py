"""Validate: decides whether a question can be answered as asked, and says why not.

Length and emptiness are checked here; profanity, threats and attempts to steer the assistant
(prompt injection, role-play jailbreaks, requests for its instructions) are matched against the
pattern lists in certiq/guardrails/patterns/<language>.json, loaded once. Patterns are matched
against the folded text (certiq.guardrails.normalize), so case, accents, extra spaces,
zero-width characters, leetspeak and spelled-out letters do not hide a trigger. What no pattern
names, the injection classifier (certiq.guardrails.injection) may still refuse.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from certiq.config import ValidationSettings
from certiq.guardrails.normalize import fold, strip_invisible
from certiq.models import QuestionStatus, Validation
from certiq.ports import InjectionScreen
from certiq.text import word_count

EMPTY = "EMPTY_QUESTION"
TOO_LONG = "QUESTION_TOO_LONG"
TOO_SHORT = "QUESTION_TOO_SHORT"
PROMPT_INJECTION = "PROMPT_INJECTION"
ROLE_PLAY_JAILBREAK = "ROLE_PLAY_JAILBREAK"
SYSTEM_PROMPT_REQUEST = "SYSTEM_PROMPT_REQUEST"
PROFANITY = "PROFANITY"
THREAT = "THREAT"
PII_BLOCKED = "PERSONAL_DATA_BLOCKED"

# The order in which categories are tried: the most serious reason wins.
CATEGORIES = (THREAT, PROMPT_INJECTION, SYSTEM_PROMPT_REQUEST, ROLE_PLAY_JAILBREAK, PROFANITY)

MESSAGES = {
    THREAT: (
        "The question contains a threat of harm and was not processed. If someone is in "
        "danger, contact your local emergency services."
    ),
    PROMPT_INJECTION: (
        "The question tries to change how the assistant works (for example by telling it to "
        "ignore its instructions), so it was not processed. Ask about the documents instead, "
        "for example 'What does the backup policy say about retention?'."
    ),
    SYSTEM_PROMPT_REQUEST: (
        "The assistant's own instructions and configuration are not shared. Ask about the "
        "content of the indexed documents instead."
    ),
    ROLE_PLAY_JAILBREAK: (
        "The question asks the assistant to play a role free of its rules. It answers only "
        "from the indexed documents, with citations: ask about them directly."
    ),
    PROFANITY: "The question contains offensive language. Please rephrase it and ask again.",
}

CLARIFY = (
    "Could you say a little more? A question of a few words, such as "
    "'How long are backups kept?', finds better evidence."
)


@dataclass(frozen=True)
class Rule:
    """One compiled pattern: ``rule_id`` is language.category.index, reported in decisions."""

    rule_id: str
    category: str
    pattern: re.Pattern[str]
    raw: bool  # matched against the unfolded text (markup that folding would erase)
    questions_only: bool = False  # refuses a question, never flags a document's sentence


@dataclass(frozen=True)
class Match:
    category: str
    rule_id: str


def _expand(pattern: str, definitions: dict[str, str]) -> str:
    for name, value in definitions.items():
        pattern = pattern.replace("{" + name + "}", value)
    if re.search(r"\{[A-Z_]+\}", pattern):
        raise ValueError(f"undefined name in pattern {pattern!r}")
    return pattern


def _compile(language: str, data: dict[str, Any]) -> list[Rule]:
    definitions: dict[str, str] = data.get("definitions", {})
    questions_only = set(data.get("questions_only", {}).get("rules", []))
    rules: list[Rule] = []
    for section, raw in (("rules", False), ("raw", True)):
        for category, patterns in data.get(section, {}).items():
            if category not in MESSAGES:
                raise ValueError(f"{language}.json: unknown category {category!r}")
            for index, pattern in enumerate(patterns):
                expanded = _expand(pattern, definitions)
                compiled = re.compile(expanded if raw else rf"\b(?:{expanded})\b")
                suffix = "raw." if raw else ""
                name = f"{suffix}{category}.{index}"
                rules.append(
                    Rule(f"{language}.{name}", category, compiled, raw, name in questions_only)
                )
                questions_only.discard(name)
    if questions_only:
        raise ValueError(f"{language}.json: questions_only names no rule: {sorted(questions_only)}")
    return rules


@cache
def rules_for(language: str) -> tuple[Rule, ...]:
    """The compiled rules of one language's pattern file, read once per process."""
    if not re.fullmatch(r"[a-z]{2,3}", language):
        raise ValueError(f"not a language code: {language!r}")
    source = resources.files("certiq.guardrails").joinpath("patterns", f"{language}.json")
    if not source.is_file():
        raise ValueError(f"no pattern list for language {language!r}")
    data = json.loads(source.read_text(encoding="utf-8"))
    return tuple(_compile(language, data))


# The categories whose rules, in a document, mark a sentence that addresses an AI assistant.
ADDRESSING_ASSISTANT = frozenset({PROMPT_INJECTION, SYSTEM_PROMPT_REQUEST, ROLE_PLAY_JAILBREAK})


@cache
def pattern_languages() -> tuple[str, ...]:
    """The languages that ship a pattern list."""
    folder = resources.files("certiq.guardrails").joinpath("patterns")
    return tuple(
        sorted(
            entry.name.removesuffix(".json")
            for entry in folder.iterdir()
            if entry.name.endswith(".json")
        )
    )


@cache
def _document_patterns() -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """Every language's rules that, in a document, mark an instruction to the assistant: one
    alternation over the folded text, one over the raw text (None: no such rule)."""
    rules = [
        rule
        for language in pattern_languages()
        for rule in rules_for(language)
        if rule.category in ADDRESSING_ASSISTANT and not rule.questions_only
    ]

    def joined(raw: bool) -> re.Pattern[str] | None:
        parts = [f"(?:{rule.pattern.pattern})" for rule in rules if rule.raw is raw]
        return re.compile("|".join(parts)) if parts else None

    return joined(False), joined(True)


def addresses_by_pattern(sentence: str) -> bool:
    """Whether a sentence of a document matches a rule for instructions to the assistant."""
    folded_pattern, raw_pattern = _document_patterns()
    if raw_pattern is not None and raw_pattern.search(strip_invisible(sentence).casefold()):
        return True
    return folded_pattern is not None and folded_pattern.search(fold(sentence)) is not None


def find_match(text: str, languages: Sequence[str]) -> Match | None:
    """The first rule of the most serious category that matches ``text``, if any."""
    folded = fold(text)
    raw = strip_invisible(text).casefold()
    found: dict[str, str] = {}
    for language in languages:
        for rule in rules_for(language):
            if rule.category in found:
                continue
            if rule.pattern.search(raw if rule.raw else folded):
                found[rule.category] = rule.rule_id
    for category in CATEGORIES:
        if category in found:
            return Match(category, found[category])
    return None


def validate_question(
    question: str,
    settings: ValidationSettings,
    earlier: Sequence[str] = (),
    injection: InjectionScreen | None = None,
) -> Validation:
    """Empty, over-long or abusive questions are refused; very short ones ask for more detail.

    ``earlier`` holds the conversation's earlier questions: a short follow-up ("and invoices?")
    to a question of several words is understood in that context and passes. ``injection``
    judges what the pattern lists let through.
    """
    stripped = strip_invisible(question).strip()
    if not stripped:
        return Validation(ok=False, reason_code=EMPTY, message="The question is empty.")
    if len(stripped) > settings.max_chars:
        return Validation(
            ok=False,
            reason_code=TOO_LONG,
            message=f"The question is longer than {settings.max_chars} characters; shorten it.",
            detector="length",
        )
    match = find_match(stripped, settings.pattern_languages)
    if match is not None:
        return Validation(
            ok=False,
            reason_code=match.category,
            message=MESSAGES[match.category],
            rule=match.rule_id,
            detector="pattern",
        )
    if injection is not None and injection.is_attack(stripped):
        return Validation(
            ok=False,
            reason_code=PROMPT_INJECTION,
            message=MESSAGES[PROMPT_INJECTION],
            rule=f"classifier.{injection.variant}",
            detector="classifier",
        )
    if word_count(stripped) < settings.min_words and not any(
        word_count(text) >= settings.min_words for text in earlier
    ):
        return Validation(ok=False, reason_code=TOO_SHORT, message=CLARIFY)
    return Validation(ok=True)


def status_for(validation: Validation) -> QuestionStatus:
    """Short questions need clarification (not an error); anything else refused is REJECTED."""
    if validation.ok:
        return QuestionStatus.MODERATING_QUESTION
    if validation.reason_code == TOO_SHORT:
        return QuestionStatus.NEEDS_CLARIFICATION
    return QuestionStatus.REJECTED
