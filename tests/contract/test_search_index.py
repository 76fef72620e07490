"""Contract of certiq.ports.SearchIndex, run on SQLite FTS5 and on OpenSearch (osmem-server)."""

from __future__ import annotations

import pytest

from certiq.ports import SearchIndex
from tests.fakes import make_chunk

REFUNDS = "Refunds are accepted within 30 days of purchase. Keep the original receipt."
SHIPPING = "Shipping takes five working days. Parcels are tracked by the courier."
PAYROLL = "Salaries are paid on the last working day of each month."


def test_bm25_ranks_the_chunk_holding_the_query_terms_first(search_index: SearchIndex) -> None:
    # GIVEN three chunks on different subjects
    search_index.index(
        [
            make_chunk(SHIPPING, doc_id="ship", ordinal=0),
            make_chunk(REFUNDS, doc_id="policy", ordinal=0),
            make_chunk(PAYROLL, doc_id="hr", ordinal=0),
        ]
    )

    # WHEN a question about refunds is searched
    hits = search_index.search("tenant-a", "How many days do I have to get a refund?", k=3)

    # THEN the refunds chunk comes first (stemming matches refund/Refunds), scored positive
    assert hits, "expected at least one hit"
    assert hits[0].chunk.chunk_id == "policy:0"
    assert hits[0].score > 0
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_stopwords_do_not_decide_the_ranking(search_index: SearchIndex) -> None:
    # GIVEN a chunk full of stopwords and a short one with the content word
    search_index.index(
        [
            make_chunk("It is what it is and that is all there is to it.", doc_id="d1"),
            make_chunk("Warranty: two years.", doc_id="d2"),
        ]
    )

    # WHEN a question mixing both is searched
    hits = search_index.search("tenant-a", "what is the warranty", k=5)

    # THEN only the content word counts
    assert [h.chunk.doc_id for h in hits] == ["d2"]


def test_search_returns_at_most_k_hits_with_whole_chunks(search_index: SearchIndex) -> None:
    # GIVEN five chunks that all mention invoices
    chunks = [make_chunk(f"Invoice number {i} is due.", doc_id="inv", ordinal=i) for i in range(5)]
    search_index.index(chunks)

    # WHEN searching with k=2
    hits = search_index.search("tenant-a", "invoice", k=2)

    # THEN two hits come back, each an intact chunk as indexed
    assert len(hits) == 2
    for hit in hits:
        assert hit.chunk == chunks[hit.chunk.ordinal]


def test_a_chunk_of_another_tenant_is_never_returned(search_index: SearchIndex) -> None:
    # GIVEN tenant B holds the best match and tenant A a weak one
    search_index.index(
        [
            make_chunk(
                "Merger plans: the merger closes in May.", doc_id="secret", tenant="tenant-b"
            ),
            make_chunk("A note mentioning a merger once among many other words.", doc_id="memo"),
        ]
    )

    # WHEN tenant A searches for it
    hits = search_index.search("tenant-a", "merger plans", k=10)

    # THEN only tenant A's chunk is returned
    assert [(h.chunk.tenant, h.chunk.doc_id) for h in hits] == [("tenant-a", "memo")]
    assert search_index.search("tenant-c", "merger plans", k=10) == []


def test_get_chunks_does_not_cross_tenants(search_index: SearchIndex) -> None:
    # GIVEN a chunk of each tenant
    a = make_chunk(REFUNDS, doc_id="pa", tenant="tenant-a")
    b = make_chunk(SHIPPING, doc_id="pb", tenant="tenant-b")
    search_index.index([a, b])

    # WHEN tenant A asks for both ids and one that does not exist
    got = search_index.get_chunks("tenant-a", [a.chunk_id, b.chunk_id, "missing:0"])

    # THEN it gets its own chunk only
    assert got == {a.chunk_id: a}


def test_same_chunk_id_in_two_tenants_stays_separate(search_index: SearchIndex) -> None:
    # GIVEN two tenants whose documents happen to share a chunk id
    a = make_chunk(REFUNDS, doc_id="handbook", tenant="tenant-a")
    b = make_chunk(SHIPPING, doc_id="handbook", tenant="tenant-b")
    search_index.index([a, b])

    # WHEN / THEN neither replaced the other
    assert search_index.get_chunks("tenant-a", [a.chunk_id]) == {a.chunk_id: a}
    assert search_index.get_chunks("tenant-b", [b.chunk_id]) == {b.chunk_id: b}


def test_reindexing_the_same_chunks_changes_nothing(search_index: SearchIndex) -> None:
    # GIVEN an indexed document and its search results
    chunks = [
        make_chunk(REFUNDS, doc_id="policy", ordinal=0),
        make_chunk(SHIPPING, doc_id="policy", ordinal=1),
    ]
    search_index.index(chunks)
    before = search_index.search("tenant-a", "refund receipt shipping", k=10)

    # WHEN the same chunks are indexed again (an S3 event delivered twice)
    written = search_index.index(chunks)

    # THEN the count and the results are the same
    assert written == 2
    assert search_index.count("tenant-a") == 2
    assert search_index.search("tenant-a", "refund receipt shipping", k=10) == before


def test_index_replaces_a_chunk_by_id(search_index: SearchIndex) -> None:
    # GIVEN a chunk about refunds
    search_index.index([make_chunk(REFUNDS, doc_id="policy")])

    # WHEN a new version of the chunk speaks of payroll
    search_index.index([make_chunk(PAYROLL, doc_id="policy")])

    # THEN the old text is no longer found and the new one is
    assert search_index.search("tenant-a", "refunds receipt", k=5) == []
    hits = search_index.search("tenant-a", "salaries", k=5)
    assert [h.chunk.text for h in hits] == [PAYROLL]
    assert search_index.count("tenant-a") == 1


