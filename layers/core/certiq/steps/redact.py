"""Redact personal data: nothing after this state sees the raw question.

Emails, phone numbers, payment cards, US SSNs, Canadian SINs, IBANs and IP addresses are found by
certiq.guardrails.pii; when a model is configured, it is asked for person names in the already
masked text (it never sees the other values). Under the "block" policy a question holding
personal data ends here, REJECTED, with only its masked form stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from certiq.config import Settings
from certiq.guardrails.pii import Entity, find_entities, find_names, mask, resolve_overlaps
from certiq.guardrails.validation import PII_BLOCKED
from certiq.models import PiiEntity, QuestionState, QuestionStatus, Redaction, Validation
from certiq.ports import DocumentStore, NameFinder, QuestionStore
from certiq.steps.response import build_response


class MaskDeps(Protocol):
    """What masking a question uses (Validate masks a question it ends, too)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def name_finder(self) -> NameFinder | None: ...


class RedactDeps(MaskDeps, Protocol):
    """What Redact personal data uses: a Deps is one, and the step can reach nothing else."""

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def documents(self) -> DocumentStore: ...


def redact(state: QuestionState, deps: RedactDeps) -> QuestionState:
    state = mask_question(state, deps)
    assert state.redaction is not None
    if deps.settings.redaction.policy == "block" and state.redaction.entities:
        assert state.redaction is not None
        kinds = ", ".join(state.redaction.types)
        validation = Validation(
            ok=False,
            reason_code=PII_BLOCKED,
            message=(
                f"The question holds personal data ({kinds}), which this deployment does not "
                "accept. Ask again without it."
            ),
        )
        state = state.model_copy(
            update={"validation": validation, "status": QuestionStatus.REJECTED}
        )
        # The Choice after this state ends the execution: this is the question's final record.
        response = build_response(
            state,
            QuestionStatus.REJECTED,
            deps.documents,
            deps.settings.policy,
            message=validation.message,
        )
        deps.questions.complete(state.question_id, response)
    return state


def mask_question(state: QuestionState, deps: MaskDeps, note: str | None = None) -> QuestionState:
    """The state with its question masked: the pattern detectors, then the name finder.

    Validate calls it too for a question it ends, so no raw value is stored either way.
    """
    if state.redaction is not None:
        return state  # already redacted
    entities = find_entities(state.question, deps.settings.redaction.phone_regions)
    names_checked_by = None
    if deps.name_finder is not None:
        # The model sees the text with every other value already masked.
        names = deps.name_finder.find_names(mask(state.question, entities).text)
        entities = resolve_overlaps([*entities, *find_names(state.question, names, entities)])
        names_checked_by = deps.name_finder.name
    return _masked(state, deps, entities, names_checked_by, note)


def _masked(
    state: QuestionState,
    deps: MaskDeps,
    entities: Sequence[Entity],
    names_checked_by: str | None,
    note: str | None,
) -> QuestionState:
    result = mask(state.question, entities)
    redaction = Redaction(
        count=len(result.placeholders),
        types=result.types,
        policy=deps.settings.redaction.policy,
        entities=[
            PiiEntity(type=entity.type, start=entity.start, end=entity.end, placeholder=placeholder)
            for entity, placeholder in result.spans
        ],
        names_checked_by=names_checked_by,
        note=note,
    )
    return state.model_copy(update={"question": result.text, "redaction": redaction})
