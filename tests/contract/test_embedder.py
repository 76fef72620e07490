"""Contract of certiq.ports.Embedder, run on the local adapters: all-MiniLM-L6-v2 in float32 on
numpy, its int8 graph on onnxruntime (the default), and the SQLite cache in front of it.

OpenAI's embedder is held to its HTTP contract in tests/unit/test_openai_embedder.py (a fake of
the API, whose vectors are not meaningful).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from certiq.adapters.local.embedding_cache import CachedEmbedder
from certiq.adapters.local.minilm import INSTALL_HINT, MiniLmEmbedder, minilm_available
from certiq.adapters.local.minilm_int8 import MiniLmInt8Embedder, missing_int8_requirements
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.ports import Embedder

needs_minilm = pytest.mark.skipif(
    not minilm_available(), reason=f"all-MiniLM-L6-v2 is not installed here ({INSTALL_HINT})"
)
needs_int8 = pytest.mark.skipif(
    bool(missing_int8_requirements()), reason="; ".join(missing_int8_requirements())
)
# One instance per adapter for the module: each model loads once.
FLOAT32 = MiniLmEmbedder(batch_size=4)
INT8 = MiniLmInt8Embedder()


@pytest.fixture(
    params=[
        pytest.param("minilm-float32", marks=needs_minilm),
        pytest.param("minilm-int8", marks=needs_int8),
        pytest.param("cached-minilm-int8", marks=needs_int8),
    ]
)
def embedder(request: pytest.FixtureRequest, tmp_path: Path) -> Embedder:
    if request.param == "minilm-float32":
        return FLOAT32
    if request.param == "minilm-int8":
        return INT8
    return CachedEmbedder(INT8, SqliteDatabase(tmp_path), batch_size=3)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_one_unit_float32_row_per_text(embedder: Embedder) -> None:
    # GIVEN texts including an empty one
    texts = ["Backups are kept for 35 days.", "", "x"]

    # WHEN they are embedded
    rows = embedder.embed(texts)

    # THEN one unit float32 row of the embedder's dimension per text
    assert rows.shape == (3, embedder.dimension) and rows.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_no_texts_give_no_rows(embedder: Embedder) -> None:
    assert embedder.embed([]).shape == (0, embedder.dimension)


def test_one_string_is_refused_rather_than_read_as_characters(embedder: Embedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed("a question")  # type: ignore[arg-type]


def test_the_same_call_gives_the_same_vectors(embedder: Embedder) -> None:
    # GIVEN texts of different lengths
    texts = ["How long are backups kept?", "Invoices are kept for seven years. " * 5]

    # WHEN they are embedded twice, THEN the vectors are identical
    np.testing.assert_array_equal(embedder.embed(texts), embedder.embed(texts))


def test_rows_come_back_in_input_order_whatever_their_lengths(embedder: Embedder) -> None:
    # GIVEN texts of very different lengths in no particular order (batched by length inside)
    texts = [
        "short question about refunds",
        "a somewhat longer sentence about the retention of invoices " * 6,
        "mid length text about security incidents",
        "the cafeteria menu on fridays",
        "another long one about laptops and the software staff may install " * 4,
        "the last text, of medium length, about access reviews",
    ]

    # WHEN they are embedded together and one by one
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([text]) for text in texts])

    # THEN row i of the batch is text i's own vector. The int8 model quantizes each batch's
    # activations with one scale, so its rows move a little with their batch-mates.
    for row, (mixed, single) in enumerate(zip(together, alone, strict=True)):
        assert cosine(mixed, single) > 0.98, texts[row]
        others = [cosine(mixed, other) for i, other in enumerate(alone) if i != row]
        assert cosine(mixed, single) > max(others), texts[row]


def test_related_sentences_are_closer_than_unrelated(embedder: Embedder) -> None:
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


def test_the_name_says_which_model_made_the_vectors(embedder: Embedder) -> None:
    # THEN the name is that of the model whose vectors these are: int8 and float32 differ
    assert embedder.name in {"all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8"}
    assert embedder.dimension == 384
