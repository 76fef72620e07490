"""The cloud chunk index: OpenSearch (managed domain or Serverless collection) via opensearch-py.

One OpenSearch document per chunk, ``_id`` = ``document_id(tenant, chunk_id)``, so indexing the
same chunk twice replaces it. The index body is ``chunks_index.json`` beside this module (the
single source of truth; infra/opensearch/chunks.index.json is a copy a test keeps identical):

- ``text`` is analysed with ``certiq_english``: OpenSearch's english analyzer rebuilt without its
  stop filter (standard tokenizer, lowercase, Porter stemmer; possessives dropped by a char
  filter, since osmem mis-indexes the ``possessive_english`` stemmer filter). Stopwords are
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
- Hybrid search fuses ``search`` and ``search_vector`` client-side (certiq.retrieval.search), as
  locally: one fusion, tested once, whatever the cluster's plugins.

Every call is a POST or PUT (search, count, mget, bulk and delete_by_query are POSTs in
opensearch-py; create is a PUT): the managed domain's IAM policy allows those two methods only,
which is why ``ensure_index`` creates and tolerates "already exists" instead of asking (HEAD).

Throttling and outages (connection errors, timeouts, 429, 5xx) surface as TransientError, the
name the answer state machine retries. Bulk items rejected with 429/503 or a rejected-execution
error are retried alone, with backoff, up to ``max_retries`` times.

Not for Serverless *vector search* collections as they stand: those refuse custom document ids
and ``_delete_by_query``; Serverless *search* collections (lexical-only) and managed domains are.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray
from opensearchpy import OpenSearch
from opensearchpy.exceptions import ConnectionError as OpenSearchConnectionError
from opensearchpy.exceptions import NotFoundError, RequestError, TransportError

from certiq.adapters.local.fts_index import MAX_QUERY_TERMS, STOPWORDS
from certiq.errors import CertiqError, TransientError
from certiq.models import Chunk, SearchHit, collection_of

INDEX_BODY_FILE: Final = "chunks_index.json"
VECTOR_FIELD: Final = "embedding"
TEXT_FIELD: Final = "text"

# Item statuses and error types a bulk retry can cure: throttling and a node that is busy.
RETRYABLE_ITEM_STATUSES: Final = frozenset({429, 503})
RETRYABLE_ERROR_TYPES: Final = frozenset(
    {"es_rejected_execution_exception", "rejected_execution_exception"}
)

# Words as the local index (SQLite unicode61) sees them: letters and digits.
_WORD: Final = re.compile(r"[^\W_]+")

# Serverless caps a bulk request at 10 MiB and small managed instances too; stay well below.
DEFAULT_MAX_BULK_BYTES: Final = 5 * 1024 * 1024
# How many failures a BulkRejected or TransientError message lists.
_SHOWN_FAILURES: Final = 3


class BulkRejected(CertiqError):
    """Bulk items OpenSearch refused for a reason retrying cannot cure (mapping, size, ...)."""

    def __init__(self, message: str, failures: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.failures = failures


# --- pure functions: bodies and ids -------------------------------------------------------


def load_index_body() -> dict[str, Any]:
    """The index body as shipped, with the vector dimension still unset (0)."""
    text = resources.files(__package__ or "certiq.adapters.aws").joinpath(INDEX_BODY_FILE)
    body: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return body


def index_body(dimension: int | None) -> dict[str, Any]:
    """The body that creates the index: a vector field of ``dimension``, or none when None."""
    body = copy.deepcopy(load_index_body())
    properties = body["mappings"]["properties"]
    if dimension is None:
        del properties[VECTOR_FIELD]
        body["settings"]["index"].pop("knn", None)
        return body
    if dimension <= 0:
        raise ValueError(f"vector dimension must be positive, got {dimension}")
    properties[VECTOR_FIELD]["dimension"] = dimension
    return body


def document_id(tenant: str, chunk_id: str) -> str:
    """``tenant:chunk_id``, with ':' and '%' escaped in the tenant so no two pairs collide."""
    escaped = tenant.replace("%", "%25").replace(":", "%3A")
    return f"{escaped}:{chunk_id}"


def tenant_filter(tenant: str, collection: str | None = None) -> list[dict[str, Any]]:
    """Filter clauses restricting a query to one tenant (and one collection when given)."""
    clauses: list[dict[str, Any]] = [{"term": {"tenant": tenant}}]
    if collection is not None:
        clauses.append({"term": {"collection": collection}})
    return clauses


def query_terms(query: str) -> list[str]:
    """The words of a free-text query, as the local index keeps them.

    Distinct, case-folded, stopwords dropped unless nothing else is left, at most
    MAX_QUERY_TERMS. No user text is ever parsed as query syntax: the terms go to a ``match``.
    """
    words = list(dict.fromkeys(word.casefold() for word in _WORD.findall(query)))
    terms = [word for word in words if word not in STOPWORDS] or words
    return terms[:MAX_QUERY_TERMS]


# What a search fetches of each hit: everything but the vector (hits carry no embedding).
HIT_SOURCE: Final = {"excludes": [VECTOR_FIELD]}


def lexical_query(
    tenant: str, terms: Sequence[str], collection: str | None = None
) -> dict[str, Any]:
    """The BM25 clause: any of the terms in ``text``, filtered to the tenant (and collection)."""
    return {
        "bool": {
            "must": [{"match": {TEXT_FIELD: {"query": " ".join(terms), "operator": "or"}}}],
            "filter": tenant_filter(tenant, collection),
        }
    }


def lexical_query_body(
    tenant: str, terms: Sequence[str], k: int, collection: str | None = None
) -> dict[str, Any]:
    """BM25 over ``text`` for any of the terms, inside the tenant; ties broken by chunk id."""
    return {
        "size": k,
        "query": lexical_query(tenant, terms, collection),
        "sort": [{"_score": {"order": "desc"}}, {"chunk_id": {"order": "asc"}}],
        "_source": HIT_SOURCE,
    }


def knn_query(
    vector: Sequence[float] | NDArray[np.floating], k: int, tenant: str, collection: str | None
) -> dict[str, Any]:
    """The k-NN clause, with the tenant (and collection) filter inside it."""
    return {
        "knn": {
            VECTOR_FIELD: {
                "vector": [float(value) for value in vector],
                "k": k,
                "filter": {"bool": {"filter": tenant_filter(tenant, collection)}},
            }
        }
    }


def knn_query_body(
    vector: Sequence[float] | NDArray[np.floating],
    k: int,
    tenant: str,
    collection: str | None = None,
) -> dict[str, Any]:
    """An approximate k-NN query with efficient filtering (lucene/faiss HNSW).

    The tenant filter sits inside the ``knn`` clause, so the engine searches the tenant's vectors
    only and still returns k of them; a filter beside the clause would filter k global
    neighbours afterwards and could return none.
    """
    return {"size": k, "query": knn_query(vector, k, tenant, collection), "_source": HIT_SOURCE}


def tenant_query(tenant: str, doc_id: str | None = None) -> dict[str, Any]:
    """A non-scoring query for the tenant's documents (of one doc_id when given)."""
    clauses = tenant_filter(tenant)
    if doc_id is not None:
        clauses.append({"term": {"doc_id": doc_id}})
    return {"bool": {"filter": clauses}}


