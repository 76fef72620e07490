"""BM25 in numpy over FTS5's own tokens: one tenant's compact postings, kept up to date in place.

FTS5 stays the durable store and the fallback; this index only makes lexical search fast. Its
base is read from the SQLite file, from the tokens FTS5 itself stored (an ``fts5vocab``
'instance' table, walked in blocks of terms so building never holds the whole table), so Porter
stemming and unicode61 folding are FTS5's exactly. Rows written later are tokenized by the same
tokenizer in a private in-memory table and added as a small segment; deleted rows are masked.
certiq.adapters.local.fts_index decides when the changes are many enough to rebuild instead.

Postings are compressed-sparse by term, as bm25s keeps them: per segment, one int32 array of row
positions and one float32 array of BM25 term saturations, cut by term. A query adds
``idf * saturation`` of its terms' postings into one score per row, masks dead rows and other
collections, and takes the top k in O(n) (dense.top_k), ties by position. Only positions and
scores come out: the caller reads the chunks of the hits it keeps.

Scoring is FTS5's bm25() (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)) floored at
1e-6), with the tenant's own statistics where FTS5 pools every tenant of the file. Right after a
build the scores are FTS5's (to float32 rounding). Between builds, as in Lucene until segments
merge, N and the document frequencies still count deleted rows, and the average length is the
base's.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.dense import top_k
from certiq.adapters.local.rows import Changes, RowTable

# FTS5's bm25() parameters and the tokenizer of chunks_fts (certiq.adapters.local.sqlite_db).
K1: Final = 1.2
B: Final = 0.75
MIN_IDF: Final = 1e-6
TOKENIZER: Final = "porter unicode61"

# Words whose FTS5 tokens are remembered; the memo is cleared past this size.
_MEMO_LIMIT: Final = 100_000
# Token instances read from the FTS5 index per step of a build.
_BUILD_BLOCK: Final = 1 << 19
# Segments of rows added since the base; past this many they are merged into one.
_MAX_SEGMENTS: Final = 8

Positions = NDArray[np.int32]
Saturations = NDArray[np.float32]
_NO_POSTINGS: Final = (np.empty(0, dtype=np.int32), np.empty(0, dtype=np.float32))


class Fts5Tokenizer:
    """FTS5's tokens for text, from a private in-memory SQLite with the same tokenizer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._memo: dict[str, tuple[str, ...]] = {}

    def tokens(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Each query word's tokens (usually one; none or several are possible), remembered."""
        with self._lock:
            unknown = [word for word in dict.fromkeys(words) if word not in self._memo]
            if unknown:
                if len(self._memo) + len(unknown) > _MEMO_LIMIT:
                    self._memo.clear()
                found = self._tokenize(unknown)
                self._memo.update((word, tuple(found[i])) for i, word in enumerate(unknown))
            return [self._memo[word] for word in words]

    def texts(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's tokens in order, as FTS5 indexes it."""
        with self._lock:
            return self._tokenize(texts)

    def _tokenize(self, texts: Sequence[str]) -> list[list[str]]:
        conn = self._connection()
        conn.execute("DELETE FROM texts")
        conn.executemany("INSERT INTO texts (rowid, t) VALUES (?, ?)", enumerate(texts))
        found: list[list[str]] = [[] for _ in texts]
        for doc, term in conn.execute("SELECT doc, term FROM vocab ORDER BY doc, offset"):
            found[int(doc)].append(str(term))
        return found

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            conn.execute(f"CREATE VIRTUAL TABLE texts USING fts5(t, tokenize = '{TOKENIZER}')")
            conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(texts, 'instance')")
            self._conn = conn
        return self._conn


def saturation(
    frequency: NDArray[np.int32], length: NDArray[np.float64], average: float
) -> Saturations:
    """BM25's term-frequency part: tf (k1 + 1) / (tf + k1 (1 - b + b len / avglen))."""
    tf = frequency.astype(np.float64)
    return (tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average))).astype(np.float32)


def idf(rows: int, frequency: int) -> float:
    value = math.log((rows - frequency + 0.5) / (frequency + 0.5))
    return value if value > 0.0 else MIN_IDF


