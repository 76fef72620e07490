"""certiq's reader as the RelevanceScorer, on onnxruntime when it is installed, else in numpy
(certiq.adapters.local.cross_encoder: the same scores).

A cross-encoder (sentence in its context, question) -> not_relevant / relevant, fine-tuned from
all-MiniLM-L6-v2 on qa/ (SQuAD, CUAD, QED, COVID-QA) and half of PolicyQA's policies
(scripts/train_reader.py; model card: models/reader/MODEL_CARD.md). It ships in the repository's
models/ folder, not in the package: the Lambda layer has no room for a second 45 MB model
(docs/aws.md), so in AWS span selection keeps the hand-set score.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from certiq.adapters.local.cross_encoder import (
    CrossEncoder,
    CrossEncoderUnavailable,
    Runtime,
    load_cross_encoder,
    missing_requirements,
    model_name,
)
from certiq.adapters.local.minilm import LoadedOnce

SETTING: Final = "CERTIQ_RETRIEVAL__SPAN_MODEL_DIR"
# The repository's copy (an editable install, as `make demo` makes); parents: local, adapters,
# certiq, core, layers, the repository.
SHIPPED_MODEL_DIR: Final = Path(__file__).resolve().parents[5] / "models" / "reader"
# A question and one sentence in its context: what it was trained on (scripts/train_reader.py).
MAX_LENGTH: Final = 128

__all__ = ["SETTING", "SHIPPED_MODEL_DIR", "CrossEncoderRelevance", "missing_requirements"]


def _load(model_dir: Path, runtime: Runtime) -> tuple[CrossEncoder, int]:
    model = load_cross_encoder(model_dir, SETTING, MAX_LENGTH, runtime)
    relevant = model.label_index("relevant")
    if relevant is None:
        raise CrossEncoderUnavailable(
            f"{model_dir}/config.json id2label {list(enumerate(model.labels))} names no "
            "'relevant' label: not a relevance model"
        )
    return model, relevant


class CrossEncoderRelevance:
    """Implements RelevanceScorer: P(relevant) of each (sentence, question), loaded on first use."""

    def __init__(self, model_dir: Path = SHIPPED_MODEL_DIR, runtime: Runtime = "auto") -> None:
        self._model_dir = model_dir
        self._model = LoadedOnce(lambda: _load(self._model_dir, runtime))

    @property
    def name(self) -> str:
        return model_name(self._model_dir)

    def relevance(self, question: str, sentences: Sequence[str]) -> list[float]:
        if not sentences:
            return []
        model, relevant = self._model.get()
        probabilities = model.probabilities([(sentence, question) for sentence in sentences])
        return [float(p) for p in probabilities[:, relevant]]
