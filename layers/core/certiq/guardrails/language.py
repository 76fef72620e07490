"""Offline language identification: py3langid's bundled model, backed by function words.

py3langid (a naive Bayes model over byte n-grams, shipped inside the package) decides when it is
confident; short or mixed texts fall back to scoring the commonest function words of a few
languages, which answers "und" when it cannot tell.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from certiq.config import TranslationSettings
from certiq.text import word_count, words

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "the and of to is are in that for with how what which does do be on by".split()
    ),
    "fr": frozenset(
        "le la les et des est du une un que pour dans qui sont avec comment quel".split()
    ),
    "de": frozenset(
        "der die das und ist nicht ein eine zu den mit wie was sind für auf von".split()
    ),
    "es": frozenset("el la los las y es de que en un una por con para cómo qué son del".split()),
    "it": frozenset("il lo la gli le e è di che un una per con come sono del della non".split()),
    "pt": frozenset("o a os as e é de que um uma para com como são do da não em".split()),
    "nl": frozenset("de het een en is van dat niet met hoe wat zijn voor op te".split()),
}

UNDETERMINED = "und"


class FunctionWordDetector:
    """Implements the LanguageDetector port."""

    def identify(self, text: str) -> tuple[str, float]:
        """The confidence is the best language's share of the function words found."""
        tokens = words(text)
        if not tokens:
            return UNDETERMINED, 0.0
        scores = {
            language: sum(token in vocabulary for token in tokens)
            for language, vocabulary in _FUNCTION_WORDS.items()
        }
        best = max(scores, key=lambda language: scores[language])
        ranked = sorted(scores.values(), reverse=True)
        if ranked[0] == 0 or ranked[0] == ranked[1]:
            return UNDETERMINED, 0.0
        return best, round(ranked[0] / sum(ranked), 4)


@cache
def _identifier(languages: tuple[str, ...]) -> LanguageIdentifier:
    """py3langid's model (bundled with the package, nothing downloaded), loaded once (~2 s)."""
    # Imported here: py3langid loads numpy, which steps importing UNDETERMINED (every Lambda
    # function, through certiq.steps) should not pay for on a cold start.
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(languages))
    return identifier


# Placeholders ([EMAIL_1]), citation markers and URLs say nothing about the language.
_NOT_LANGUAGE = re.compile(r"\[[A-Z][A-Z0-9_]*\]|https?://\S+")


class LangIdDetector:
    """Implements the LanguageDetector port with py3langid, offline.

    Chooses among ``settings.languages``; when its confidence is under ``min_confidence`` (short
    or mixed texts) the function-word detector decides, and may say "und".
    """

    def __init__(self, settings: TranslationSettings) -> None:
        self._languages = tuple(sorted(set(settings.languages)))
        self._min_confidence = settings.min_confidence
        self._fallback = FunctionWordDetector()

    def identify(self, text: str) -> tuple[str, float]:
        """The language and the model's confidence (0..1); ("und", 0.0) when unknowable."""
        text = _NOT_LANGUAGE.sub(" ", text)
        if word_count(text) < 2:
            return UNDETERMINED, 0.0
        language, probability = _identifier(self._languages).classify(text)
        if probability >= self._min_confidence:
            return str(language), round(float(probability), 4)
        return self._fallback.identify(text)
