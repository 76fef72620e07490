"""The RelevanceScorer port on its adapter: certiq's reader (models/reader), on
onnxruntime and in numpy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from certiq.adapters.local import relevance
from certiq.adapters.local.cross_encoder import CrossEncoderUnavailable
from certiq.adapters.local.relevance import SHIPPED_MODEL_DIR, CrossEncoderRelevance
from certiq.bootstrap import build_relevance
from certiq.config import RetrievalSettings, Settings
from certiq.errors import ConfigurationError

QUESTION = "How long are support tickets kept?"
ANSWER = "Support tickets are kept for 3 years after they are closed."
UNRELATED = [
    "The supplier must notify the customer of a breach within 24 hours.",
    "Visitors must sign in at reception.",
    "Passwords must be at least 14 characters long.",
]


@pytest.fixture(scope="module", params=["onnxruntime", "numpy"])
def shipped(request: pytest.FixtureRequest) -> CrossEncoderRelevance:
    return CrossEncoderRelevance(SHIPPED_MODEL_DIR, runtime=request.param)


def test_one_probability_per_sentence_in_order(shipped: CrossEncoderRelevance) -> None:
    sentences = [ANSWER, *UNRELATED]
    scores = shipped.relevance(QUESTION, sentences)
    assert len(scores) == len(sentences)
    assert all(0.0 <= score <= 1.0 for score in scores)
    # The same sentences reversed get the same scores reversed: each is read on its own.
    assert shipped.relevance(QUESTION, sentences[::-1]) == pytest.approx(scores[::-1], abs=1e-5)


def test_no_sentences_no_scores(shipped: CrossEncoderRelevance) -> None:
    assert shipped.relevance(QUESTION, []) == []


def test_the_answering_sentence_scores_above_the_others(shipped: CrossEncoderRelevance) -> None:
    scores = shipped.relevance(QUESTION, [ANSWER, *UNRELATED])
    assert scores[0] > max(scores[1:])


def test_the_model_is_named_by_its_config(shipped: CrossEncoderRelevance) -> None:
    assert shipped.name == "certiq-reader-minilm-v1"


def test_a_model_without_a_relevant_label_is_refused(tmp_path: Path) -> None:
    # GIVEN the verifier's folder layout with an NLI model's labels
    folder = tmp_path / "nli"
    shutil.copytree(SHIPPED_MODEL_DIR, folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["id2label"] = {"0": "entailment", "1": "contradiction"}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    # WHEN it is asked THEN the error says it is not a relevance model
    with pytest.raises(CrossEncoderUnavailable, match="not a relevance model"):
        CrossEncoderRelevance(folder).relevance(QUESTION, [ANSWER])


def test_a_missing_chosen_model_folder_is_a_configuration_error_naming_the_way_out(
    tmp_path: Path,
) -> None:
    settings = Settings(
        home=tmp_path,
        retrieval=RetrievalSettings(span_scorer="model", span_model_dir=tmp_path / "absent"),
    )
    with pytest.raises(ConfigurationError, match="SPAN_SCORER=weighted"):
        build_relevance(settings)


def test_without_the_repository_s_model_the_hand_set_score_ranks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN an installed certiq: no models/ folder where the repository keeps it
    monkeypatch.setattr(relevance, "SHIPPED_MODEL_DIR", tmp_path / "models" / "reader")
    # WHEN the model is chosen THEN the hand-set score ranks, and nothing stops
    settings = Settings(home=tmp_path, retrieval=RetrievalSettings(span_scorer="model"))
    assert build_relevance(settings) is None


def test_the_model_ranks_by_default_locally_and_the_hand_set_score_when_chosen_or_in_aws(
    tmp_path: Path,
) -> None:
    # GIVEN the default settings WHEN the relevance scorer is built THEN it is the shipped model
    default = build_relevance(Settings(home=tmp_path))
    assert default is not None and default.name == "certiq-reader-minilm-v1"
    # AND the hand-set score ranks when chosen, and in AWS, whose layer has no room for it
    weighted = RetrievalSettings(span_scorer="weighted")
    assert build_relevance(Settings(home=tmp_path, retrieval=weighted)) is None
    assert build_relevance(Settings(home=tmp_path, runtime="aws")) is None
