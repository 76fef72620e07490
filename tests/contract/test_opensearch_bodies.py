"""What the OpenSearch adapter sends, checked without a server: bodies, bulk lines, retries.

The bodies are asserted against the documented OpenSearch format (efficient filtering: the
filter inside the ``knn`` clause of the vector field); test_opensearch_index.py runs the same
queries on a real node. Retries of throttled items, which a real node does not produce on
demand, run against FakeOpenSearch, a small client that fails chosen items then succeeds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

pytest.importorskip("opensearchpy", reason="opensearch-py is not installed")

from botocore.credentials import Credentials
from opensearchpy import AWSV4SignerAuth, RequestsHttpConnection
from opensearchpy.exceptions import ConnectionTimeout, RequestError, TransportError
from pydantic import SecretStr
from requests import Request

from certiq.adapters.aws.opensearch_bodies import (
    INDEX_BODY_FILE,
    chunk_from_source,
    chunk_source,
    document_id,
    index_body,
    knn_query_body,
    lexical_query_body,
    load_index_body,
)
from certiq.adapters.aws.opensearch_client import make_client
from certiq.adapters.aws.opensearch_errors import BulkRejected, SearchIndexMismatch
from certiq.adapters.aws.opensearch_index import OpenSearchIndex
from certiq.bootstrap.aws import opensearch_index
from certiq.config import OpenSearchSettings, Settings
from certiq.errors import ConfigurationError, TransientError
from certiq.models import Chunk
from tests.fakes import make_chunk

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGED_BODY = REPO_ROOT / "layers/core/certiq/adapters/aws" / INDEX_BODY_FILE
INFRA_BODY = REPO_ROOT / "infra/opensearch/chunks.index.json"


class FakeIndices:
    def __init__(self) -> None:
        self.created: list[tuple[str, dict[str, Any]]] = []

    def create(self, index: str, body: dict[str, Any]) -> dict[str, Any]:
        if any(name == index for name, _ in self.created):
            raise RequestError(400, "resource_already_exists_exception", {})
        self.created.append((index, body))
        return {"acknowledged": True, "index": index}

    def put_mapping(self, index: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"acknowledged": True}


class FakeOpenSearch:
    """The slice of opensearchpy.OpenSearch the adapter uses, scripted per bulk call.

    ``item_failures[n]`` maps document ids to (status, error type) for the n-th bulk call;
    ``request_failures[n]`` is an exception the n-th bulk call raises instead of answering.
    """

    def __init__(
        self,
        item_failures: Sequence[dict[str, tuple[int, str]]] = (),
        request_failures: Sequence[Exception | None] = (),
    ) -> None:
        self.indices = FakeIndices()
        self.item_failures = list(item_failures)
        self.request_failures = list(request_failures)
        self.bulk_calls: list[list[tuple[dict[str, Any], dict[str, Any]]]] = []
        self.stored: dict[str, dict[str, Any]] = {}
        self.searches: list[dict[str, Any]] = []
        self.search_error: Exception | None = None

    def bulk(self, body: str, refresh: bool = False) -> dict[str, Any]:
        lines = [json.loads(line) for line in body.splitlines()]
        pairs = list(zip(lines[::2], lines[1::2], strict=True))
        call = len(self.bulk_calls)
        self.bulk_calls.append(pairs)
        if call < len(self.request_failures) and self.request_failures[call] is not None:
            raise self.request_failures[call]  # type: ignore[misc]
        failures = self.item_failures[call] if call < len(self.item_failures) else {}
        items = []
        for action, source in pairs:
            doc_id = action["index"]["_id"]
            if doc_id in failures:
                status, error_type = failures[doc_id]
                error = {"type": error_type, "reason": f"{error_type} for {doc_id}"}
                items.append({"index": {"_id": doc_id, "status": status, "error": error}})
            else:
                self.stored[doc_id] = source
                items.append({"index": {"_id": doc_id, "status": 201, "result": "created"}})
        return {
            "took": 1,
            "errors": any("error" in item["index"] for item in items),
            "items": items,
        }

    def search(
        self, index: str, body: dict[str, Any], params: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        self.searches.append(body)
        if self.search_error is not None:
            raise self.search_error
        hits = [{"_id": i, "_score": 1.0, "_source": s} for i, s in self.stored.items()]
        return {"hits": {"hits": hits[: body["size"]]}}


class SmallEmbedder:
    """An Embedder of a fixed, small dimension (vectors are not the point here)."""

    name = "small-test-embedder"
    dimension = 8

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return np.ones((len(texts), self.dimension), dtype=np.float32) / np.sqrt(self.dimension)


def make_index(client: FakeOpenSearch, **options: Any) -> tuple[OpenSearchIndex, list[float]]:
    sleeps: list[float] = []
    settings: dict[str, Any] = {"dimension": 3, "bulk_batch": 10, "max_retries": 3}
    settings.update(options)
    index = OpenSearchIndex(client, "chunks", sleep=sleeps.append, **settings)  # type: ignore[arg-type]
    return index, sleeps


def five_chunks() -> list[Chunk]:
    return [make_chunk(f"Invoice {i} is due.", doc_id="inv", ordinal=i) for i in range(5)]


# --- the k-NN query --------------------------------------------------------------------------


def test_knn_body_has_the_documented_shape_with_the_filter_inside_the_knn_clause() -> None:
    # GIVEN a query vector as the embedder returns it (a numpy row)
    vector = np.array([0.5, -0.25, 1.0], dtype=np.float32)

    # WHEN the k-NN body is built for tenant A
    body = knn_query_body(vector, 5, "tenant-a")

    # THEN it is POST _search's {"size", "query": {"knn": {<field>: {vector, k, filter}}}}
    assert body == {
        "size": 5,
        "query": {
            "knn": {
                "embedding": {
                    "vector": [0.5, -0.25, 1.0],
                    "k": 5,
                    "filter": {"bool": {"filter": [{"term": {"tenant": "tenant-a"}}]}},
                }
            }
        },
        "_source": {"excludes": ["embedding"]},
    }
    # AND the filter is not a post-filter nor a bool beside the knn clause
    assert set(body) == {"size", "query", "_source"}
    assert set(body["query"]) == {"knn"}
    assert all(isinstance(x, float) for x in body["query"]["knn"]["embedding"]["vector"])
    json.dumps(body)  # serialisable as is: no numpy scalars left


def test_knn_body_filters_on_the_collection_too_when_given() -> None:
    body = knn_query_body([1.0, 0.0], 3, "tenant-a", collection="handbooks")
    assert body["query"]["knn"]["embedding"]["filter"] == {
        "bool": {
            "filter": [{"term": {"tenant": "tenant-a"}}, {"term": {"collection": "handbooks"}}]
        }
    }


def test_knn_field_of_the_query_is_the_knn_vector_field_of_the_index() -> None:
    field = next(iter(knn_query_body([1.0], 1, "t")["query"]["knn"]))
    mapping = index_body(1)["mappings"]["properties"][field]
    assert mapping["type"] == "knn_vector"
    assert mapping["method"]["name"] == "hnsw"
    assert mapping["method"]["engine"] in {"lucene", "faiss"}  # the engines that filter inside


def test_search_vector_sends_the_knn_body_and_checks_the_dimension() -> None:
    # GIVEN an index of dimension 3
    client = FakeOpenSearch()
    index, _ = make_index(client)

    # WHEN a 3-dimensional vector is searched
    index.search_vector("tenant-a", [0.1, 0.2, 0.3], 4)

    # THEN the body sent is the k-NN body; a vector of another size never leaves the process
    assert client.searches == [knn_query_body([0.1, 0.2, 0.3], 4, "tenant-a")]
    with pytest.raises(ValueError, match="dimensions"):
        index.search_vector("tenant-a", [0.1, 0.2], 4)
    assert len(client.searches) == 1


def test_search_vector_is_refused_on_a_lexical_only_index() -> None:
    index, _ = make_index(FakeOpenSearch(), dimension=None)
    with pytest.raises(ValueError, match="lexical-only"):
        index.search_vector("tenant-a", [0.1, 0.2, 0.3], 4)


# --- the lexical query -----------------------------------------------------------------------


def test_lexical_body_filters_the_tenant_inside_the_bool_query() -> None:
    body = lexical_query_body("tenant-a", ["refund", "receipt"], 7)
    assert body["size"] == 7
    assert "post_filter" not in body
    assert body["query"]["bool"]["filter"] == [{"term": {"tenant": "tenant-a"}}]
    assert body["query"]["bool"]["must"] == [
        {"match": {"text": {"query": "refund receipt", "operator": "or"}}}
    ]


def test_search_sends_words_not_syntax_and_skips_a_query_without_words() -> None:
    # GIVEN an index over the fake client
    client = FakeOpenSearch()
    index, _ = make_index(client)

    # WHEN a query full of operators is searched, then one with no words at all
    index.search("tenant-a", 'What is the "refund*" (policy) AND NOT x', 3)
    index.search("tenant-a", "?!...", 3)

    # THEN the engine got the content words only, once
    [body] = client.searches
    assert body["query"]["bool"]["must"][0]["match"]["text"]["query"] == "refund policy x"


def test_search_and_search_vector_send_tenant_and_collection_inside_the_query() -> None:
    # GIVEN an index over the fake client
    client = FakeOpenSearch()
    index, _ = make_index(client)

    # WHEN tenant A searches collection "hr" both ways
    index.search("tenant-a", "refund", 3, collection="hr")
    index.search_vector("tenant-a", np.array([0.1, 0.2, 0.3], dtype=np.float32), 3, "hr")

    # THEN both filters are in the bool filter of the lexical query and inside the knn clause
    lexical, knn = client.searches
    expected = [{"term": {"tenant": "tenant-a"}}, {"term": {"collection": "hr"}}]
    assert lexical["query"]["bool"]["filter"] == expected
    assert knn["query"]["knn"]["embedding"]["filter"] == {"bool": {"filter": expected}}
    assert "post_filter" not in lexical and "post_filter" not in knn


def test_hits_never_carry_the_vector_even_when_the_server_sends_it() -> None:
    # GIVEN a stored chunk with its vector, and a server that ignores _source.excludes
    client = FakeOpenSearch()
    index, _ = make_index(client)
    chunk = make_chunk("Refunds.", doc_id="p").model_copy(update={"embedding": [0.1, 0.2, 0.3]})
    index.index([chunk])

    # WHEN it is searched both ways
    hits = index.search("tenant-a", "refunds", 3) + index.search_vector("tenant-a", [1, 0, 0], 3)

    # THEN the bodies asked to leave the vector out, and the hits hold none
    assert all(body["_source"] == {"excludes": ["embedding"]} for body in client.searches)
    assert [hit.chunk for hit in hits] == [chunk.model_copy(update={"embedding": None})] * 2


def test_a_chunk_collection_is_a_filterable_field_of_its_document() -> None:
    chunk = make_chunk("Refunds.", doc_id="p").model_copy(update={"collection": "hr"})
    assert chunk_source(chunk, vector_field=True)["collection"] == "hr"
    assert "collection" not in chunk_source(make_chunk("x", doc_id="q"), vector_field=True)
    assert chunk_from_source(chunk_source(chunk, vector_field=False)) == chunk


# --- the index body --------------------------------------------------------------------------


def test_the_infra_copy_of_the_index_body_is_the_packaged_one() -> None:
    assert INFRA_BODY.read_bytes() == PACKAGED_BODY.read_bytes(), (
        "infra/opensearch/chunks.index.json must be a copy of the packaged chunks_index.json"
    )
    assert load_index_body() == json.loads(PACKAGED_BODY.read_text(encoding="utf-8"))


def test_index_body_dimension_is_the_embedders() -> None:
    # GIVEN an embedder and the cloud settings
    embedder = SmallEmbedder()
    settings = Settings(runtime="aws", opensearch=OpenSearchSettings(endpoint="http://127.0.0.1:9"))

    # WHEN the composition root builds the index for that embedder
    index = opensearch_index(settings, dimension=embedder.dimension)

    # THEN the index it creates has a knn_vector field of the embedder's dimension
    assert isinstance(index, OpenSearchIndex)
    body = index_body(index.dimension)
    assert body["mappings"]["properties"]["embedding"]["dimension"] == embedder.dimension
    assert body["settings"]["index"]["knn"] is True
    # AND the shipped file itself leaves the dimension unset, so it cannot be used by mistake
    assert load_index_body()["mappings"]["properties"]["embedding"]["dimension"] == 0


def test_without_an_embedder_the_index_is_lexical_only() -> None:
    body = index_body(None)
    assert "embedding" not in body["mappings"]["properties"]
    assert "knn" not in body["settings"]["index"]
    assert body["mappings"]["properties"]["text"]["analyzer"] == "certiq_english"


@pytest.mark.parametrize("field", ["tenant", "doc_id", "collection", "chunk_id"])
def test_filter_fields_are_keywords(field: str) -> None:
    assert index_body(None)["mappings"]["properties"][field] == {"type": "keyword"}


def test_the_stored_chunk_is_not_indexed_and_rebuilds_the_chunk_exactly() -> None:
    # GIVEN a chunk with an embedding
    chunk = make_chunk("Refunds within 30 days.", doc_id="p").model_copy(
        update={"embedding": [0.1, 0.2, 0.30000000000000004]}
    )

    # WHEN it becomes a document of an index with and without a vector field
    with_vectors = chunk_source(chunk, vector_field=True)
    without = chunk_source(chunk, vector_field=False)

    # THEN the embedding is stored once, in the vector field, and never inside ``chunk``
    assert with_vectors["embedding"] == chunk.embedding
    assert "embedding" not in with_vectors["chunk"]
    assert "embedding" not in without and "embedding" not in without["chunk"]
    # AND the documents rebuild the chunk: whole with the vector, without it otherwise
    assert chunk_from_source(json.loads(json.dumps(with_vectors))) == chunk
    assert chunk_from_source(json.loads(json.dumps(without))) == chunk.model_copy(
        update={"embedding": None}
    )
    assert index_body(3)["mappings"]["properties"]["chunk"] == {"type": "object", "enabled": False}


# --- bulk lines ------------------------------------------------------------------------------


def test_bulk_sends_one_index_action_per_chunk_keyed_by_tenant_and_chunk_id() -> None:
    # GIVEN two chunks of tenant A, one of them given twice
    client = FakeOpenSearch()
    index, _ = make_index(client)
    first, second = (
        make_chunk("One.", doc_id="d", ordinal=0),
        make_chunk("Two.", doc_id="d", ordinal=1),
    )

    # WHEN they are indexed
    written = index.index([first, second, first])

    # THEN one bulk request holds an index action (not create) per distinct chunk
    assert written == 2
    [pairs] = client.bulk_calls
    assert [action for action, _ in pairs] == [
        {"index": {"_index": "chunks", "_id": "tenant-a:d:0"}},
        {"index": {"_index": "chunks", "_id": "tenant-a:d:1"}},
    ]
    assert pairs[1][1] == chunk_source(second, vector_field=True)
    assert client.indices.created == [("chunks", index_body(3))]


def test_document_ids_of_different_tenants_never_collide() -> None:
    # tenant "a" chunk "b:x" and tenant "a:b" chunk "x" would both be "a:b:x" unescaped
    assert document_id("a", "b:x") != document_id("a:b", "x")
    assert document_id("tenant-a", "doc:00001") == "tenant-a:doc:00001"


def test_bulk_requests_respect_the_batch_size_and_byte_budget() -> None:
    # GIVEN five chunks and a batch of two
    client = FakeOpenSearch()
    index, _ = make_index(client, bulk_batch=2)

    # WHEN they are indexed
    index.index(five_chunks())

    # THEN three requests carry 2, 2 and 1 documents
    assert [len(call) for call in client.bulk_calls] == [2, 2, 1]

    # AND a byte budget smaller than two documents sends them one by one
    small = FakeOpenSearch()
    index, _ = make_index(small, bulk_batch=100, max_bulk_bytes=100)
    index.index(five_chunks())
    assert [len(call) for call in small.bulk_calls] == [1, 1, 1, 1, 1]


def test_a_wrong_sized_embedding_is_refused_before_any_request() -> None:
    client = FakeOpenSearch()
    index, _ = make_index(client)
    chunk = make_chunk("x", doc_id="d").model_copy(update={"embedding": [1.0, 0.0]})
    with pytest.raises(ValueError, match="2-dimensional"):
        index.index([chunk])
    assert client.bulk_calls == [] and client.indices.created == []


# --- retries ---------------------------------------------------------------------------------


def test_items_throttled_with_429_are_retried_alone_until_they_succeed() -> None:
    # GIVEN a cluster that throttles two items, then one of them again, then accepts
    ids = [document_id("tenant-a", f"inv:{i}") for i in range(5)]
    client = FakeOpenSearch(
        item_failures=[
            {ids[1]: (429, "es_rejected_execution_exception"), ids[3]: (429, "too_many")},
            {ids[3]: (503, "unavailable_shards_exception")},
        ]
    )
    index, sleeps = make_index(client, max_retries=3)

    # WHEN five chunks are indexed
    written = index.index(five_chunks())

    # THEN only the failed items were resent, with growing waits, and all five are stored
    assert written == 5
    assert [[a["index"]["_id"] for a, _ in call] for call in client.bulk_calls] == [
        ids,
        [ids[1], ids[3]],
        [ids[3]],
    ]
    assert sleeps == [0.5, 1.0]
    assert set(client.stored) == set(ids)


def test_a_rejected_execution_error_is_retried_whatever_its_status() -> None:
    doc = document_id("tenant-a", "inv:0")
    client = FakeOpenSearch(item_failures=[{doc: (500, "rejected_execution_exception")}])
    index, sleeps = make_index(client)
    assert index.index(five_chunks()[:1]) == 1
    assert len(client.bulk_calls) == 2 and sleeps == [0.5]


def test_throttling_that_never_ends_raises_transient_error_after_max_retries() -> None:
    # GIVEN a cluster that throttles one item on every call
    doc = document_id("tenant-a", "inv:2")
    client = FakeOpenSearch(item_failures=[{doc: (429, "es_rejected_execution_exception")}] * 10)
    index, sleeps = make_index(client, max_retries=2)

    # WHEN five chunks are indexed
    with pytest.raises(TransientError) as raised:
        index.index(five_chunks())

    # THEN it gave up after the first try and two retries, and says what failed and why
    assert len(client.bulk_calls) == 3
    assert sleeps == [0.5, 1.0]
    message = str(raised.value)
    assert "1 of 5 documents" in message and "after 2 retries" in message
    assert "es_rejected_execution_exception" in message


def test_a_whole_request_throttled_or_timed_out_is_retried() -> None:
    # GIVEN a cluster answering the first bulk with 429 and the second with a timeout
    client = FakeOpenSearch(
        request_failures=[
            TransportError(429, "too_many_requests", {}),
            ConnectionTimeout("TIMEOUT", "read timed out", None),
        ]
    )
    index, sleeps = make_index(client)

    # WHEN chunks are indexed
    assert index.index(five_chunks()) == 5

    # THEN the third attempt stored them
    assert len(client.bulk_calls) == 3 and sleeps == [0.5, 1.0]
    assert len(client.stored) == 5


def test_an_item_rejected_for_good_raises_at_once_listing_the_first_failures() -> None:
    # GIVEN a cluster that refuses two items for their content and throttles a third
    ids = [document_id("tenant-a", f"inv:{i}") for i in range(5)]
    client = FakeOpenSearch(
        item_failures=[
            {
                ids[0]: (400, "mapper_parsing_exception"),
                ids[2]: (429, "es_rejected_execution_exception"),
                ids[4]: (400, "illegal_argument_exception"),
            }
        ]
    )
    index, sleeps = make_index(client)

    # WHEN chunks are indexed
    with pytest.raises(BulkRejected) as raised:
        index.index(five_chunks())

    # THEN nothing is retried, and the error names the refused documents and reasons
    assert not isinstance(raised.value, TransientError)
    assert len(client.bulk_calls) == 1 and sleeps == []
    assert [failure["_id"] for failure in raised.value.failures] == [ids[0], ids[4]]
    assert "2 documents rejected" in str(raised.value)
    assert "mapper_parsing_exception" in str(raised.value)


@pytest.mark.parametrize(
    ("error", "transient"),
    [
        (ConnectionTimeout("TIMEOUT", "timed out", None), True),
        (TransportError(503, "unavailable", {}), True),
        (TransportError(429, "too_many_requests", {}), True),
        (RequestError(400, "parsing_exception", {}), False),
    ],
)
def test_search_failures_map_to_transient_error_when_worth_retrying(
    error: Exception, transient: bool
) -> None:
    client = FakeOpenSearch()
    client.search_error = error
    index, _ = make_index(client)
    # A refusal (400) is not retried: it is said in words, with the cluster's reason.
    expected = TransientError if transient else SearchIndexMismatch
    with pytest.raises(expected):
        index.search("tenant-a", "refund", 3)


# --- the client ------------------------------------------------------------------------------

FAKE_CREDENTIALS = Credentials("AKIDEXAMPLE", "secret", "token")


def test_https_endpoints_are_signed_with_sigv4_for_the_domain() -> None:
    # GIVEN a managed domain's endpoint
    endpoint = "https://search-certiq-abc.eu-west-1.es.amazonaws.com"
    settings = OpenSearchSettings(endpoint=endpoint)

    # WHEN the client is built
    client = make_client(settings, "eu-west-1", credentials=FAKE_CREDENTIALS)

    # THEN it speaks https over requests with a SigV4 signer for es in the region
    [connection] = client.transport.connection_pool.connections  # type: ignore[attr-defined]
    assert isinstance(connection, RequestsHttpConnection)
    assert connection.host == f"{endpoint}:443"
    auth = connection.session.auth
    assert isinstance(auth, AWSV4SignerAuth)
    prepared = Request("POST", f"{endpoint}/i/_search", data=b"{}")
    signed = auth(prepared.prepare())
    assert "/eu-west-1/es/aws4_request" in signed.headers["Authorization"]


def test_an_opensearch_serverless_endpoint_is_refused_saying_why() -> None:
    settings = OpenSearchSettings(endpoint="https://abc123.us-east-1.aoss.amazonaws.com")
    with pytest.raises(ValueError, match="Serverless is not supported"):
        make_client(settings, "us-east-1", credentials=FAKE_CREDENTIALS)


def test_http_endpoints_are_not_signed() -> None:
    client = make_client(OpenSearchSettings(endpoint="http://127.0.0.1:9200"), "us-east-1")
    [connection] = client.transport.connection_pool.connections  # type: ignore[attr-defined]
    assert connection.host == "http://127.0.0.1:9200"
    assert getattr(connection, "session", None) is None or connection.session.auth is None


@pytest.mark.parametrize(
    "endpoint", ["ftp://example.com", "search.example.com", "https://example.com/prefix"]
)
def test_malformed_endpoints_are_refused(endpoint: str) -> None:
    with pytest.raises(ValueError, match="endpoint"):
        make_client(
            OpenSearchSettings(endpoint=endpoint), "us-east-1", credentials=FAKE_CREDENTIALS
        )


def test_the_composition_root_needs_an_endpoint() -> None:
    with pytest.raises(ConfigurationError, match="CERTIQ_OPENSEARCH__ENDPOINT"):
        opensearch_index(Settings(runtime="aws"))
    with pytest.raises(ConfigurationError, match="CERTIQ_OPENSEARCH__ENDPOINT"):
        opensearch_index(Settings(runtime="aws", opensearch=OpenSearchSettings(endpoint="ftp://x")))


def test_index_body_files_exist_where_documented() -> None:
    assert Path(PACKAGED_BODY).is_file() and Path(INFRA_BODY).is_file()


def test_basic_auth_is_sent_over_https_and_refused_over_http() -> None:
    # GIVEN a self-hosted cluster behind its security plugin
    settings = OpenSearchSettings(
        endpoint="https://search.example.org:9200",
        auth="basic",
        username="certiq",
        password=SecretStr("s3cret"),
    )

    # WHEN the client is built / THEN it sends the user and password, over TLS
    client = make_client(settings, "us-east-1")
    [connection] = client.transport.connection_pool.connections  # type: ignore[attr-defined]
    assert connection.host == "https://search.example.org:9200"
    assert connection.headers["authorization"].startswith("Basic ")

    # AND the same over http is refused, saying why, before any request
    with pytest.raises(ValueError, match="password would go in clear"):
        make_client(settings.model_copy(update={"endpoint": "http://127.0.0.1:9200"}), "us-east-1")
    with pytest.raises(ValueError, match="USERNAME"):
        make_client(settings.model_copy(update={"username": ""}), "us-east-1")


def test_sigv4_can_be_asked_for_by_name_and_none_leaves_https_unsigned() -> None:
    domain = "https://search-certiq-abc.eu-west-1.es.amazonaws.com"
    signed = make_client(
        OpenSearchSettings(endpoint=domain, auth="sigv4"), "eu-west-1", credentials=FAKE_CREDENTIALS
    )
    [connection] = signed.transport.connection_pool.connections  # type: ignore[attr-defined]
    assert isinstance(connection.session.auth, AWSV4SignerAuth)
    unsigned = make_client(OpenSearchSettings(endpoint=domain, auth="none"), "eu-west-1")
    [plain] = unsigned.transport.connection_pool.connections  # type: ignore[attr-defined]
    assert "authorization" not in {name.lower() for name in plain.headers}