def chunk_source(chunk: Chunk, *, vector_field: bool) -> dict[str, Any]:
    """The OpenSearch document of a chunk.

    The embedding is never part of ``chunk``: with a vector field it is stored there, once;
    without one (a lexical-only index) it is not stored at all.
    """
    whole = chunk.model_dump(mode="json", exclude={"embedding"})
    source: dict[str, Any] = {
        "chunk_id": chunk.chunk_id,
        "tenant": chunk.tenant,
        "doc_id": chunk.doc_id,
        "ordinal": chunk.ordinal,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "source": whole["source"],
        TEXT_FIELD: chunk.text,
        "chunk": whole,
    }
    collection = collection_of(chunk)
    if collection is not None:
        source["collection"] = collection
    if vector_field and chunk.embedding is not None:
        source[VECTOR_FIELD] = chunk.embedding
    return source


def chunk_from_source(source: Mapping[str, Any], *, with_vector: bool = True) -> Chunk:
    """Rebuilds the chunk indexed as ``source``, with its vector when the source holds it.

    ``with_vector=False`` (search hits) leaves it out even from a server that sent it anyway.
    """
    data = dict(source["chunk"])
    if with_vector and VECTOR_FIELD in source:
        data["embedding"] = source[VECTOR_FIELD]
    return Chunk.model_validate(data)


