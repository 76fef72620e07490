"""The OpenSearch adapter on a real OpenSearch 2.19 node, beyond the shared SearchIndex contract.

Index creation, embeddings stored once (never in hits), k-NN with the tenant and collection
filters inside the k-NN clause, hybrid search fused in the cluster (neural-search), missing
indices and mappings of another dimension said in words, items the cluster refuses, the HTTP
methods used (the domain's IAM policy allows POST and PUT only), and an unreachable cluster as
SearchUnavailable. The node: tests/opensearch.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("opensearchpy", reason="opensearch-py is not installed")

from opensearchpy import OpenSearch, Transport

from certiq.adapters.aws.opensearch_bodies import document_id
from certiq.adapters.aws.opensearch_client import make_client
from certiq.adapters.aws.opensearch_errors import (
    BulkRejected,
    SearchIndexMismatch,
    SearchUnavailable,
)
from certiq.adapters.aws.opensearch_index import OpenSearchIndex
from certiq.config import OpenSearchSettings, RetrievalSettings
from certiq.errors import IngestionError, TransientError
from certiq.models import Chunk
from certiq.retrieval.fusion import reciprocal_rank_fusion
from certiq.retrieval.search import hybrid_search
from tests.contract.conftest import OPENSEARCH_DIMENSION, REGION
from tests.fakes import make_chunk

if TYPE_CHECKING:
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
    assert vector["type"] == "knn_vector" and vector["dimension"] == OPENSEARCH_DIMENSION


def test_reads_of_an_index_not_created_yet_find_nothing(opensearch: OpenSearchWorld) -> None:
    index = opensearch.index()
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
        client, "certiq-chunks", dimension=OPENSEARCH_DIMENSION, bulk_batch=10, max_retries=0
    )

    # WHEN the adapter is used for everything it does
    index.ensure_index()
    index.ensure_index()
    OpenSearchIndex(client, "certiq-chunks", dimension=None, bulk_batch=1, max_retries=0).index(
        [make_chunk(REFUNDS, doc_id="other")]
    )
    index.index([make_chunk(REFUNDS, doc_id="policy").model_copy(update={"embedding": VECTOR})])
    index.search("tenant-a", "refund", 3)
    index.search_vector("tenant-a", VECTOR, 3)
    index.search_hybrid("tenant-a", "refund", VECTOR, 3, depth=10)
    index.get_chunks("tenant-a", ["policy:0"])
    index.count("tenant-a")
    index.delete_document("tenant-a", "policy")

    # THEN every request was a POST or a PUT (the managed domain's IAM policy allows no other)
    methods = {method for method, _ in RecordingTransport.requests}
    assert methods <= {"POST", "PUT"}, RecordingTransport.requests
    paths = {path.rsplit("/", 1)[-1] for _, path in RecordingTransport.requests}
    assert {"_search", "_mget", "_count", "_bulk", "_delete_by_query"} <= paths


def test_an_unreachable_cluster_is_said_in_words_and_retried(opensearch: OpenSearchWorld) -> None:
    # GIVEN a client pointed at a port where nothing listens
    url = f"http://127.0.0.1:{_closed_port()}"
    client = make_client(OpenSearchSettings(endpoint=url), REGION)
    index = OpenSearchIndex(client, "certiq-chunks", dimension=None, bulk_batch=5, max_retries=1)

    # WHEN it is read from and written to
    # THEN both fail as SearchUnavailable, a TransientError the state machine retries, whose
    # message names the cluster and says what is wrong, with no client internals
    with pytest.raises(SearchUnavailable) as read:
        index.count("tenant-a")
    with pytest.raises(TransientError) as write:
        index.index([make_chunk(REFUNDS, doc_id="policy")])
    for error in (read.value, write.value):
        message = str(error)
        assert f"OpenSearch at 127.0.0.1:{url.rsplit(':', 1)[1]} cannot be reached" in message
        assert "urllib3" not in message and "object at 0x" not in message


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# --- k-NN and hybrid search on the real engine ---------------------------------------------

NORTH, EAST, SOUTH = [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]


def _embedded(text: str, vector: list[float], **fields: Any) -> Chunk:
    return make_chunk(text, **fields).model_copy(update={"embedding": vector})


def test_knn_finds_the_nearest_chunks_first_scored_by_cosine(opensearch: OpenSearchWorld) -> None:
    # GIVEN three chunks pointing three ways
    index = opensearch.index()
    index.index(
        [
            _embedded("North.", NORTH, doc_id="n"),
            _embedded("East.", EAST, doc_id="e"),
            _embedded("South.", SOUTH, doc_id="s"),
        ]
    )

    # WHEN the engine searches near north-by-east
    hits = index.search_vector("tenant-a", [0.9, 0.3, 0.0, 0.0], 3)

    # THEN north, east, south, best first, scored (1 + cosine) / 2 by the lucene engine
    assert [hit.chunk.doc_id for hit in hits] == ["n", "e", "s"]
    assert hits[0].score > hits[1].score > hits[2].score
    assert all(hit.chunk.embedding is None for hit in hits)


def test_the_tenant_filter_is_inside_the_knn_clause(opensearch: OpenSearchWorld) -> None:
    # GIVEN tenant B holds ten chunks right on the query, tenant A one far from it
    index = opensearch.index(bulk_batch=50)
    index.index(
        [_embedded(f"Secret {i}.", NORTH, doc_id=f"b{i}", tenant="tenant-b") for i in range(10)]
        + [_embedded("Ours.", SOUTH, doc_id="a")]
    )

    # WHEN tenant A asks for its 3 nearest
    hits = index.search_vector("tenant-a", NORTH, 3)

    # THEN tenant A's chunk comes back: the filter ran before the top k, not after it
    assert [(hit.chunk.tenant, hit.chunk.doc_id) for hit in hits] == [("tenant-a", "a")]
    # AND tenant B never sees tenant A's
    assert "a" not in {hit.chunk.doc_id for hit in index.search_vector("tenant-b", SOUTH, 20)}


def test_the_collection_filter_is_inside_the_knn_clause(opensearch: OpenSearchWorld) -> None:
    # GIVEN five chunks near the query in collection "hr" and one far in "legal"
    index = opensearch.index(bulk_batch=50)
    hr = [_embedded(f"HR {i}.", NORTH, doc_id=f"hr{i}", collection="hr") for i in range(5)]
    index.index([*hr, _embedded("Legal.", EAST, doc_id="legal", collection="legal")])

    # WHEN "legal" is searched for the 2 nearest
    hits = index.search_vector("tenant-a", NORTH, 2, collection="legal")

    # THEN only the legal chunk comes back
    assert [hit.chunk.doc_id for hit in hits] == ["legal"]


def test_a_document_indexed_again_replaces_its_chunks_and_deletion_removes_them(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN a document of three chunks, and another document
    index = opensearch.index()
    old = [_embedded(f"Old clause {i}.", NORTH, doc_id="lease", ordinal=i) for i in range(3)]
    index.index([*old, _embedded("Other.", EAST, doc_id="other")])

    # WHEN it is indexed again as two new chunks (the ingest path: delete, then bulk)
    index.delete_document("tenant-a", "lease")
    new = [_embedded(f"New clause {i}.", NORTH, doc_id="lease", ordinal=i) for i in range(2)]
    index.index(new)

    # THEN only the new chunks are found, by words and by vector
    assert {hit.chunk.text for hit in index.search("tenant-a", "clause", 10)} == {
        "New clause 0.",
        "New clause 1.",
    }
    assert {hit.chunk.doc_id for hit in index.search_vector("tenant-a", NORTH, 10)} >= {"lease"}
    assert index.count("tenant-a") == 3

    # AND deleting it leaves the other document alone
    assert index.delete_document("tenant-a", "lease") == 2
    assert [hit.chunk.doc_id for hit in index.search_vector("tenant-a", NORTH, 10)] == ["other"]


def test_hybrid_search_is_fused_in_the_cluster_as_certiq_fuses_it(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN chunks some found by words, some by vector, some by both, in two tenants
    index = opensearch.index(bulk_batch=50)
    chunks = [
        _embedded("Refunds within 30 days.", EAST, doc_id="words"),
        _embedded("Money back policy.", NORTH, doc_id="vector"),
        _embedded("Refunds: the money back policy.", [0.7, 0.7, 0.0, 0.0], doc_id="both"),
        _embedded("Shipping takes five days.", SOUTH, doc_id="neither"),
        _embedded("Refunds for tenant B.", NORTH, doc_id="theirs", tenant="tenant-b"),
    ]
    index.index(chunks)
    settings = RetrievalSettings()

    # WHEN hybrid search runs through the engine's fusion
    fused = index.search_hybrid("tenant-a", "refunds", NORTH, 3, depth=10)
    result = hybrid_search(
        index, _FixedEmbedder(NORTH), "tenant-a", "refunds", 3, "hybrid", settings
    )

    # THEN the cluster fused it (neural-search), in the order certiq's own fusion gives
    assert fused is not None
    hits, candidates = fused
    expected = reciprocal_rank_fusion(
        [index.search("tenant-a", "refunds", 10), index.search_vector("tenant-a", NORTH, 10)],
        [1.0, 1.0],
        limit=3,
    )
    assert [hit.chunk.doc_id for hit in hits] == [hit.chunk.doc_id for hit in expected]
    assert len(hits) == 3 and candidates >= 3
    # AND the retrieval step takes that path, and never another tenant's chunk
    assert result.mode_used == "hybrid"
    assert [hit.chunk.doc_id for hit in result.hits] == [hit.chunk.doc_id for hit in hits]


class _FixedEmbedder:
    """An embedder whose every text is one vector: the query's, for hybrid_search."""

    name = "fixed"
    dimension = OPENSEARCH_DIMENSION

    def __init__(self, vector: list[float]) -> None:
        self._vector = vector

    def embed(self, texts: Any) -> Any:
        import numpy as np

        return np.array([self._vector for _ in texts], dtype=np.float32)


