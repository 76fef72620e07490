"""Detect language: answers come from the index language; translation needs a model.

Offline there is no translation model, so a question in another language is searched as asked
and the state says that translation was unavailable.
"""

from __future__ import annotations

from certiq.guardrails.language import UNDETERMINED
from certiq.models import QuestionState, Translation
from certiq.steps.deps import Deps


def translate(state: QuestionState, deps: Deps) -> QuestionState:
    target = deps.settings.index_language
    detected = deps.language.detect(state.question)
    note = None
    if detected not in (target, UNDETERMINED):
        note = (
            f"The question looks like '{detected}' but no translation model is configured: "
            f"it was searched as written and the answer is in '{target}'."
        )
    language = detected if detected != UNDETERMINED else target
    return state.model_copy(
        update={
            "language": language,
            "translation": Translation(
                detected=detected, target=target, translated=False, note=note
            ),
        }
    )
