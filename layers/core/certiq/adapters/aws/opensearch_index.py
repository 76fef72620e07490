"""The cloud chunk index: OpenSearch (managed domain or Serverless collection) via opensearch-py.

One OpenSearch document per chunk, ``_id`` = ``document_id(tenant, chunk_id)``, so indexing the
same chunk twice replaces it. The index body is ``chunks_index.json`` beside this module (the
single source of truth; infra/opensearch/chunks.index.json is a copy a test keeps identical):

- ``text`` is analysed with ``certiq_english``: OpenSearch's english analyzer rebuilt without its
  stop filter (standard tokenizer, lowercase, Porter stemmer; possessives, 's and ’s alike,
  dropped by a char filter). Stopwords are
  dropped from the *query* instead, with the local index's list and rules, so both engines treat
  "what is the warranty" alike (a query of stopwords alone still searches for them, as locally).
- ``tenant``, ``doc_id``, ``collection`` and ``source.*`` are keywords; tenant (and collection)
  filters are ``filter`` clauses inside the engine query, never applied to results afterwards.
- ``chunk`` is the whole chunk less its embedding, as a non-indexed object, so a hit rebuilds
  the Chunk exactly; the embedding lives once, in the ``knn_vector`` field ``embedding`` (HNSW,
  lucene engine, cosine), whose dimension comes from the embedder when the index is created.
  Searches leave the vector out of what they fetch (``_source.excludes``): hits carry no
  embedding, and get_chunks returns it. Without an embedder (dimension None) the index has no
  vector field, is lexical-only, and keeps no embedding at all.
- Hybrid search runs in the cluster when it can: one ``hybrid`` query (the BM25 and k-NN
  clauses above) through a search pipeline whose score-ranker-processor fuses the two rankings
  by reciprocal rank (the neural-search plugin, OpenSearch 2.19+), with the same rank constant
  as certiq's own fusion. A cluster without that plugin, or unequal weights (the 2.19 processor
  takes none), falls back to fusing ``search`` and ``search_vector`` client-side
  (certiq.retrieval.search), as the local engine does.

Every call is a POST or PUT (search, count, mget, bulk and delete_by_query are POSTs in
opensearch-py; create is a PUT): the managed domain's IAM policy allows those two methods only,
which is why ``ensure_index`` creates and tolerates "already exists" instead of asking (HEAD).

Failures are said in words that name the index and the cluster, never as a client's repr
(certiq.adapters.aws.opensearch_errors translates them):
- throttling and outages (connection errors, timeouts, 429, 5xx) are SearchUnavailable, a
  TransientError: the state machine retries it, the API answers 503;
- an index that does not exist, or whose mapping is not the one certiq writes (a vector field of
  another dimension), is SearchIndexMismatch, found by the first read or write of each adapter
  with an idempotent PUT of the mapping (a no-op when it matches);
- bulk items rejected with 429/503 or a rejected-execution error are retried alone, with
  backoff, up to ``max_retries`` times; an item refused for good is BulkRejected, an
  IngestionError: the document ends FAILED with the reason.

Not for Serverless *vector search* collections as they stand: those refuse custom document ids
and ``_delete_by_query``; Serverless *search* collections (lexical-only) and managed domains are.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray
from opensearchpy import OpenSearch
from opensearchpy.exceptions import NotFoundError, RequestError

from certiq.adapters.aws.opensearch_bodies import (
    bulk_lines,
    chunk_from_source,
    document_id,
    hybrid_pipeline_body,
    hybrid_pipeline_name,
    hybrid_query_body,
    index_body,
    knn_query_body,
    lexical_query_body,
    query_terms,
    tenant_query,
)
from certiq.adapters.aws.opensearch_errors import (
    BulkRejected,
    SearchIndexMismatch,
    _is_missing_index,
    _reason,
    _reason_of,
    cluster_address,
    is_retryable_status,
    opensearch_errors,
)
from certiq.errors import TransientError
from certiq.models import Chunk, SearchHit
from certiq.retrieval.fusion import DEFAULT_RRF_K

# Item statuses and error types a bulk retry can cure: throttling and a node that is busy.
RETRYABLE_ITEM_STATUSES: Final = frozenset({429, 503})
RETRYABLE_ERROR_TYPES: Final = frozenset(
    {"es_rejected_execution_exception", "rejected_execution_exception"}
)


# Serverless caps a bulk request at 10 MiB and small managed instances too; stay well below.
DEFAULT_MAX_BULK_BYTES: Final = 5 * 1024 * 1024
# How many failures a BulkRejected or TransientError message lists.
_SHOWN_FAILURES: Final = 3


@dataclass(frozen=True)
class _Pending:
    doc_id: str
    lines: str


# --- the adapter --------------------------------------------------------------------------


class OpenSearchIndex:
    """Implements certiq.ports.SearchIndex over one OpenSearch index."""

    engine: Final = "opensearch"

    def __init__(
        self,
        client: OpenSearch,
        index: str,
        *,
        dimension: int | None,
        bulk_batch: int,
        max_retries: int,
        refresh: bool | Literal["wait_for"] = False,
        max_bulk_bytes: int = DEFAULT_MAX_BULK_BYTES,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """``refresh``: True makes each write searchable at once (tests), "wait_for" waits for
        the next scheduled refresh (a document INDEXED is searchable), False returns at once."""
        if dimension is not None and dimension <= 0:
            raise ValueError(f"vector dimension must be positive, got {dimension}")
        if bulk_batch < 1 or max_retries < 0 or max_bulk_bytes < 1:
            raise ValueError("bulk_batch and max_bulk_bytes must be >= 1, max_retries >= 0")
        self._client = client
        self._index = index
        self._dimension = dimension
        self._bulk_batch = bulk_batch
        self._max_retries = max_retries
        self._refresh = refresh
        self._max_bulk_bytes = max_bulk_bytes
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        self._sleep = sleep
        self._where = cluster_address(client)
        self._ensured = False
        self._checked = False
        # Per rank constant: whether the cluster took the fusion pipeline (neural-search).
        self._hybrid_pipelines: dict[int, bool] = {}

    @property
    def name(self) -> str:
        return self._index

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def ensure_index(self) -> bool:
        """Creates the index when missing; True when this call created it. Idempotent.

        An index already there must hold what certiq writes (SearchIndexMismatch otherwise).
        """
        if self._ensured:
            return False
        created = True
        try:
            with opensearch_errors(f"create index {self._index}", self._where):
                self._client.indices.create(index=self._index, body=index_body(self._dimension))
        except RequestError as error:
            if error.error != "resource_already_exists_exception":
                raise
            created = False
            self._check_mapping()
        self._ensured = self._checked = True
        return created

    def _check_mapping(self) -> None:
        """Checks, once, that the index exists with certiq's mapping and vector dimension.

        A PUT of the mapping the adapter writes: a no-op when the index holds it, a refusal
        naming the conflict (a vector field of another dimension) when not. PUT, not GET: the
        domain's IAM policy allows POST and PUT only.
        """
        if self._checked:
            return
        properties = index_body(self._dimension)["mappings"]["properties"]
        try:
            with opensearch_errors(f"check index {self._index}", self._where):
                self._client.indices.put_mapping(index=self._index, body={"properties": properties})
        except NotFoundError as error:
            if _is_missing_index(error):
                raise SearchIndexMismatch(
                    f"the search index {self._index} does not exist in {self._where}: ingest a"
                    " document to create it, or set CERTIQ_OPENSEARCH__INDEX to the index that"
                    " holds your documents"
                ) from error
            raise
        except RequestError as error:
            raise SearchIndexMismatch(
                f"the search index {self._index} in {self._where} is not the index certiq"
                f" writes ({_reason_of(error)}): set CERTIQ_OPENSEARCH__INDEX to a new name and"
                " ingest again, or delete this index"
            ) from error
        self._checked = True

    # -- writes --

    def index(self, chunks: Sequence[Chunk]) -> int:
        latest: dict[str, Chunk] = {}
        for chunk in chunks:
            self._check_embedding(chunk)
            latest[document_id(chunk.tenant, chunk.chunk_id)] = chunk
        if not latest:
            return 0
        self.ensure_index()
        vector_field = self._dimension is not None
        pending = [
            _Pending(doc_id, bulk_lines(self._index, chunk, vector_field=vector_field))
            for doc_id, chunk in latest.items()
        ]
        for batch in self._batches(pending):
            self._bulk_with_retries(batch)
        return len(latest)

    def delete_document(self, tenant: str, doc_id: str) -> int:
        try:
            with opensearch_errors(f"delete {doc_id} from {self._index}", self._where):
                response = self._client.delete_by_query(
                    index=self._index,
                    body={"query": tenant_query(tenant, doc_id)},
                    conflicts="proceed",
                    # true or false only: "wait_for" refreshes below, when anything went.
                    refresh=self._refresh is True,
                )
        except NotFoundError as error:
            if _is_missing_index(error):
                return 0
            raise
        failures = response.get("failures") or []
        if failures:
            statuses = [failure.get("status") for failure in failures]
            message = f"delete {doc_id} from {self._index}: {len(failures)} failures, first"
            message += f" {failures[:_SHOWN_FAILURES]}"
            if all(is_retryable_status(status) for status in statuses):
                raise TransientError(message)
            raise BulkRejected(message, failures)
        deleted = int(response.get("deleted", 0))
        if deleted and self._refresh == "wait_for":
            # A deleted document must not be found once this returns; a new one (nothing
            # deleted, the ingest path's first call) costs no refresh.
            with opensearch_errors(f"refresh {self._index}", self._where):
                self._client.indices.refresh(index=self._index)
        return deleted

    # -- reads --

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        self._check_mapping()
        return self._hits(lexical_query_body(tenant, terms, k, collection), f"search {self._index}")

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        """Approximate nearest neighbours of ``vector`` among the tenant's chunks, best first."""
        self._check_query_vector(vector)
        if k <= 0:
            return []
        self._check_mapping()
        return self._hits(
            knn_query_body(vector, k, tenant, collection), f"k-NN search {self._index}"
        )

    def search_hybrid(
        self,
        tenant: str,
        query: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        depth: int,
        rrf_k: int = DEFAULT_RRF_K,
        collection: str | None = None,
    ) -> tuple[list[SearchHit], int] | None:
        """The k best chunks by reciprocal rank fusion of BM25 and k-NN, fused in the cluster,
        each ranking ``depth`` deep; with how many chunks either ranking found.

        None when the cluster cannot (no neural-search plugin): the caller fuses client-side.
        """
        self._check_query_vector(vector)
        terms = query_terms(query)
        if not terms or k <= 0 or not self._hybrid_pipeline(rrf_k):
            return None
        self._check_mapping()
        body = hybrid_query_body(tenant, terms, vector, max(depth, k), collection)
        what = f"hybrid search {self._index}"
        response = self._search(body, what, search_pipeline=hybrid_pipeline_name(rrf_k))
        if response is None:
            return [], 0
        total = response["hits"].get("total") or {}
        return self._hits_of(response)[:k], int(total.get("value", 0))

    def _check_query_vector(self, vector: Sequence[float] | NDArray[np.float32]) -> None:
        """Refuses a query vector this index cannot search, before any request."""
        if self._dimension is None:
            raise ValueError(f"index {self._index} is lexical-only: it has no vector field")
        if len(vector) != self._dimension:
            raise ValueError(f"vector has {len(vector)} dimensions, the index {self._dimension}")

    def _hybrid_pipeline(self, rrf_k: int) -> bool:
        """Puts the fusion pipeline once per adapter; False when the cluster has no such
        processor (OpenSearch before 2.19, or no neural-search plugin)."""
        known = self._hybrid_pipelines.get(rrf_k)
        if known is not None:
            return known
        try:
            with opensearch_errors(f"create search pipeline for {self._index}", self._where):
                self._client.transport.perform_request(
                    "PUT",
                    f"/_search/pipeline/{hybrid_pipeline_name(rrf_k)}",
                    body=hybrid_pipeline_body(rrf_k),
                )
            supported = True
        except RequestError:
            supported = False
        self._hybrid_pipelines[rrf_k] = supported
        return supported

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        wanted = list(dict.fromkeys(chunk_ids))
        found: dict[str, Chunk] = {}
        for start in range(0, len(wanted), self._bulk_batch):
            ids = [
                document_id(tenant, chunk_id)
                for chunk_id in wanted[start : start + self._bulk_batch]
            ]
            try:
                with opensearch_errors(f"mget {self._index}", self._where):
                    response = self._client.mget(index=self._index, body={"ids": ids})
            except NotFoundError as error:
                if _is_missing_index(error):
                    return {}
                raise
            for doc in response.get("docs", []):
                if doc.get("error") is not None or not doc.get("found"):
                    continue
                source = doc["_source"]
                # The id already names the tenant; checking the body too costs nothing.
                if source.get("tenant") != tenant:
                    continue
                chunk = chunk_from_source(source)
                found[chunk.chunk_id] = chunk
        return found

    def count(self, tenant: str) -> int:
        try:
            with opensearch_errors(f"count {self._index}", self._where):
                response = self._client.count(
                    index=self._index, body={"query": tenant_query(tenant)}
                )
        except NotFoundError as error:
            if _is_missing_index(error):
                return 0
            raise
        return int(response["count"])

    # -- internals --

    def _check_embedding(self, chunk: Chunk) -> None:
        if self._dimension is None or chunk.embedding is None:
            return
        if len(chunk.embedding) != self._dimension:
            raise ValueError(
                f"chunk {chunk.chunk_id} has a {len(chunk.embedding)}-dimensional embedding;"
                f" index {self._index} holds {self._dimension} dimensions"
            )

    def _hits(self, body: dict[str, Any], what: str) -> list[SearchHit]:
        response = self._search(body, what)
        return [] if response is None else self._hits_of(response)

    def _search(self, body: dict[str, Any], what: str, **params: Any) -> dict[str, Any] | None:
        """The search response; None when the index is gone (deleted since it was checked)."""
        try:
            with opensearch_errors(what, self._where):
                response: dict[str, Any] = self._client.search(
                    index=self._index, body=body, params=params or None
                )
        except NotFoundError as error:
            if _is_missing_index(error):
                return None
            raise
        except RequestError as error:
            raise SearchIndexMismatch(
                f"{what}: {self._where} refused the query ({_reason_of(error)})"
            ) from error
        return response

    @staticmethod
    def _hits_of(response: Mapping[str, Any]) -> list[SearchHit]:
        return [
            SearchHit(
                chunk=chunk_from_source(hit["_source"], with_vector=False),
                score=float(hit["_score"]),
            )
            for hit in response["hits"]["hits"]
        ]

    def _batches(self, pending: list[_Pending]) -> Iterator[list[_Pending]]:
        batch: list[_Pending] = []
        size = 0
        for item in pending:
            item_size = len(item.lines.encode("utf-8"))
            if batch and (
                len(batch) >= self._bulk_batch or size + item_size > self._max_bulk_bytes
            ):
                yield batch
                batch, size = [], 0
            batch.append(item)
            size += item_size
        if batch:
            yield batch

    def _bulk_with_retries(self, batch: list[_Pending]) -> None:
        pending = batch
        attempt = 0
        while True:
            retry, reason = self._bulk_once(pending)
            if not retry:
                return
            attempt += 1
            if attempt > self._max_retries:
                raise TransientError(
                    f"bulk into {self._index}: {len(retry)} of {len(batch)} documents still"
                    f" failing after {self._max_retries} retries; last: {reason}"
                )
            self._sleep(min(self._backoff_max, self._backoff_base * 2 ** (attempt - 1)))
            pending = retry

    def _bulk_once(self, pending: list[_Pending]) -> tuple[list[_Pending], str]:
        """Sends one bulk request; returns the items worth retrying and why they failed."""
        body = "".join(item.lines for item in pending)
        try:
            with opensearch_errors(f"bulk into {self._index}", self._where):
                response = self._client.bulk(body=body, refresh=self._refresh)
        except TransientError as error:
            return pending, str(error)
        if not response.get("errors"):
            return [], ""
        retry: list[_Pending] = []
        retry_reason = ""
        rejected: list[dict[str, Any]] = []
        for item, result in zip(pending, response["items"], strict=True):
            outcome = next(iter(result.values()))
            status = int(outcome.get("status", 0))
            if 200 <= status < 300:
                continue
            item_error = outcome.get("error") or {}
            error_type = (
                item_error.get("type", "") if isinstance(item_error, dict) else str(item_error)
            )
            if status in RETRYABLE_ITEM_STATUSES or error_type in RETRYABLE_ERROR_TYPES:
                retry.append(item)
                retry_reason = retry_reason or f"{status} {_reason(item_error)}"
            else:
                rejected.append({"_id": item.doc_id, "status": status, "error": item_error})
        if rejected:
            shown = "; ".join(
                f"{failure['_id']} ({failure['status']}): {_reason(failure['error'])}"
                for failure in rejected[:_SHOWN_FAILURES]
            )
            raise BulkRejected(
                f"bulk into {self._index}: {len(rejected)} documents rejected, first: {shown}",
                rejected,
            )
        return retry, retry_reason
