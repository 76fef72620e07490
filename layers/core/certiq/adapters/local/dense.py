"""Exact dense search in numpy: contiguous float32 matrices per tenant, held in memory.

Rows are L2-normalised when stored in the matrix, so cosine similarity is one matrix-vector
product. The collection filter selects rows before the top k are taken (inside the engine, never
after it), and the top k come from ``np.partition`` rather than a full sort. Ties are broken by
position (row id order in the base, then the order rows were added), so equal scores always rank
the same way.

float32, not float16 or int8: numpy has no fast kernel for either, and converting a 200k x 384
matrix to float32 for each query cost 2-12x the float32 product itself (measured on 2 cores). At
200k vectors the matrix is 307 MB and the exact product about 20-30 ms.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.rows import Changes, RowTable

# Vectors are stored as float32 little-endian blobs.
VECTOR_DTYPE: Final = np.dtype("<f4")


def vector_blob(vector: Sequence[float] | NDArray[np.floating]) -> bytes:
    """The stored form of a vector: float32 little-endian bytes."""
    return np.asarray(vector, dtype=VECTOR_DTYPE).reshape(-1).tobytes()


def blob_vector(blob: bytes) -> NDArray[np.float32]:
    return np.frombuffer(blob, dtype=VECTOR_DTYPE).astype(np.float32)


def top_k(scores: NDArray[np.floating[Any]], k: int) -> NDArray[np.intp]:
    """Positions of the k highest scores, best first; equal scores keep their position order.

    The selection is O(n) (``np.partition``); only the k kept are sorted.
    """
    n = scores.shape[0]
    k = min(k, n)
    if k <= 0:
        return np.empty(0, dtype=np.intp)
    if k < n:
        kth = np.partition(scores, n - k)[n - k]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)[: k - above.shape[0]]
        chosen = np.concatenate([above, tied])
    else:
        chosen = np.arange(n)
    # lexsort: the last key is primary. Best score first, then the earlier position.
    order = np.lexsort((chosen, -scores[chosen]))
    result: NDArray[np.intp] = chosen[order]
    return result


class TenantVectors:
    """The vectors of one tenant and one embedding model, ready to search and kept up to date.

    The base matrix holds the rows read at one change of the log; rows added since are stacked
    in a second matrix (re-stacked as they come: it stays small, a rebuild folds it into the
    base), deleted rows are masked. Not thread-safe: the search index calls it under the
    database's lock.
    """

    def __init__(self, seq: int, dimension: int, rows: RowTable, base: NDArray[np.float32]) -> None:
        self.seq = seq
        self.dimension = dimension
        self.rows = rows
        self._base = base
        self._added = np.empty((0, dimension), dtype=np.float32)

    def __len__(self) -> int:
        return self.rows.size

    @property
    def nbytes(self) -> int:
        return int(self._base.nbytes + self._added.nbytes)

    @classmethod
    def build(
        cls,
        seq: int,
        dimension: int,
        rows: Iterable[tuple[int, str | None, bytes]],
        expected: int = 64,
    ) -> TenantVectors:
        """From (row id, collection, float32 blob) rows in id order (about ``expected`` of
        them); blobs of another size are skipped."""
        ids, collections, matrix = _unit_rows(dimension, rows, expected)
        return cls(seq, dimension, RowTable(ids, collections), matrix)

    def saved(self) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """(meta, arrays) for certiq.adapters.local.snapshots; only right after a build."""
        ids, codes, labels = self.rows.saved()
        if self._added.shape[0]:
            raise ValueError("only vectors without changes since their build are saved")
        return {"dimension": self.dimension, "labels": labels}, {
            "ids": ids,
            "codes": codes,
            "matrix": self._base,
        }

    @classmethod
    def restore(
        cls, seq: int, meta: dict[str, Any], arrays: dict[str, NDArray[Any]]
    ) -> TenantVectors:
        """From a snapshot's meta and (memory-mapped) arrays."""
        rows = RowTable.restore(arrays["ids"], arrays["codes"], meta["labels"])
        return cls(seq, int(meta["dimension"]), rows, arrays["matrix"])

    def apply(self, changes: Changes, added: Iterable[tuple[int, str | None, bytes]]) -> None:
        """Catches up with the log: deleted rows masked, ``added`` (the added rows' vectors of
        this model, in the order of ``changes.added``) stacked."""
        for row_id in changes.removed:
            self.rows.remove(row_id)
        ids, collections, matrix = _unit_rows(self.dimension, added)
        if ids.shape[0]:
            self.rows.append(ids.tolist(), collections)
            self._added = np.concatenate([self._added, matrix])
        self.seq = changes.seq

    def nearest(
        self,
        query: Sequence[float] | NDArray[np.floating],
        k: int,
        collection: str | None = None,
    ) -> list[tuple[int, float]]:
        """(row id, cosine) of the k rows nearest the query, best first, within the collection."""
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dimension:
            raise ValueError(
                f"query vector has {vector.shape[0]} dimensions, the indexed vectors"
                f" {self.dimension}"
            )
        norm = float(np.linalg.norm(vector))
        if k <= 0 or len(self) == 0 or norm == 0.0:
            return []
        selectable = self.rows.selectable(collection)
        if selectable is None:
            return []
        unit = vector / norm
        # einsum runs numpy's own SIMD loop on one thread; ``@`` calls BLAS, whose threads on
        # a busy machine made this product 40x slower (8 ms instead of 0.2 ms at 5k x 384).
        scores: NDArray[np.float32] = np.einsum("ij,j->i", self._base, unit)
        if self._added.shape[0]:
            scores = np.concatenate([scores, np.einsum("ij,j->i", self._added, unit)])
        rows = np.flatnonzero(selectable)
        if rows.shape[0] != scores.shape[0]:
            scores = scores[rows]
        best = top_k(scores, k)
        picked = rows[best]
        return list(zip(self.rows.ids[picked].tolist(), scores[best].tolist(), strict=True))


def _unit_rows(
    dimension: int, rows: Iterable[tuple[int, str | None, bytes]], expected: int = 64
) -> tuple[NDArray[np.int64], list[str | None], NDArray[np.float32]]:
    """Row ids, collections and L2-normalised float32 vectors of rows whose blob has this size.

    Rows are copied one by one into a matrix made for ``expected`` rows (grown if there are
    more), so the blobs are never held all at once beside it (at 200k vectors, 300 MB more).
    """
    size = dimension * VECTOR_DTYPE.itemsize
    ids: list[int] = []
    collections: list[str | None] = []
    matrix = np.empty((max(expected, 1), dimension), dtype=np.float32)
    for row_id, collection, blob in rows:
        if len(blob) != size:
            continue
        if len(ids) == matrix.shape[0]:
            matrix = np.resize(matrix, (2 * matrix.shape[0], dimension))
        matrix[len(ids)] = np.frombuffer(blob, dtype=VECTOR_DTYPE)
        ids.append(row_id)
        collections.append(collection)
    matrix = matrix[: len(ids)]  # leading rows of a C-ordered matrix: contiguous, no copy
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return np.asarray(ids, dtype=np.int64), collections, matrix