@dataclass(frozen=True)
class Postings:
    """One segment's postings, cut by term: term ``t`` holds entries starts[t] to starts[t+1]."""

    terms: dict[str, int]
    starts: NDArray[np.int64]
    positions: Positions
    saturations: Saturations

    @classmethod
    def of(
        cls,
        vocabulary: Sequence[str],
        term_of: NDArray[np.int64],
        positions: Positions,
        saturations: Saturations,
    ) -> Postings:
        """From entries sorted by term (then position); terms without entries are dropped."""
        counts = np.bincount(term_of, minlength=len(vocabulary))
        return cls.counted(vocabulary, counts, positions, saturations)

    @classmethod
    def counted(
        cls,
        vocabulary: Sequence[str],
        counts: NDArray[np.int64],
        positions: Positions,
        saturations: Saturations,
    ) -> Postings:
        """From entries sorted by term, ``counts[t]`` of them for vocabulary[t]."""
        kept = np.flatnonzero(counts)
        starts = np.zeros(kept.shape[0] + 1, dtype=np.int64)
        np.cumsum(counts[kept], out=starts[1:])
        return cls(
            terms={vocabulary[int(t)]: i for i, t in enumerate(kept.tolist())},
            starts=starts,
            positions=positions,
            saturations=saturations,
        )

    @classmethod
    def merged(cls, segments: Sequence[Postings]) -> Postings:
        """One segment holding the entries of all, positions ascending within each term."""
        vocabulary = sorted({term for segment in segments for term in segment.terms})
        term_parts: list[NDArray[np.int64]] = []
        position_parts: list[Positions] = []
        saturation_parts: list[Saturations] = []
        for number, term in enumerate(vocabulary):
            for segment in segments:
                positions, saturations = segment.get(term)
                term_parts.append(np.full(positions.shape[0], number, dtype=np.int64))
                position_parts.append(positions)
                saturation_parts.append(saturations)
        term_of = np.concatenate(term_parts) if term_parts else np.empty(0, dtype=np.int64)
        positions = np.concatenate(position_parts) if position_parts else _NO_POSTINGS[0]
        saturations = np.concatenate(saturation_parts) if saturation_parts else _NO_POSTINGS[1]
        order = np.lexsort((positions, term_of))
        return cls.of(vocabulary, term_of[order], positions[order], saturations[order])

    def get(self, term: str) -> tuple[Positions, Saturations]:
        number = self.terms.get(term)
        if number is None:
            return _NO_POSTINGS
        start, end = int(self.starts[number]), int(self.starts[number + 1])
        return self.positions[start:end], self.saturations[start:end]

    def frequency(self, term: str) -> int:
        number = self.terms.get(term)
        return 0 if number is None else int(self.starts[number + 1] - self.starts[number])

    @property
    def nbytes(self) -> int:
        return int(self.starts.nbytes + self.positions.nbytes + self.saturations.nbytes)