def test_delete_document_removes_its_chunks_only(search_index: SearchIndex) -> None:
    # GIVEN two documents of tenant A and one of tenant B with the same doc id
    search_index.index(
        [
            make_chunk(REFUNDS, doc_id="policy", ordinal=0),
            make_chunk(SHIPPING, doc_id="policy", ordinal=1),
            make_chunk(PAYROLL, doc_id="hr", ordinal=0),
            make_chunk(REFUNDS, doc_id="policy", ordinal=0, tenant="tenant-b"),
        ]
    )

    # WHEN tenant A deletes "policy"
    removed = search_index.delete_document("tenant-a", "policy")

    # THEN its two chunks are gone from search and counts; the rest stays
    assert removed == 2
    assert search_index.count("tenant-a") == 1
    assert search_index.search("tenant-a", "refunds shipping", k=10) == []
    assert search_index.count("tenant-b") == 1
    assert search_index.delete_document("tenant-a", "policy") == 0


def test_count_is_per_tenant(search_index: SearchIndex) -> None:
    search_index.index(
        [make_chunk(REFUNDS, doc_id="d", ordinal=i) for i in range(3)]
        + [make_chunk(REFUNDS, doc_id="d", tenant="tenant-b")]
    )
    assert (search_index.count("tenant-a"), search_index.count("tenant-b")) == (3, 1)
    assert search_index.count("tenant-z") == 0


@pytest.mark.parametrize(
    "query",
    [
        '"AND" OR NEAR( *',
        'refund" OR "x',
        "NOT refund",
        "refund*",
        "text: refund",
        "{tenant}: refund ^ -",
        "(((",
        "'; DROP TABLE chunks; --",
        "NEAR(refund receipt, 2)",
    ],
)
def test_fts_syntax_in_the_query_is_taken_as_words(search_index: SearchIndex, query: str) -> None:
    # GIVEN an indexed chunk
    search_index.index([make_chunk(REFUNDS, doc_id="policy")])

    # WHEN a query full of FTS5 operators and punctuation is searched
    hits = search_index.search("tenant-a", query, k=5)

    # THEN it never errors, and the words in it still match as words
    if "refund" in query.lower():
        assert [h.chunk.doc_id for h in hits] == ["policy"]
    assert search_index.count("tenant-a") == 1


@pytest.mark.parametrize("query", ["", "   ", "?!...", "***"])
def test_a_query_without_words_finds_nothing(search_index: SearchIndex, query: str) -> None:
    search_index.index([make_chunk(REFUNDS, doc_id="policy")])
    assert search_index.search("tenant-a", query, k=5) == []


def test_an_empty_index_finds_nothing(search_index: SearchIndex) -> None:
    assert search_index.search("tenant-a", "refund", k=5) == []
    assert search_index.get_chunks("tenant-a", ["policy:0"]) == {}


# --- collections ---------------------------------------------------------------------------


def test_the_collection_filter_is_inside_the_query(search_index: SearchIndex) -> None:
    # GIVEN the best match in collection "hr" and a weaker one in "legal", same tenant
    search_index.index(
        [
            make_chunk("Merger plans: the merger closes in May.", doc_id="hr", collection="hr"),
            make_chunk("A note mentioning a merger once.", doc_id="legal", collection="legal"),
            make_chunk("Merger merger merger plans.", doc_id="loose"),
        ]
    )

    # WHEN "legal" is searched for one hit
    hits = search_index.search("tenant-a", "merger plans", k=1, collection="legal")

    # THEN the hit is legal's: the filter chose among legal's chunks before the top 1 was taken
    # (a filter applied to the results would have kept hr's and returned nothing)
    assert [(h.chunk.doc_id, h.chunk.collection) for h in hits] == [("legal", "legal")]
    # AND a collection nobody uses finds nothing, while no collection searches them all
    assert search_index.search("tenant-a", "merger plans", k=5, collection="finance") == []
    everything = search_index.search("tenant-a", "merger plans", k=5)
    assert {h.chunk.doc_id for h in everything} == {"hr", "legal", "loose"}


def test_a_collection_never_crosses_tenants(search_index: SearchIndex) -> None:
    search_index.index(
        [
            make_chunk(REFUNDS, doc_id="b", tenant="tenant-b", collection="policies"),
            make_chunk(SHIPPING, doc_id="a", collection="policies"),
        ]
    )
    assert search_index.search("tenant-a", "refunds receipt", k=5, collection="policies") == []


# --- embeddings beside the chunk -----------------------------------------------------------

VECTOR = [0.5, -0.5, 0.5, 0.5]  # the dimension of the contract suite's OpenSearch index: 4


def test_search_hits_never_carry_the_embedding(search_index: SearchIndex) -> None:
    # GIVEN a chunk indexed with its embedding
    chunk = make_chunk(REFUNDS, doc_id="policy", embedding=VECTOR)
    search_index.index([chunk])

    # WHEN it is found by a search
    [hit] = search_index.search("tenant-a", "refunds", k=3)

    # THEN the hit is the chunk without its vector, and get_chunks still returns the vector
    assert hit.chunk == chunk.model_copy(update={"embedding": None})
    stored = search_index.get_chunks("tenant-a", [chunk.chunk_id])[chunk.chunk_id]
    assert stored.embedding == pytest.approx(VECTOR)
