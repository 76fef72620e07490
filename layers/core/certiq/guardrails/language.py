"""Offline language identification from function words.

A small, honest first version: it scores a text against the commonest function words of a few
languages. It cannot tell languages it has no list for; those come back as "und".
"""

from __future__ import annotations

from certiq.text import words

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

    def detect(self, text: str) -> str:
        tokens = words(text)
        if not tokens:
            return UNDETERMINED
        scores = {
            language: sum(token in vocabulary for token in tokens)
            for language, vocabulary in _FUNCTION_WORDS.items()
        }
        best = max(scores, key=lambda language: scores[language])
        ranked = sorted(scores.values(), reverse=True)
        if ranked[0] == 0 or ranked[0] == ranked[1]:
            return UNDETERMINED
        return best