class TenantLexicon:
    """One tenant's postings: the base segment, segments of rows added since, and its rows.

    Not thread-safe: the search index calls it under the database's lock.
    """

    def __init__(self, seq: int, rows: RowTable, base: Postings, average_length: float) -> None:
        self.seq = seq  # the last change of the log this index reflects
        self.rows = rows
        self.average_length = average_length
        self._segments: list[Postings] = [base]

    def __len__(self) -> int:
        return self.rows.size

    @property
    def nbytes(self) -> int:
        return sum(segment.nbytes for segment in self._segments)

    @classmethod
    def build(cls, conn: sqlite3.Connection, tenant: str, seq: int) -> TenantLexicon:
        """From the tenant's rows and FTS5's stored tokens. Call inside one read transaction."""
        ids: list[int] = []
        collections: list[str | None] = []
        for row_id, collection in conn.execute(
            "SELECT id, collection FROM chunks WHERE tenant = ? ORDER BY id", (tenant,)
        ):
            ids.append(int(row_id))
            collections.append(collection)
        rows = RowTable(np.asarray(ids, dtype=np.int64), collections)
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
        vocabulary: list[str] = []
        counts: list[int] = []
        for term, cnt in conn.execute("SELECT term, cnt FROM temp.certiq_fts_terms"):
            vocabulary.append(str(term))
            counts.append(int(cnt))
        instances = conn.execute("SELECT doc FROM temp.certiq_fts_instances")
        # Per block: the postings each term holds, positions, frequencies. Only these are kept;
        # saturations are computed once the average length is known, a slice at a time, so a
        # build's peak stays near the finished index's size.
        per_term: list[NDArray[np.int64]] = []
        position_parts: list[Positions] = []
        frequency_parts: list[NDArray[np.int32]] = []
        lengths = np.zeros(rows.size, dtype=np.int64)
        for first, last, size in _blocks(counts, _BUILD_BLOCK):
            docs = np.fromiter(
                (row[0] for row in instances.fetchmany(size)), dtype=np.int64, count=size
            )
            block_terms = np.repeat(
                np.arange(first, last, dtype=np.int64), np.asarray(counts[first:last])
            )
            term_of, positions, frequency = _own_pairs(rows.ids, docs, block_terms)
            del docs, block_terms
            lengths += np.bincount(positions, weights=frequency, minlength=rows.size).astype(
                np.int64
            )
            per_term.append(np.bincount(term_of - first, minlength=last - first))
            position_parts.append(positions.astype(np.int32))
            frequency_parts.append(frequency)
        if instances.fetchone() is not None:
            raise RuntimeError("fts5vocab tables disagree: the index changed while being read")
        average = (float(lengths.sum()) / rows.size if rows.size else 0.0) or 1.0
        all_positions: Positions = (
            np.concatenate(position_parts) if position_parts else _NO_POSTINGS[0]
        )
        del position_parts
        frequencies = (
            np.concatenate(frequency_parts) if frequency_parts else np.empty(0, dtype=np.int32)
        )
        del frequency_parts
        saturations = np.empty(all_positions.shape[0], dtype=np.float32)
        for start in range(0, all_positions.shape[0], _BUILD_BLOCK):
            end = start + _BUILD_BLOCK
            length = lengths[all_positions[start:end]].astype(np.float64)
            saturations[start:end] = saturation(frequencies[start:end], length, average)
        del frequencies
        base = Postings.counted(
            vocabulary,
            np.concatenate(per_term) if per_term else np.empty(0, dtype=np.int64),
            all_positions,
            saturations,
        )
        return cls(seq, rows, base, average)

    def saved(self) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """(meta, arrays) for certiq.adapters.local.snapshots; only right after a build."""
        if len(self._segments) != 1:
            raise ValueError("only a lexicon without changes since its build is saved")
        ids, codes, labels = self.rows.saved()
        base = self._segments[0]
        meta = {
            "average_length": self.average_length,
            "labels": labels,
            "vocabulary": sorted(base.terms, key=base.terms.__getitem__),
        }
        arrays: dict[str, NDArray[Any]] = {
            "ids": ids,
            "codes": codes,
            "starts": base.starts,
            "positions": base.positions,
            "saturations": base.saturations,
        }
        return meta, arrays

    @classmethod
    def restore(
        cls, seq: int, meta: dict[str, Any], arrays: dict[str, NDArray[Any]]
    ) -> TenantLexicon:
        """From a snapshot's meta and (memory-mapped) arrays."""
        rows = RowTable.restore(arrays["ids"], arrays["codes"], meta["labels"])
        base = Postings(
            terms={term: number for number, term in enumerate(meta["vocabulary"])},
            starts=arrays["starts"],
            positions=arrays["positions"],
            saturations=arrays["saturations"],
        )
        return cls(seq, rows, base, float(meta["average_length"]))

    def apply(
        self, conn: sqlite3.Connection, tenant: str, changes: Changes, tokenizer: Fts5Tokenizer
    ) -> None:
        """Catches up with the log: deleted rows masked, added rows tokenized into a segment."""
        for row_id in changes.removed:
            self.rows.remove(row_id)
        if changes.added:
            found: dict[int, tuple[str, str | None]] = {}
            for start in range(0, len(changes.added), 500):
                batch = changes.added[start : start + 500]
                marks = ", ".join("?" * len(batch))
                for row_id, text, collection in conn.execute(
                    f"SELECT rowid, text, collection FROM chunks_fts"
                    f" WHERE tenant = ? AND rowid IN ({marks})",
                    (tenant, *batch),
                ):
                    found[int(row_id)] = (str(text), collection)
            added = [row_id for row_id in changes.added if row_id in found]
            positions = self.rows.append(added, [found[row_id][1] for row_id in added])
            tokens = tokenizer.texts([found[row_id][0] for row_id in added])
            self._segments.append(self._segment(positions, tokens))
            if len(self._segments) > _MAX_SEGMENTS:
                self._segments[1:] = [Postings.merged(self._segments[1:])]
        self.seq = changes.seq

    def _segment(self, positions: NDArray[np.int64], tokens: Sequence[list[str]]) -> Postings:
        vocabulary: dict[str, int] = {}
        entries: list[tuple[int, int, int, int]] = []  # term, position, frequency, length
        for position, words in zip(positions.tolist(), tokens, strict=True):
            for term, count in Counter(words).items():
                entries.append(
                    (vocabulary.setdefault(term, len(vocabulary)), position, count, len(words))
                )
        entries.sort()
        table = np.asarray(entries, dtype=np.int64).reshape(-1, 4)
        return Postings.of(
            list(vocabulary),
            table[:, 0],
            table[:, 1].astype(np.int32),
            saturation(
                table[:, 2].astype(np.int32), table[:, 3].astype(np.float64), self.average_length
            ),
        )

    def search(
        self, terms: Iterable[str], k: int, collection: str | None = None
    ) -> list[tuple[int, float]]:
        """(row id, BM25 score) of the k best live rows matching any term, best first."""
        if k <= 0 or self.rows.size == 0:
            return []
        selectable = self.rows.selectable(collection)
        if selectable is None:
            return []
        positions: list[Positions] = []
        weighted: list[NDArray[np.float32]] = []
        for term in terms:
            frequency = sum(segment.frequency(term) for segment in self._segments)
            if not frequency:
                continue
            weight = idf(self.rows.size, frequency)
            for segment in self._segments:
                found, saturations = segment.get(term)
                positions.append(found)
                weighted.append(weight * saturations)
        if not positions:
            return []
        # One pass adds every term's share, term after term as a loop over the terms would (the
        # same sums), without an array operation per term.
        scores = cast(  # float64: bincount sums weights in doubles
            "NDArray[np.float64]",
            np.bincount(
                np.concatenate(positions), np.concatenate(weighted), minlength=self.rows.size
            ),
        )
        # Every weight is positive, so a row matched exactly when its score is.
        matched = np.flatnonzero((scores > 0.0) & selectable)
        best = matched[top_k(scores[matched], k)]
        return list(zip(self.rows.ids[best].tolist(), scores[best].tolist(), strict=True))


def _blocks(counts: Sequence[int], size: int) -> Iterable[tuple[int, int, int]]:
    """(first term, end term, instances) of consecutive terms holding about ``size`` instances."""
    first = 0
    total = 0
    for number, count in enumerate(counts):
        total += count
        if total >= size:
            yield first, number + 1, total
            first, total = number + 1, 0
    if total or first < len(counts):
        yield first, len(counts), total


def _own_pairs(
    ids: NDArray[np.int64], docs: NDArray[np.int64], terms: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int32]]:
    """(term, position, frequency) of the tenant's (term, row) pairs among token instances."""
    if not ids.shape[0]:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, np.empty(0, dtype=np.int32)
    where = np.minimum(np.searchsorted(ids, docs), ids.shape[0] - 1)
    mine = ids[where] == docs
    pair = terms[mine] * ids.shape[0] + where[mine]
    keys, frequency = np.unique(pair, return_counts=True)  # sorted: by term, then position
    return keys // ids.shape[0], keys % ids.shape[0], frequency.astype(np.int32)
