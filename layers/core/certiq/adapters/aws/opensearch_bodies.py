"""The request bodies and document ids of certiq's OpenSearch index: pure functions.

The adapter (opensearch_index.OpenSearchIndex) sends these; test_opensearch_bodies.py checks
them against the documented formats, and a real node runs them (test_opensearch_index.py). The
index body itself is ``chunks_index.json`` beside this module.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.fts_index import MAX_QUERY_TERMS, STOPWORDS
from certiq.models import Chunk, collection_of

INDEX_BODY_FILE: Final = "chunks_index.json"
VECTOR_FIELD: Final = "embedding"
TEXT_FIELD: Final = "text"
# Words as the local index (SQLite unicode61) sees them: letters and digits.
_WORD: Final = re.compile(r"[^\W_]+")


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


def hybrid_pipeline_name(rrf_k: int) -> str:
    """The search pipeline fusing a hybrid query by reciprocal rank with constant ``rrf_k``."""
    return f"certiq-rrf-{rrf_k}"


def hybrid_pipeline_body(rrf_k: int) -> dict[str, Any]:
    """Reciprocal rank fusion in the cluster (neural-search's score-ranker-processor, 2.19+)."""
    return {
        "description": f"certiq: reciprocal rank fusion of BM25 and k-NN, rank constant {rrf_k}",
        "phase_results_processors": [
            {
                "score-ranker-processor": {
                    "combination": {"technique": "rrf", "rank_constant": rrf_k}
                }
            }
        ],
    }


def hybrid_query_body(
    tenant: str,
    terms: Sequence[str],
    vector: Sequence[float] | NDArray[np.floating],
    depth: int,
    collection: str | None = None,
) -> dict[str, Any]:
    """One ``hybrid`` query: the BM25 clause and the filtered k-NN clause, ``depth`` deep each."""
    return {
        "size": depth,
        "query": {
            "hybrid": {
                "queries": [
                    lexical_query(tenant, terms, collection),
                    knn_query(vector, depth, tenant, collection),
                ]
            }
        },
        "_source": HIT_SOURCE,
    }


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
