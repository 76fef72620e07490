"""Contract of certiq.ports.DocumentStore, run on SQLite and DynamoDB."""

from __future__ import annotations

from datetime import timedelta

import pytest

from certiq.models import DocumentStatus
from certiq.ports import DocumentStore
from tests.fakes import EPOCH, make_document

pytestmark = pytest.mark.contract


def test_put_then_get_returns_an_equal_record(document_store: DocumentStore) -> None:
    # GIVEN a stored record
    record = make_document("doc-1").model_copy(update={"reason": "a note", "pages": 7})
    document_store.put(record)

    # WHEN it is read back
    got = document_store.get("tenant-a", "doc-1")

    # THEN every field round-trips
    assert got == record


def test_get_of_an_unknown_document_is_none(document_store: DocumentStore) -> None:
    # GIVEN an empty store / WHEN / THEN
    assert document_store.get("tenant-a", "nope") is None


def test_put_replaces_the_record_of_the_same_document(document_store: DocumentStore) -> None:
    # GIVEN a document being processed
    document_store.put(make_document("doc-1", status=DocumentStatus.PROCESSING, chunks=0))

    # WHEN its record is put again, indexed
    document_store.put(make_document("doc-1", status=DocumentStatus.INDEXED, chunks=12))

    # THEN the store holds one record, the second
    got = document_store.get("tenant-a", "doc-1")
    assert got is not None
    assert (got.status, got.chunks) == (DocumentStatus.INDEXED, 12)
    assert len(document_store.list("tenant-a")) == 1


def test_list_is_oldest_first(document_store: DocumentStore) -> None:
    # GIVEN three documents stored in an order unrelated to their age or id
    document_store.put(make_document("b-middle", created_at=EPOCH + timedelta(minutes=5)))
    document_store.put(make_document("c-oldest", created_at=EPOCH))
    document_store.put(make_document("a-newest", created_at=EPOCH + timedelta(hours=1)))

    # WHEN the tenant's documents are listed
    listed = document_store.list("tenant-a")

    # THEN they come oldest first
    assert [r.doc_id for r in listed] == ["c-oldest", "b-middle", "a-newest"]


def test_tenants_do_not_see_each_others_documents(document_store: DocumentStore) -> None:
    # GIVEN the same doc_id stored by two tenants
    document_store.put(make_document("shared", tenant="tenant-a", chunks=1))
    document_store.put(make_document("shared", tenant="tenant-b", chunks=2))
    document_store.put(make_document("only-b", tenant="tenant-b"))

    # WHEN each tenant reads
    a = document_store.get("tenant-a", "shared")
    listed_a = document_store.list("tenant-a")

    # THEN each sees its own record only
    assert a is not None and a.chunks == 1
    assert [(r.tenant, r.doc_id) for r in listed_a] == [("tenant-a", "shared")]
    assert document_store.get("tenant-a", "only-b") is None
    assert document_store.list("tenant-c") == []
