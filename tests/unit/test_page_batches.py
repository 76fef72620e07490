"""Parsing and chunking page batch by page batch gives exactly what one pass gives."""

from __future__ import annotations

import pytest

from certiq.config import ChunkingSettings
from certiq.ingestion.chunking import chunk_document, chunk_pdf
from certiq.ingestion.pdf import iter_page_batches, parse_pdf
from certiq.models import Chunk, SourceRef
from tests.unit.test_furniture import policy_pdf

SOURCE = SourceRef(uri="s3://b/policy.pdf", file_name="policy.pdf", sha256="0" * 64, version="v1")


def settings(page_batch: int) -> ChunkingSettings:
    # A small target, so that chunks span pages and their overlap crosses batch boundaries.
    return ChunkingSettings(target_chars=100, overlap_sentences=1, page_batch=page_batch)


def batched(data: bytes, page_batch: int) -> list[Chunk]:
    return [
        chunk
        for batch in chunk_pdf(
            data, doc_id="dpol", tenant="acme", source=SOURCE, settings=settings(page_batch)
        )
        for chunk in batch.chunks
    ]


@pytest.fixture(scope="module")
def eleven_pages() -> bytes:
    """Eleven pages with a running header and page-number footer (furniture to drop)."""
    return policy_pdf(11)


@pytest.mark.parametrize("page_batch", [1, 2, 3, 7, 11, 50])
def test_chunks_are_identical_whatever_the_page_batch(eleven_pages: bytes, page_batch: int) -> None:
    # GIVEN an 11-page document chunked in one pass
    single = chunk_document(
        parse_pdf(eleven_pages, max_sentence_chars=100),
        doc_id="dpol",
        tenant="acme",
        source=SOURCE,
        settings=settings(50),
    )

    # WHEN it is parsed and chunked page_batch pages at a time
    chunks = batched(eleven_pages, page_batch)

    # THEN the chunks are the same, ids, ordinals, text, offsets and boxes included
    assert len(single) >= 5
    assert any(c.page_start != c.page_end for c in single)  # chunks span pages
    assert [c.model_dump() for c in chunks] == [c.model_dump() for c in single]
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert not any("Northwind" in c.text for c in chunks)  # furniture dropped in every batch


def test_batches_hold_at_most_page_batch_pages_in_order(eleven_pages: bytes) -> None:
    # WHEN an 11-page document is parsed 4 pages at a time
    batches = list(iter_page_batches(eleven_pages, batch_pages=4))

    # THEN the batches have 4, 4 and 3 pages, numbered 1..11 in order, as a single pass has them
    assert [len(batch) for batch in batches] == [4, 4, 3]
    pages = [page for batch in batches for page in batch]
    assert [page.number for page in pages] == list(range(1, 12))
    assert tuple(pages) == parse_pdf(eleven_pages).pages


def test_each_batch_reports_its_pages_and_the_last_chunk_comes_at_the_end(
    eleven_pages: bytes,
) -> None:
    batches = list(
        chunk_pdf(eleven_pages, doc_id="dpol", tenant="acme", source=SOURCE, settings=settings(5))
    )
    assert [batch.pages for batch in batches] == [5, 5, 1, 0]
    assert all(batch.chunks for batch in batches[:2])  # chunks come as their pages are read
