"""The OpenSearch adapter on osmem-server, beyond the shared SearchIndex contract.

Index creation against a real mapping validator, embeddings stored once (never in hits),
missing indices, the HTTP methods used (the domain's IAM policy allows POST and PUT only), and
connection failures as TransientError. osmem runs no k-NN query: see test_opensearch_bodies.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("opensearchpy", reason="opensearch-py is not installed")

from opensearchpy import OpenSearch, Transport
from opensearchpy.exceptions import RequestError

from certiq.adapters.aws.opensearch_client import make_client
from certiq.adapters.aws.opensearch_index import OpenSearchIndex, document_id
from certiq.config import OpenSearchSettings
from certiq.errors import TransientError
from tests.contract.conftest import OSMEM_DIMENSION, REGION
from tests.fakes import make_chunk

if TYPE_CHECKING:
    from osmem_server import OsmemServer

    from tests.contract.conftest import OpenSearchWorld


REFUNDS = "Refunds are accepted within 30 days of purchase. Keep the original receipt."
VECTOR = [0.1, -0.2, 0.30000000000000004, 0.4]


class RecordingTransport(Transport):
    """opensearch-py's transport, noting the method and path of every request it sends."""

    requests: list[tuple[str, str]]

    def perform_request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        type(self).requests.append((method, url.split("?")[0]))
        return super().perform_request(method, url, *args, **kwargs)


