"""An Embedder that remembers: vectors by (model name, SHA-256 of the text) in the SQLite file.

Re-ingesting a document, or asking the same question twice, embeds nothing already seen. Only
the misses reach the inner embedder, each distinct text once, in batches of ``batch_size``; each
batch is stored as soon as it is computed, so an interrupted run keeps what it paid for. Entries
are keyed by the inner embedder's name, so two models never share (or mix up) vectors. Questions
embedded by a QueryEmbedder (e5's "query: ") are kept under the name followed by QUERY_SUFFIX, so
a question and a passage of the same text never share a vector; a symmetric model's questions
share its passages' entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.ports import Embedder, QueryEmbedder

# Keys per SELECT ... IN (...): far below SQLite's limit on bound parameters.
LOOKUP_CHUNK: Final = 500
# The cache's model column for a QueryEmbedder's questions: its name and this.
QUERY_SUFFIX: Final = " [query]"
_VECTOR_DTYPE: Final = np.dtype("<f4")


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Implements certiq.ports.QueryEmbedder over another Embedder and the embedding_cache table.

    ``embed_queries`` is the inner embedder's when it has one, otherwise ``embed``.
    """

    def __init__(self, inner: Embedder, db: SqliteDatabase, *, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self._inner = inner
        self._db = db
        self._batch_size = batch_size

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self._cached(texts, self._inner.embed, self.name)

    def embed_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if isinstance(self._inner, QueryEmbedder):
            return self._cached(texts, self._inner.embed_queries, self.name + QUERY_SUFFIX)
        return self._cached(texts, self._inner.embed, self.name)

    def _cached(
        self,
        texts: Sequence[str],
        compute: Callable[[Sequence[str]], NDArray[np.float32]],
        model: str,
    ) -> NDArray[np.float32]:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        keys = [text_key(text) for text in texts]
        found = self._lookup(list(dict.fromkeys(keys)), model)
        misses: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found:
                misses.setdefault(key, text)
        pending = list(misses.items())
        for start in range(0, len(pending), self._batch_size):
            batch = pending[start : start + self._batch_size]
            vectors = compute([text for _, text in batch])
            if vectors.shape != (len(batch), self.dimension):
                raise ValueError(
                    f"{self.name} returned shape {vectors.shape} for {len(batch)} texts"
                )
            rows = [
                (key, np.asarray(vector, dtype=np.float32))
                for (key, _), vector in zip(batch, vectors, strict=True)
            ]
            self._store(rows, model)
            found.update(rows)
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def _lookup(self, keys: list[str], model: str) -> dict[str, NDArray[np.float32]]:
        found: dict[str, NDArray[np.float32]] = {}
        with self._db.read() as conn:
            for start in range(0, len(keys), LOOKUP_CHUNK):
                chunk = keys[start : start + LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                cursor = conn.execute(
                    "SELECT text_sha256, vector FROM embedding_cache"
                    f" WHERE model = ? AND dimension = ? AND text_sha256 IN ({marks})",
                    (model, self.dimension, *chunk),
                )
                for key, blob in cursor:
                    vector = np.frombuffer(blob, dtype=_VECTOR_DTYPE)
                    if vector.shape == (self.dimension,):
                        found[key] = vector.astype(np.float32)
        return found

    def _store(self, rows: list[tuple[str, NDArray[np.float32]]], model: str) -> None:
        with self._db.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache (model, text_sha256, dimension, vector)"
                " VALUES (?, ?, ?, ?)",
                [
                    (model, key, self.dimension, vector.astype(_VECTOR_DTYPE).tobytes())
                    for key, vector in rows
                ],
            )