def test_a_missing_index_is_said_in_words_on_search(opensearch: OpenSearchWorld) -> None:
    # GIVEN no index was ever created
    index = opensearch.index(name="certiq-never-made")

    # WHEN it is searched
    # THEN the error names the index and the cluster and says what to do
    with pytest.raises(SearchIndexMismatch, match="certiq-never-made does not exist in OpenSearch"):
        index.search("tenant-a", "refund", 5)


def test_an_index_of_another_vector_dimension_is_said_in_words(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN an index made for 4-dimensional vectors
    opensearch.index().ensure_index()

    # WHEN an adapter for 8 dimensions (another embedder) writes to it or searches it
    wrong = opensearch.index(dimension=8)
    chunk = _embedded("Refunds.", [0.1] * 8, doc_id="policy")

    # THEN both refuse before anything is written, naming the index and the conflict
    with pytest.raises(SearchIndexMismatch, match=r"certiq-chunks .* is not the index certiq"):
        wrong.index([chunk])
    with pytest.raises(SearchIndexMismatch, match="dimension"):
        opensearch.index(dimension=8).search_vector("tenant-a", [0.1] * 8, 3)
    assert opensearch.index().count("tenant-a") == 0


def test_an_item_the_cluster_refuses_is_an_ingestion_error_naming_it(
    opensearch: OpenSearchWorld,
) -> None:
    # GIVEN an index that takes 4-dimensional vectors, and a chunk whose vector holds NaN
    index = opensearch.index()
    index.ensure_index()
    bad = _embedded("Refunds.", [float("nan"), 0.0, 0.0, 0.0], doc_id="policy")

    # WHEN it is indexed
    # THEN the cluster's refusal is a BulkRejected (an IngestionError: the document ends
    # FAILED with this reason), naming the item and the cluster's reason
    with pytest.raises(BulkRejected) as refused:
        index.index([bad, _embedded("Fine.", NORTH, doc_id="fine")])
    assert isinstance(refused.value, IngestionError)
    assert "1 documents rejected" in str(refused.value) and "tenant-a:policy:0" in str(
        refused.value
    )