def test_ensure_index_creates_once_and_tolerates_an_existing_index(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN two adapters over the same, not yet existing, index
    first, second = opensearch.index(), opensearch.index()

    # WHEN both ensure it
    # THEN the first creates it, the second finds it there, and neither fails
    assert first.ensure_index() is True
    assert first.ensure_index() is False
    assert second.ensure_index() is False
    mapping = opensearch.client.indices.get_mapping(index=first.name)
    vector = mapping[first.name]["mappings"]["properties"]["embedding"]
    assert vector["type"] == "knn_vector" and vector["dimension"] == OSMEM_DIMENSION


def test_reads_of_an_index_not_created_yet_find_nothing(opensearch: OpenSearchWorld) -> None:
    index = opensearch.index()
    assert index.search("tenant-a", "refund", 5) == []
    assert index.get_chunks("tenant-a", ["policy:0"]) == {}
    assert index.count("tenant-a") == 0
    assert index.delete_document("tenant-a", "policy") == 0


def test_the_first_write_creates_the_index(opensearch: OpenSearchWorld) -> None:
    index = opensearch.index()
    assert index.index([make_chunk(REFUNDS, doc_id="policy")]) == 1
    assert index.count("tenant-a") == 1


def test_an_embedding_is_stored_once_and_left_out_of_search_hits(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN a chunk with an embedding of the index's dimension
    chunk = make_chunk(REFUNDS, doc_id="policy").model_copy(update={"embedding": VECTOR})
    index = opensearch.index()

    # WHEN it is indexed
    index.index([chunk])

    # THEN get_chunks returns it exactly, embedding included
    assert index.get_chunks("tenant-a", [chunk.chunk_id]) == {chunk.chunk_id: chunk}
    # AND search hits carry the chunk without its vector (never fetched)
    [hit] = index.search("tenant-a", "refund", 3)
    assert hit.chunk == chunk.model_copy(update={"embedding": None})
    # AND the stored document holds the vector in the knn_vector field only
    stored = opensearch.client.get(index=index.name, id=document_id("tenant-a", chunk.chunk_id))
    assert stored["_source"]["embedding"] == VECTOR
    assert "embedding" not in stored["_source"]["chunk"]


def test_a_lexical_only_index_stores_no_embedding(opensearch: OpenSearchWorld) -> None:
    # GIVEN an index made without an embedder
    index = opensearch.index(dimension=None)
    index.ensure_index()
    mapping = opensearch.client.indices.get_mapping(index=index.name)
    assert "embedding" not in mapping[index.name]["mappings"]["properties"]

    # WHEN a chunk with an embedding is indexed
    chunk = make_chunk(REFUNDS, doc_id="policy").model_copy(update={"embedding": [0.5, 0.5]})
    index.index([chunk])

    # THEN the chunk comes back whole but for the vector, which is stored nowhere
    assert index.get_chunks("tenant-a", [chunk.chunk_id]) == {
        chunk.chunk_id: chunk.model_copy(update={"embedding": None})
    }
    stored = opensearch.client.get(index=index.name, id=document_id("tenant-a", chunk.chunk_id))
    assert "embedding" not in stored["_source"] and "embedding" not in stored["_source"]["chunk"]


def test_tenants_whose_ids_would_collide_unescaped_stay_apart(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN tenant "a" with chunk "b:x" and tenant "a:b" with chunk "x"
    index = opensearch.index()
    one = make_chunk(REFUNDS, doc_id="b", tenant="a").model_copy(update={"chunk_id": "b:x"})
    two = make_chunk("Shipping is free.", doc_id="x", tenant="a:b").model_copy(
        update={"chunk_id": "x"}
    )

    # WHEN both are indexed
    index.index([one, two])

    # THEN neither replaced the other
    assert index.get_chunks("a", ["b:x"]) == {"b:x": one}
    assert index.get_chunks("a:b", ["x"]) == {"x": two}
    assert (index.count("a"), index.count("a:b")) == (1, 1)


def test_many_chunks_go_through_several_bulk_requests(opensearch: OpenSearchWorld) -> None:
    # GIVEN a batch of two documents per bulk request
    index = opensearch.index(bulk_batch=2)
    chunks = [make_chunk(f"Clause {i} of the lease.", doc_id="lease", ordinal=i) for i in range(7)]

    # WHEN seven chunks are indexed
    # THEN all seven are there, and each can be fetched
    assert index.index(chunks) == 7
    assert index.count("tenant-a") == 7
    got = index.get_chunks("tenant-a", [c.chunk_id for c in chunks])
    assert got == {c.chunk_id: c for c in chunks}


def test_only_post_and_put_reach_the_cluster(opensearch: OpenSearchWorld) -> None:
    # GIVEN a client that records its requests
    RecordingTransport.requests = []
    client = OpenSearch(hosts=[opensearch.url], transport_class=RecordingTransport)
    index = OpenSearchIndex(
        client, "certiq-chunks", dimension=OSMEM_DIMENSION, bulk_batch=10, max_retries=0
    )

    # WHEN the adapter is used for everything it does
    index.ensure_index()
    index.ensure_index()
    OpenSearchIndex(client, "certiq-chunks", dimension=None, bulk_batch=1, max_retries=0).index(
        [make_chunk(REFUNDS, doc_id="other")]
    )
    index.index([make_chunk(REFUNDS, doc_id="policy")])
    index.search("tenant-a", "refund", 3)
    index.get_chunks("tenant-a", ["policy:0"])
    index.count("tenant-a")
    index.delete_document("tenant-a", "policy")
    with pytest.raises(RequestError):  # osmem answers k-NN with 400 unsupported
        index.search_vector("tenant-a", VECTOR, 3)

    # THEN every request was a POST or a PUT (the managed domain's IAM policy allows no other)
    methods = {method for method, _ in RecordingTransport.requests}
    assert methods <= {"POST", "PUT"}, RecordingTransport.requests
    paths = {path.rsplit("/", 1)[-1] for _, path in RecordingTransport.requests}
    assert {"_search", "_mget", "_count", "_bulk", "_delete_by_query"} <= paths


def test_an_unreachable_cluster_is_a_transient_error(osmem: OsmemServer) -> None:
    # GIVEN a client pointed at a port where nothing listens any more (a closed clone)
    with osmem.clone() as clone:
        url = clone.url
    client = make_client(OpenSearchSettings(endpoint=url), REGION)
    index = OpenSearchIndex(client, "certiq-chunks", dimension=None, bulk_batch=5, max_retries=1)

    # WHEN it is read from and written to
    # THEN both fail as TransientError, the error the state machine retries
    with pytest.raises(TransientError):
        index.count("tenant-a")
    with pytest.raises(TransientError):
        index.index([make_chunk(REFUNDS, doc_id="policy")])
