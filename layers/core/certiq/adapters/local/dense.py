"""Exact dense search in numpy: one contiguous float32 matrix per tenant, held in memory.

Rows are L2-normalised when the matrix is built, so cosine similarity is one matrix-vector
product. The collection filter selects rows before the top k are taken (inside the engine, never
after it), and the top k come from ``np.partition`` rather than a full sort. Ties are broken by
row order (the chunk's rowid), so equal scores always rank the same way.

At 5,183 vectors of 384 dimensions the product and the selection take well under a millisecond;
the matrix (8 MB) is rebuilt only when the tenant's chunks change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

# Vectors are stored as float32 little-endian blobs.
VECTOR_DTYPE: Final = np.dtype("<f4")
_NO_COLLECTION: Final = -1


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


@dataclass(frozen=True)
class TenantVectors:
    """The vectors of one tenant and one embedding model, ready to search."""

    generation: int
    ids: NDArray[np.int64]
    matrix: NDArray[np.float32]
    collections: NDArray[np.int32]
    labels: dict[str, int]

    @property
    def dimension(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @classmethod
    def build(
        cls, generation: int, dimension: int, rows: Iterable[tuple[int, str | None, bytes]]
    ) -> TenantVectors:
        """From (row id, collection, float32 blob) rows in id order; blobs of another size skip."""
        size = dimension * VECTOR_DTYPE.itemsize
        ids: list[int] = []
        codes: list[int] = []
        blobs: list[bytes] = []
        labels: dict[str, int] = {}
        for row_id, collection, blob in rows:
            if len(blob) != size:
                continue
            ids.append(row_id)
            codes.append(
                _NO_COLLECTION if collection is None else labels.setdefault(collection, len(labels))
            )
            blobs.append(blob)
        stored = np.frombuffer(b"".join(blobs), dtype=VECTOR_DTYPE).reshape(len(ids), dimension)
        matrix = np.array(stored, dtype=np.float32, order="C")  # a writable, native-order copy
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, norms, out=matrix, where=norms > 0)
        return cls(
            generation=generation,
            ids=np.asarray(ids, dtype=np.int64),
            matrix=matrix,
            collections=np.asarray(codes, dtype=np.int32),
            labels=labels,
        )

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
        # einsum runs numpy's own SIMD loop on one thread; ``@`` calls BLAS, whose threads on
        # a busy machine made this product 40x slower (8 ms instead of 0.2 ms at 5k x 384).
        scores: NDArray[np.float32] = np.einsum("ij,j->i", self.matrix, vector / norm)
        ids = self.ids
        if collection is not None:
            code = self.labels.get(collection)
            if code is None:
                return []
            rows = np.flatnonzero(self.collections == code)
            scores, ids = scores[rows], ids[rows]
        best = top_k(scores, k)
        return [(int(ids[i]), float(scores[i])) for i in best]
