"""What validate, redact and translate decide for one text, for operators tuning the lists.

The same functions the states run, without a question record or a state machine: `certiq
guard "text"` prints this.
"""

from __future__ import annotations

from dataclasses import dataclass

from certiq.config import Settings
from certiq.guardrails.pii import find_entities, find_names, mask, resolve_overlaps
from certiq.guardrails.validation import PII_BLOCKED, status_for, validate_question
from certiq.models import Validation
from certiq.ports import InjectionScreen, LanguageDetector, NameFinder


@dataclass(frozen=True)
class GuardReport:
    status: str  # ACCEPTED, NEEDS_CLARIFICATION or REJECTED
    reason: str | None
    rule: str | None
    detector: str | None  # length, pattern or classifier
    message: str | None
    redacted: str
    entities: list[dict[str, object]]
    language: str
    confidence: float

    def to_json(self) -> dict[str, object]:
        """The fields `certiq guard --json` prints."""
        return {
            "status": self.status,
            "reason": self.reason,
            "detector": self.detector,
            "redacted": self.redacted,
            "entities": self.entities,
            "language": self.language,
        }


def inspect_text(
    text: str,
    settings: Settings,
    language: LanguageDetector,
    name_finder: NameFinder | None = None,
    injection: InjectionScreen | None = None,
) -> GuardReport:
    validation = validate_question(text, settings.validation, injection=injection)
    entities = find_entities(text, settings.redaction.phone_regions)
    if name_finder is not None and validation.ok:
        names = name_finder.find_names(mask(text, entities).text)
        entities = resolve_overlaps([*entities, *find_names(text, names, entities)])
    result = mask(text, entities)
    if validation.ok and entities and settings.redaction.policy == "block":
        validation = Validation(
            ok=False,
            reason_code=PII_BLOCKED,
            message="The text holds personal data and the redaction policy is block.",
        )
    status = "ACCEPTED" if validation.ok else status_for(validation).value
    detected, confidence = language.identify(result.text)
    return GuardReport(
        status=status,
        reason=validation.reason_code,
        rule=validation.rule,
        detector=validation.detector,
        message=validation.message,
        redacted=result.text,
        entities=[
            {"type": entity.type, "start": entity.start, "end": entity.end}
            for entity in result.entities
        ],
        language=detected,
        confidence=confidence,
    )
