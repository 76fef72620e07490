"""The LanguageDetector port on both adapters: py3langid (the default) and function words."""

from __future__ import annotations

import pytest

from certiq.config import TranslationSettings
from certiq.guardrails.language import UNDETERMINED, FunctionWordDetector, LangIdDetector
from certiq.ports import LanguageDetector


@pytest.fixture(params=["langid", "function-words"])
def detector(request: pytest.FixtureRequest) -> LanguageDetector:
    if request.param == "langid":
        return LangIdDetector(TranslationSettings())
    return FunctionWordDetector()


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("How long are backups of customer data kept in the archive?", "en"),
        ("Combien de temps les sauvegardes des données sont-elles conservées ?", "fr"),
        ("Wie lange werden die Sicherungen der Kundendaten aufbewahrt?", "de"),
    ],
)
def test_a_sentence_is_identified(detector: LanguageDetector, text: str, language: str) -> None:
    detected, confidence = detector.identify(text)
    assert detected == language
    assert 0.0 < confidence <= 1.0


@pytest.mark.parametrize("text", ["", "   ", "retention"])
def test_too_little_text_is_undetermined(detector: LanguageDetector, text: str) -> None:
    assert detector.identify(text) == (UNDETERMINED, 0.0)
