"""The local NLI slot: loading a BERT sequence-classification folder, and every refusal.

No NLI weights ship here, so the model is generated: a tiny BERT (random weights, a WordLevel
tokenizer with BERT's pair template) written in the files and layout a real checkpoint uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from safetensors.numpy import save_file
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from tokenizers.processors import TemplateProcessing

from certiq.adapters.local.nli import NliModelUnavailable, NliVerifier

HIDDEN, LAYERS, HEADS, INTERMEDIATE = 8, 2, 2, 16
WORDS = "backups are kept for 35 days not encrypted logs rotate weekly".split()
LABELS = {"0": "CONTRADICTION", "1": "ENTAILMENT", "2": "NEUTRAL"}


def write_model(
    folder: Path,
    *,
    labels: dict[str, str] = LABELS,
    model_type: str = "bert",
    favour: int | None = None,
    drop: str | None = None,
) -> Path:
    """A tiny BertForSequenceClassification; ``favour``: a label index the classifier's bias
    makes near certain, whatever the input."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    vocab.update({word: i + 4 for i, word in enumerate(WORDS)})
    tokenizer = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    tokenizer.save(str(folder / "tokenizer.json"))
    config = {
        "model_type": model_type,
        "architectures": ["BertForSequenceClassification"],
        "hidden_size": HIDDEN,
        "num_hidden_layers": LAYERS,
        "num_attention_heads": HEADS,
        "intermediate_size": INTERMEDIATE,
        "max_position_embeddings": 64,
        "type_vocab_size": 2,
        "layer_norm_eps": 1e-12,
        "id2label": labels,
    }
    (folder / "config.json").write_text(json.dumps(config))
    rng = np.random.default_rng(7)

    def matrix(*shape: int) -> Any:
        return rng.normal(0.0, 0.5, size=shape).astype(np.float32)

    weights: dict[str, Any] = {
        "bert.embeddings.word_embeddings.weight": matrix(len(vocab), HIDDEN),
        "bert.embeddings.position_embeddings.weight": matrix(64, HIDDEN),
        "bert.embeddings.token_type_embeddings.weight": matrix(2, HIDDEN),
        "bert.embeddings.LayerNorm.weight": np.ones(HIDDEN, np.float32),
        "bert.embeddings.LayerNorm.bias": np.zeros(HIDDEN, np.float32),
        "bert.pooler.dense.weight": matrix(HIDDEN, HIDDEN),
        "bert.pooler.dense.bias": matrix(HIDDEN),
        "classifier.weight": matrix(len(labels), HIDDEN),
        "classifier.bias": np.zeros(len(labels), np.float32),
    }
    for layer in range(LAYERS):
        p = f"bert.encoder.layer.{layer}."
        for name, (rows, cols) in {
            "attention.self.query": (HIDDEN, HIDDEN),
            "attention.self.key": (HIDDEN, HIDDEN),
            "attention.self.value": (HIDDEN, HIDDEN),
            "attention.output.dense": (HIDDEN, HIDDEN),
            "intermediate.dense": (INTERMEDIATE, HIDDEN),
            "output.dense": (HIDDEN, INTERMEDIATE),
        }.items():
            weights[f"{p}{name}.weight"] = matrix(rows, cols)
            weights[f"{p}{name}.bias"] = matrix(rows)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            weights[f"{p}{norm}.weight"] = np.ones(HIDDEN, np.float32)
            weights[f"{p}{norm}.bias"] = np.zeros(HIDDEN, np.float32)
    if favour is not None:
        weights["classifier.weight"] = np.zeros((len(labels), HIDDEN), np.float32)
        weights["classifier.bias"][favour] = 20.0
    if drop is not None:
        del weights[drop]
    save_file(weights, str(folder / "model.safetensors"))
    return folder


def test_probabilities_come_from_the_model_and_depend_on_the_pair(tmp_path: Path) -> None:
    # GIVEN a generated BERT NLI classifier
    verifier = NliVerifier(write_model(tmp_path / "nli"))
    # WHEN two different pairs are assessed
    same = verifier.assess("backups are kept for 35 days", ["backups are kept for 35 days"])
    other = verifier.assess("logs rotate weekly", ["backups are not encrypted"])
    # THEN each is a probability, and the model read its input (the pairs differ)
    for support in (same, other):
        assert 0.0 < support.entail < 1.0 and 0.0 < support.contradict < 1.0
        assert support.entail + support.contradict < 1.0  # neutral takes the rest
    assert (same.entail, same.contradict) != (other.entail, other.contradict)
    assert verifier.name == "nli:nli"


def test_labels_are_read_from_id2label_not_assumed(tmp_path: Path) -> None:
    # GIVEN two classifiers whose bias picks output 1, labelled entailment in one and
    # contradiction in the other
    entails = NliVerifier(write_model(tmp_path / "a", favour=1))
    swapped = {"0": "entailment", "1": "contradiction", "2": "neutral"}
    contradicts = NliVerifier(write_model(tmp_path / "b", labels=swapped, favour=1))
    # WHEN assessed / THEN the label names decide which score is high
    assert entails.assess("backups", ["backups"]).entail > 0.99
    support = contradicts.assess("backups", ["backups"])
    assert support.contradict > 0.99 and support.entail < 0.01


def test_segment_ids_separate_premise_and_claim(tmp_path: Path) -> None:
    # GIVEN the same words as premise and claim in either order
    verifier = NliVerifier(write_model(tmp_path / "nli"))
    # WHEN assessed both ways / THEN the results differ: the pair is ordered, not a bag of words
    forward = verifier.assess("logs rotate weekly", ["backups are kept"])
    backward = verifier.assess("backups are kept", ["logs rotate weekly"])
    assert forward != backward


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda folder: folder / "absent", "is not a folder"),
        (lambda folder: folder, "lacks config.json, model.safetensors, tokenizer.json"),
        (
            lambda folder: write_model(folder / "r", model_type="roberta"),
            "holds a 'roberta' model; only BERT-architecture",
        ),
        (
            lambda folder: write_model(folder / "l", labels={"0": "negative", "1": "positive"}),
            "does not name one entailment and one contradiction label",
        ),
        (
            lambda folder: write_model(folder / "c", drop="classifier.weight"),
            "lacks 'classifier.weight': not a sequence classifier",
        ),
        (
            lambda folder: write_model(folder / "e", drop="bert.embeddings.word_embeddings.weight"),
            "embeddings.word_embeddings.weight",
        ),
    ],
)
def test_a_folder_that_cannot_load_fails_naming_what_is_missing(
    tmp_path: Path, setup: Any, message: str
) -> None:
    # GIVEN a folder setting that is unset, wrong or incomplete
    verifier = NliVerifier(setup(tmp_path))
    # WHEN the model is loaded / THEN the error says what is missing
    with pytest.raises(NliModelUnavailable) as raised:
        verifier.check()
    assert message in str(raised.value)
