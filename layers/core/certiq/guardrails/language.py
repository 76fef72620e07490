"""Offline language identification: py3langid's bundled model, backed by function words.

py3langid (a naive Bayes model over byte n-grams, shipped inside the package) decides when it is
confident; short or mixed texts fall back to scoring the commonest function words of a few
languages, which answers "und" when it cannot tell.
"""

from __future__ import annotations

import importlib.metadata
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


_identifiers: dict[tuple[str, ...], LanguageIdentifier] = {}
_loading = threading.Lock()


def _identifier(languages: tuple[str, ...], cache_dir: Path | None) -> LanguageIdentifier:
    """py3langid's model for ``languages``, loaded once per process (whichever detector asks
    first decides where it is cached)."""
    identifier = _identifiers.get(languages)
    if identifier is None:
        with _loading:
            identifier = _identifiers.get(languages)
            if identifier is None:
                identifier = _identifiers[languages] = _load_identifier(languages, cache_dir)
    return identifier


def _load_identifier(languages: tuple[str, ...], cache_dir: Path | None) -> LanguageIdentifier:
    """py3langid's model (bundled with the package, nothing downloaded).

    The bundled model is LZMA-compressed: unpacking it takes about 0.4 s, most of a CLI
    question's start-up. With a ``cache_dir`` the model, restricted to ``languages``, is kept
    there uncompressed after the first load, one .npy file per table, and read back memory-mapped:
    the 38 MB state table is paged in only where a text walks it."""
    # Imported here: py3langid loads numpy, which steps importing UNDETERMINED (every Lambda
    # function, through certiq.steps) should not pay for on a cold start.
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    cached = None
    if cache_dir is not None:
        version = importlib.metadata.version("py3langid")
        cached = cache_dir / f"py3langid-{version}-{'-'.join(languages)}"
        try:
            return _read_identifier(cached)
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            pass  # absent or unreadable: built from the bundled model below
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(languages))
    if cached is not None:
        _write_identifier(identifier, cached)
    return identifier


def _write_identifier(identifier: LanguageIdentifier, folder: Path) -> None:
    import shutil
    import tempfile

    import numpy as np

    folder.parent.mkdir(parents=True, exist_ok=True)
    tables = {
        "ptc": np.asarray(identifier.nb_ptc),
        "pc": np.asarray(identifier.nb_pc),
        "classes": np.array(identifier.nb_classes),
        "nextmove": np.frombuffer(
            identifier.tk_nextmove, dtype=f"u{identifier.tk_nextmove.itemsize}"
        ),
        "row": np.asarray(list(identifier.tk_row), dtype=np.int64),
        "output": np.asarray(identifier.tk_output),
    }
    partial = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    for name, table in tables.items():
        np.save(partial / f"{name}.npy", table, allow_pickle=False)
    shutil.rmtree(folder, ignore_errors=True)  # a damaged copy, never trusted
    for earlier in folder.parent.glob("py3langid-*.npz"):  # the single-file copies of old
        earlier.unlink(missing_ok=True)
    try:
        partial.replace(folder)  # readers never see half a model
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)  # another process kept it first


def _read_identifier(folder: Path) -> LanguageIdentifier:
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    def table(name: str, mmap: bool = False) -> Any:
        return np.load(folder / f"{name}.npy", mmap_mode="r" if mmap else None, allow_pickle=False)

    nextmove = table("nextmove", mmap=True)
    if nextmove.ndim != 1:
        raise ValueError(f"{folder}: the state table is not a vector")
    return LanguageIdentifier(
        table("ptc"),
        table("pc"),
        table("classes").tolist(),
        nextmove,
        table("output").tolist(),
        norm_probs=True,
        # Python ints: py3langid shifts each by 8 bits, which a uint16 would overflow.
        tk_row=table("row").tolist(),
    )


# Placeholders ([EMAIL_1]), citation markers and URLs say nothing about the language.
_NOT_LANGUAGE = re.compile(r"\[[A-Z][A-Z0-9_]*\]|https?://\S+")


class LangIdDetector:
    """Implements the LanguageDetector port with py3langid, offline.

    Chooses among ``settings.languages``; when its confidence is under ``min_confidence`` (short
    or mixed texts) the function-word detector decides, and may say "und".
    """

    def __init__(self, settings: TranslationSettings, cache_dir: Path | None = None) -> None:
        self._cache_dir = cache_dir
        self._languages = tuple(sorted(set(settings.languages)))
        self._min_confidence = settings.min_confidence
        self._fallback = FunctionWordDetector()

    def identify(self, text: str) -> tuple[str, float]:
        """The language and the model's confidence (0..1); ("und", 0.0) when unknowable."""
        text = _NOT_LANGUAGE.sub(" ", text)
        if word_count(text) < 2:
            return UNDETERMINED, 0.0
        language, probability = _identifier(self._languages, self._cache_dir).classify(text)
        if probability >= self._min_confidence:
            return str(language), round(float(probability), 4)
        return self._fallback.identify(text)
