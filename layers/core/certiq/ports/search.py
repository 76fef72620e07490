"""Ports of the chunk index: lexical and vector search, and the two ways an engine fuses them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from certiq.models import Chunk, SearchHit

if TYPE_CHECKING:
    # Annotations only: importing numpy would cost every Lambda cold start ~100 ms.
    import numpy as np
    from numpy.typing import NDArray


class SearchIndex(Protocol):
    """The chunk index (OpenSearch in the cloud, SQLite FTS5 locally)."""

    def index(self, chunks: Sequence[Chunk]) -> int:
        """Adds or replaces chunks by chunk_id; returns how many were written."""
        ...

    def delete_document(self, tenant: str, doc_id: str) -> int:
        """Removes every chunk of a document; returns how many were removed."""
        ...

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        """Lexical (BM25) search within one tenant (and collection when given), best first.

        The filters are part of the engine's query, never applied to its results. Hits carry
        the chunk without its embedding.
        """
        ...

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        """Dense k-NN search by cosine similarity within one tenant (and collection), best first.

        ``vector`` comes from the same Embedder as the indexed chunks' vectors. Filters are
        applied inside the engine before the top k are taken, so up to k hits of the tenant
        come back whatever other tenants hold. Hits carry the chunk without its embedding.
        """
        ...

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of the tenant among chunk_ids; missing ids are absent from the result.

        Whole chunks, with the embedding they were indexed with when the index keeps it.
        """
        ...

    def count(self, tenant: str) -> int: ...


@runtime_checkable
class RankingIndex(SearchIndex, Protocol):
    """A SearchIndex that ranks without reading chunks (the local engine): hybrid search fuses
    its two rankings first and reads the chunks of the fused top k only.

    Keys are the engine's own (row ids locally) and mean nothing outside it. ``search`` is
    ``read(rank(...))``, ``search_vector`` is ``read(rank_vector(...))``.
    """

    def rank(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[tuple[int, float]]:
        """(key, BM25 score) of the k best chunks, as ``search`` ranks them."""
        ...

    def rank_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[tuple[int, float]]:
        """(key, cosine) of the k nearest chunks, as ``search_vector`` ranks them."""
        ...

    def read(self, ranked: Sequence[tuple[int, float]]) -> list[SearchHit]:
        """The ranked chunks as hits with the scores given, in order; keys since deleted are
        left out."""
        ...


@runtime_checkable
class FusingIndex(SearchIndex, Protocol):
    """A SearchIndex that fuses BM25 and k-NN by reciprocal rank in the engine (OpenSearch's
    hybrid query): one request instead of two, and no chunk read twice."""

    def search_hybrid(
        self,
        tenant: str,
        query: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        depth: int,
        rrf_k: int = 60,
        collection: str | None = None,
    ) -> tuple[list[SearchHit], int] | None:
        """(hits, chunks either ranking found): the k best by RRF of both rankings ``depth``
        deep, weighted equally; None when the engine cannot, and the caller fuses."""
        ...