def bulk_lines(index: str, chunk: Chunk, *, vector_field: bool) -> str:
    """The two NDJSON lines (action, document) that index one chunk."""
    action = {"index": {"_index": index, "_id": document_id(chunk.tenant, chunk.chunk_id)}}
    document = chunk_source(chunk, vector_field=vector_field)
    return _json_line(action) + _json_line(document)


def _json_line(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


# --- errors -------------------------------------------------------------------------------


def is_retryable_status(status: object) -> bool:
    return isinstance(status, int) and (status == 429 or status >= 500)


@contextmanager
def opensearch_errors(what: str) -> Iterator[None]:
    """Re-raises connection failures, timeouts, 429 and 5xx in the block as TransientError."""
    try:
        yield
    except OpenSearchConnectionError as error:
        raise TransientError(f"{what}: {error}") from error
    except TransportError as error:
        if is_retryable_status(error.status_code):
            raise TransientError(f"{what}: {error}") from error
        raise


def _is_missing_index(error: TransportError) -> bool:
    return isinstance(error, NotFoundError) and error.error == "index_not_found_exception"


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
        refresh: bool = False,
        max_bulk_bytes: int = DEFAULT_MAX_BULK_BYTES,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """``refresh`` makes writes searchable before they return (tests; not for ingestion)."""
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
        self._ensured = False

    @property
    def name(self) -> str:
        return self._index

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def ensure_index(self) -> bool:
        """Creates the index when missing; True when this call created it. Idempotent."""
        if self._ensured:
            return False
        created = True
        try:
            with opensearch_errors(f"create index {self._index}"):
                self._client.indices.create(index=self._index, body=index_body(self._dimension))
        except RequestError as error:
            if error.error != "resource_already_exists_exception":
                raise
            created = False
        self._ensured = True
        return created

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
            with opensearch_errors(f"delete {doc_id} from {self._index}"):
                response = self._client.delete_by_query(
                    index=self._index,
                    body={"query": tenant_query(tenant, doc_id)},
                    conflicts="proceed",
                    refresh=self._refresh,
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
        return int(response.get("deleted", 0))

    # -- reads --

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        return self._hits(lexical_query_body(tenant, terms, k, collection), f"search {self._index}")

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        """Approximate nearest neighbours of ``vector`` among the tenant's chunks, best first."""
        if self._dimension is None:
            raise ValueError(f"index {self._index} is lexical-only: it has no vector field")
        if len(vector) != self._dimension:
            raise ValueError(f"vector has {len(vector)} dimensions, the index {self._dimension}")
        if k <= 0:
            return []
        return self._hits(
            knn_query_body(vector, k, tenant, collection), f"k-NN search {self._index}"
        )

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        wanted = list(dict.fromkeys(chunk_ids))
        found: dict[str, Chunk] = {}
        for start in range(0, len(wanted), self._bulk_batch):
            ids = [
                document_id(tenant, chunk_id)
                for chunk_id in wanted[start : start + self._bulk_batch]
            ]
            try:
                with opensearch_errors(f"mget {self._index}"):
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
            with opensearch_errors(f"count {self._index}"):
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
        try:
            with opensearch_errors(what):
                response = self._client.search(index=self._index, body=body)
        except NotFoundError as error:
            if _is_missing_index(error):
                return []
            raise
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
            with opensearch_errors(f"bulk into {self._index}"):
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


def _reason(error: object) -> str:
    if isinstance(error, dict):
        return f"{error.get('type', '')}: {error.get('reason', '')}"
    return str(error)
