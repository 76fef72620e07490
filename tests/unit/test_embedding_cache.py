"""CachedEmbedder over a counting fake Embedder and the real SQLite file; embedder selection."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from certiq.adapters.local.embedding_cache import CachedEmbedder
from certiq.adapters.local.minilm import ModelUnavailable, minilm_available
from certiq.adapters.local.minilm_int8 import missing_int8_requirements
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.bootstrap import build_deps
from certiq.config import EmbeddingSettings, Settings


class CountingEmbedder:
    """A fake Embedder: a fixed vector per (model name, text), and a record of every call."""

    def __init__(self, name: str = "fake-model", dimension: int = 8) -> None:
        self._name = name
        self._dimension = dimension
        self.calls: list[list[str]] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def embedded(self) -> list[str]:
        return [text for call in self.calls for text in call]

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        rows = np.empty((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            seed = hashlib.sha256(f"{self._name}\0{text}".encode()).digest()
            rows[row] = np.random.default_rng(list(seed)).normal(size=self._dimension)
        return np.asarray(rows / np.linalg.norm(rows, axis=1, keepdims=True), dtype=np.float32)


@pytest.fixture
def db(tmp_path: Path) -> SqliteDatabase:
    return SqliteDatabase(tmp_path)


# --- the cache ---------------------------------------------------------------------------------


def test_a_second_call_embeds_nothing(db: SqliteDatabase) -> None:
    # GIVEN texts embedded once through the cache
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, db)
    texts = ["backups are kept for 35 days", "invoices are kept for seven years"]
    first = cached.embed(texts)

    # WHEN the same texts are embedded again
    second = cached.embed(texts)

    # THEN the inner embedder was not asked again and the vectors are identical
    assert inner.calls == [texts]
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, CountingEmbedder().embed(texts))


def test_only_the_misses_are_embedded_each_distinct_text_once(db: SqliteDatabase) -> None:
    # GIVEN one text already cached
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, db)
    cached.embed(["seen"])

    # WHEN a call mixes it with a new text given twice
    rows = cached.embed(["new", "seen", "new"])

    # THEN only the new text was embedded, once, and every row is in input order
    assert inner.calls == [["seen"], ["new"]]
    np.testing.assert_array_equal(rows, CountingEmbedder().embed(["new", "seen", "new"]))


def test_misses_go_in_batches_of_batch_size(db: SqliteDatabase) -> None:
    # GIVEN a batch size of 2
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, db, batch_size=2)

    # WHEN five new texts are embedded
    cached.embed([f"text {i}" for i in range(5)])

    # THEN the inner embedder saw batches of 2, 2 and 1
    assert [len(call) for call in inner.calls] == [2, 2, 1]


def test_different_models_do_not_share_entries(db: SqliteDatabase) -> None:
    # GIVEN a text cached for one model
    first = CountingEmbedder("model-a")
    CachedEmbedder(first, db).embed(["the same text"])

    # WHEN another model embeds the same text through the same database
    second = CountingEmbedder("model-b")
    rows = CachedEmbedder(second, db).embed(["the same text"])

    # THEN the second model computed its own vector rather than reuse model-a's
    assert second.embedded == ["the same text"]
    np.testing.assert_array_equal(rows, CountingEmbedder("model-b").embed(["the same text"]))


def test_the_cache_survives_reopening_the_database(tmp_path: Path) -> None:
    # GIVEN a text embedded through the cache, and the database closed
    db = SqliteDatabase(tmp_path)
    CachedEmbedder(CountingEmbedder(), db).embed(["kept on disk"])
    db.close()

    # WHEN a new process opens the same folder and embeds the text
    inner = CountingEmbedder()
    CachedEmbedder(inner, SqliteDatabase(tmp_path)).embed(["kept on disk"])

    # THEN nothing was embedded
    assert inner.calls == []


def test_the_cache_takes_the_inner_name_and_dimension(db: SqliteDatabase) -> None:
    # GIVEN an inner embedder
    cached = CachedEmbedder(CountingEmbedder("m", 5), db)

    # THEN the cache reports it as itself, and an empty call embeds nothing
    assert (cached.name, cached.dimension) == ("m", 5)
    assert cached.embed([]).shape == (0, 5)


# --- selection (certiq.bootstrap) --------------------------------------------------------------


def settings(tmp_path: Path, **embedding: object) -> Settings:
    return Settings(home=tmp_path, embedding=EmbeddingSettings.model_validate(embedding))


def test_provider_none_is_lexical_only(tmp_path: Path) -> None:
    # GIVEN provider "none", WHEN the deps are built, THEN there is no embedder
    assert build_deps(settings(tmp_path, provider="none")).embedder is None


def test_auto_without_a_model_is_lexical_only(tmp_path: Path) -> None:
    # GIVEN provider "auto" and a model folder that holds no model
    empty = tmp_path / "no-model"
    empty.mkdir()

    # WHEN the deps are built, THEN there is no embedder (and no error)
    assert build_deps(settings(tmp_path, provider="auto", model_dir=empty)).embedder is None


@pytest.mark.skipif(not minilm_available(), reason="all-MiniLM-L6-v2 is not installed here")
@pytest.mark.skipif(bool(missing_int8_requirements()), reason="onnxruntime is not installed here")
def test_auto_with_the_model_installed_is_cached_int8_minilm(tmp_path: Path) -> None:
    # GIVEN provider "auto" where the model package and onnxruntime are installed
    # WHEN the deps are built
    embedder = build_deps(settings(tmp_path, provider="auto")).embedder

    # THEN the embedder is MiniLM's int8 model behind the SQLite cache
    assert isinstance(embedder, CachedEmbedder)
    assert (embedder.name, embedder.dimension) == ("all-MiniLM-L6-v2-int8", 384)


def test_minilm_without_its_model_fails_when_used(tmp_path: Path) -> None:
    # GIVEN provider "minilm" asked for explicitly, with a folder that holds no model
    empty = tmp_path / "no-model"
    empty.mkdir()
    embedder = build_deps(settings(tmp_path, provider="minilm", model_dir=empty)).embedder

    # WHEN it embeds, THEN it fails naming what is missing rather than fall back silently
    assert embedder is not None
    with pytest.raises(ModelUnavailable, match=r"lacks model\.safetensors"):
        embedder.embed(["a question"])


def test_openai_is_cached_and_named_after_its_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN provider "openai" with a key in the environment (no request is made here)
    pytest.importorskip("openai", reason="the openai SDK (extra: llm) is not installed")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    # WHEN the deps are built
    embedder = build_deps(
        settings(tmp_path, provider="openai", openai_model="text-embedding-3-large")
    ).embedder

    # THEN the embedder is the OpenAI model behind the cache
    assert isinstance(embedder, CachedEmbedder)
    assert (embedder.name, embedder.dimension) == ("text-embedding-3-large", 3072)
