"""Translate question: identifies the question's language offline and, when a model is configured,
translates it to the index language for the search.

Without a model a question in another language is searched as written and the state says that
translation was unavailable. If the model altered a protected part (a placeholder, a quote, a
URL), its translation is not used: the question is searched as written, with a note.
"""

from __future__ import annotations

from typing import Protocol

from certiq.config import Settings
from certiq.guardrails.language import UNDETERMINED
from certiq.guardrails.translation import TranslationBroken
from certiq.models import QuestionState, Translation
from certiq.ports import LanguageDetector, Translator


class TranslateDeps(Protocol):
    """What Translate question uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def language(self) -> LanguageDetector: ...

    @property
    def translator(self) -> Translator | None: ...


def translate(state: QuestionState, deps: TranslateDeps) -> QuestionState:
    target = deps.settings.index_language
    detected, confidence = deps.language.identify(state.question)
    question = state.question
    translation = Translation(
        detected=detected, target=target, translated=False, confidence=confidence
    )
    if detected not in (target, UNDETERMINED):
        if deps.translator is None:
            translation.note = (
                f"The question looks like '{detected}' but no translation model is configured: "
                f"it was searched as written, and any answer is in '{target}'. Ask it in "
                f"'{target}', the documents' language, or configure a model (CERTIQ_LLM__PROVIDER)."
            )
        else:
            try:
                question = deps.translator.translate(state.question, detected, target)
            except TranslationBroken as error:
                translation.note = (
                    f"Translation from '{detected}' to '{target}' was unavailable ({error}): "
                    f"the question was searched as written."
                )
            else:
                translation.translated = True
                translation.translator = deps.translator.name
                translation.question = state.question
    return state.model_copy(
        update={
            "question": question,
            "language": detected if detected != UNDETERMINED else target,
            "translation": translation,
        }
    )
