"""BM25 in numpy over FTS5's own tokens: one in-memory postings index per tenant.

FTS5 stays the durable store and the fallback; this index only makes lexical search fast. It is
built lazily from the SQLite file, from the tokens FTS5 itself stored (read through an
``fts5vocab`` 'instance' table, so Porter stemming and unicode61 folding are FTS5's exactly), and
rebuilt when the tenant's ``chunk_generations`` row changes, like the dense vectors
(certiq.adapters.local.dense).

Scoring is FTS5's bm25() (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)) floored at
1e-6), summed over the query's phrases in order, in float64. One difference: the statistics (N,
n, the average length) are the tenant's own, where FTS5 pools every tenant of the file. With one
tenant in the file the scores are FTS5's; with several, no tenant's words move another's scores.

Each term's postings are (position, weight) arrays with the BM25 weight precomputed, so a query is
a handful of fancy-index additions, a collection mask and an O(n) top-k (dense.top_k), ties by row
id. The tenant's chunks are parsed once and kept, so hits share them: **the chunks of hits are
read-only** (callers copy before changing one; get_chunks always returns fresh copies).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.dense import top_k
from certiq.models import Chunk

# FTS5's bm25() parameters and the tokenizer of chunks_fts (certiq.adapters.local.sqlite_db).
K1: Final = 1.2
B: Final = 0.75
MIN_IDF: Final = 1e-6
TOKENIZER: Final = "porter unicode61"

_NO_COLLECTION: Final = -1
_EMPTY_POSITIONS: Final = np.empty(0, dtype=np.int64)
# Words whose FTS5 tokens are remembered; the memo is cleared past this size.
_MEMO_LIMIT: Final = 100_000


class QueryTokenizer:
    """FTS5's tokens for query words, from a private in-memory SQLite with the same tokenizer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._memo: dict[str, tuple[str, ...]] = {}

    def tokens(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Each word's tokens as FTS5 indexes them (usually one; none or several are possible)."""
        with self._lock:
            unknown = [word for word in dict.fromkeys(words) if word not in self._memo]
            if unknown:
                if len(self._memo) + len(unknown) > _MEMO_LIMIT:
                    self._memo.clear()
                self._memo.update(self._tokenize(unknown))
            return [self._memo[word] for word in words]

    def _tokenize(self, words: list[str]) -> dict[str, tuple[str, ...]]:
        conn = self._connection()
        conn.execute("DELETE FROM words")
        conn.executemany("INSERT INTO words (rowid, t) VALUES (?, ?)", enumerate(words))
        found: dict[int, list[str]] = {}
        for doc, term in conn.execute("SELECT doc, term FROM vocab ORDER BY doc, offset"):
            found.setdefault(int(doc), []).append(str(term))
        return {word: tuple(found.get(i, ())) for i, word in enumerate(words)}

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            conn.execute(f"CREATE VIRTUAL TABLE words USING fts5(t, tokenize = '{TOKENIZER}')")
            conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(words, 'instance')")
            self._conn = conn
        return self._conn


@dataclass(frozen=True)
class TenantLexicon:
    """One tenant's postings with BM25 weights, its collections and its parsed chunks."""

    generation: int
    ids: NDArray[np.int64]  # row ids (chunks.id), ascending; a position indexes every array
    collections: NDArray[np.int32]
    labels: dict[str, int]
    chunks: tuple[Chunk, ...]
    postings: dict[str, tuple[NDArray[np.int64], NDArray[np.float64]]]

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @classmethod
    def build(cls, conn: sqlite3.Connection, tenant: str, generation: int) -> TenantLexicon:
        """From the tenant's chunks and FTS5's stored tokens. Call inside one read transaction."""
        ids_list: list[int] = []
        codes: list[int] = []
        chunks: list[Chunk] = []
        labels: dict[str, int] = {}
        for row_id, collection, body in conn.execute(
            "SELECT id, collection, body FROM chunks WHERE tenant = ? ORDER BY id", (tenant,)
        ):
            ids_list.append(int(row_id))
            codes.append(
                _NO_COLLECTION if collection is None else labels.setdefault(collection, len(labels))
            )
            chunks.append(Chunk.model_validate_json(body))
        ids = np.asarray(ids_list, dtype=np.int64)

        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.certiq_fts_terms"
            " USING fts5vocab(main, chunks_fts, 'row')"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.certiq_fts_instances"
            " USING fts5vocab(main, chunks_fts, 'instance')"
        )
        # Both tables walk the FTS5 index in term order, so each term's instances are the next
        # ``cnt`` rows of the instance table (checked below).
        terms: list[str] = []
        counts: list[int] = []
        for term, cnt in conn.execute("SELECT term, cnt FROM temp.certiq_fts_terms"):
            terms.append(str(term))
            counts.append(int(cnt))
        docs = np.fromiter(
            (row[0] for row in conn.execute("SELECT doc FROM temp.certiq_fts_instances")),
            dtype=np.int64,
        )
        if docs.shape[0] != sum(counts):
            raise RuntimeError("fts5vocab tables disagree: the index changed while being read")

        # Keep the tenant's instances; a position in ``ids`` per instance.
        where = np.searchsorted(ids, docs)
        where_clipped = np.minimum(where, max(len(ids_list) - 1, 0))
        mine = ids[where_clipped] == docs if len(ids_list) else np.zeros(docs.shape, dtype=np.bool_)
        term_of = np.repeat(np.arange(len(terms), dtype=np.int64), counts)[mine]
        position = where_clipped[mine]
        # (term, position) pairs with their term frequency; term_of is already ascending.
        pair = term_of * max(len(ids_list), 1) + position
        keys, tf = np.unique(pair, return_counts=True)
        key_term = keys // max(len(ids_list), 1)
        key_position = keys % max(len(ids_list), 1)

        n_rows = len(ids_list)
        lengths = np.bincount(position, minlength=n_rows).astype(np.float64)
        average = float(lengths.sum()) / n_rows if n_rows else 1.0
        postings: dict[str, tuple[NDArray[np.int64], NDArray[np.float64]]] = {}
        if keys.shape[0]:
            frequency = tf.astype(np.float64)
            norm = frequency + K1 * (1 - B + B * lengths[key_position] / average)
            saturation = (frequency * (K1 + 1.0)) / norm
            starts = np.flatnonzero(np.r_[True, key_term[1:] != key_term[:-1]])
            ends = np.r_[starts[1:], keys.shape[0]]
            for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
                hits = end - start
                idf = math.log((n_rows - hits + 0.5) / (hits + 0.5))
                if idf <= 0.0:
                    idf = MIN_IDF
                postings[terms[int(key_term[start])]] = (
                    key_position[start:end].copy(),
                    idf * saturation[start:end],
                )
        return cls(
            generation=generation,
            ids=ids,
            collections=np.asarray(codes, dtype=np.int32),
            labels=labels,
            chunks=tuple(chunks),
            postings=postings,
        )

    def search(
        self, phrases: Sequence[str], k: int, collection: str | None = None
    ) -> list[tuple[Chunk, float]]:
        """(chunk, BM25 score) of the k best rows matching any phrase (one token each)."""
        if k <= 0 or len(self) == 0:
            return []
        scores = np.zeros(len(self), dtype=np.float64)
        for phrase in phrases:
            positions, weights = self.postings.get(phrase, (_EMPTY_POSITIONS, _EMPTY_POSITIONS))
            scores[positions] += weights  # positions are distinct within a term
        # Every weight is positive, so a row matched exactly when its score is.
        matched = scores > 0.0
        if collection is not None:
            code = self.labels.get(collection)
            if code is None:
                return []
            matched &= self.collections == code
        rows = np.flatnonzero(matched)
        picked = scores[rows]
        best = rows[top_k(picked, k)]
        chunks = self.chunks
        return [
            (chunks[i], score)
            for i, score in zip(best.tolist(), scores[best].tolist(), strict=True)
        ]
