"""Contract of certiq.ports.DocumentStore, run on SQLite and DynamoDB."""

from __future__ import annotations

from datetime import timedelta

import pytest

from certiq.errors import InvalidRequest, StaleEvent
from certiq.models import DocumentRecord, DocumentStatus
from certiq.ports import DocumentStore
from tests.fakes import EPOCH, make_document


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


def sequenced(sequencer: str | None, *, chunks: int = 3, doc_id: str = "doc-1") -> DocumentRecord:
    """A document's record after the S3 event with this sequencer was applied."""
    return make_document(doc_id, chunks=chunks).model_copy(update={"sequencer": sequencer})


def test_a_later_sequencer_replaces_the_record(document_store: DocumentStore) -> None:
    # GIVEN a record that applied the event 0A
    document_store.put(sequenced("0A", chunks=1))

    # WHEN the record of the later event 0B is put conditionally
    document_store.put_if_sequencer_before(sequenced("0B", chunks=2), "0B")

    # THEN it is stored
    assert document_store.get("tenant-a", "doc-1") == sequenced("0B", chunks=2)


@pytest.mark.parametrize("sequencer", ["0A", "09", "0a", "000A"])
def test_an_earlier_or_equal_sequencer_is_refused_and_the_record_kept(
    document_store: DocumentStore, sequencer: str
) -> None:
    # GIVEN a record that applied the event 0A
    applied = sequenced("0A", chunks=1)
    document_store.put(applied)

    # WHEN a record is put for an event not later (earlier, or the same in another spelling)
    # THEN it is refused as stale and the stored record is untouched
    with pytest.raises(StaleEvent):
        document_store.put_if_sequencer_before(sequenced(sequencer, chunks=2), sequencer)
    assert document_store.get("tenant-a", "doc-1") == applied


def test_sequencers_compare_after_left_padding_with_zeros(document_store: DocumentStore) -> None:
    # GIVEN a record that applied the event F (shorter, and greater as a plain string than "10")
    document_store.put_if_sequencer_before(sequenced("F"), "F")

    # WHEN the event 10 comes (later under AWS's rule: 10 > 0F), then the event E
    document_store.put_if_sequencer_before(sequenced("10", chunks=5), "10")

    # THEN 10 replaced F, and E (0E < 10) is refused
    with pytest.raises(StaleEvent):
        document_store.put_if_sequencer_before(sequenced("E"), "E")
    assert document_store.get("tenant-a", "doc-1") == sequenced("10", chunks=5)


def test_an_event_in_progress_keeps_the_previous_sequencer_and_still_orders(
    document_store: DocumentStore,
) -> None:
    # GIVEN a record that applied the event 05
    document_store.put(sequenced("05"))

    # WHEN event 07 writes its in-progress record (still naming 05), then applies 07
    processing = sequenced("05").model_copy(update={"status": DocumentStatus.PROCESSING})
    document_store.put_if_sequencer_before(processing, "07")
    assert document_store.get("tenant-a", "doc-1") == processing
    document_store.put_if_sequencer_before(sequenced("07"), "07")

    # THEN an event 06 handled at the same time can write nothing any more
    with pytest.raises(StaleEvent):
        document_store.put_if_sequencer_before(processing, "06")
    assert document_store.get("tenant-a", "doc-1") == sequenced("07")


def test_a_record_without_a_sequencer_or_no_record_accepts_any(
    document_store: DocumentStore,
) -> None:
    # GIVEN a record stored without a sequencer (ingested by hand, say) and no record at all
    document_store.put(sequenced(None, doc_id="by-hand"))

    # WHEN records for an event are put conditionally on both
    document_store.put_if_sequencer_before(sequenced("01", doc_id="by-hand"), "01")
    document_store.put_if_sequencer_before(sequenced("01", doc_id="new"), "01")

    # THEN both are stored
    assert document_store.get("tenant-a", "by-hand") == sequenced("01", doc_id="by-hand")
    assert document_store.get("tenant-a", "new") == sequenced("01", doc_id="new")


def test_a_plain_put_back_to_no_sequencer_then_accepts_any(document_store: DocumentStore) -> None:
    # GIVEN a record with a sequencer, replaced by a plain put of one without (an API re-upload)
    document_store.put(sequenced("0F"))
    document_store.put(sequenced(None))

    # WHEN an event earlier than the old sequencer is applied
    document_store.put_if_sequencer_before(sequenced("01"), "01")

    # THEN it is stored: the condition reads the record as it is now
    assert document_store.get("tenant-a", "doc-1") == sequenced("01")


@pytest.mark.parametrize("bad", ["", "0x1F", "g1", "1" * 65])
def test_a_malformed_sequencer_is_refused(document_store: DocumentStore, bad: str) -> None:
    # GIVEN an empty store / WHEN a conditional put names a malformed sequencer
    # THEN it is refused and nothing is stored
    with pytest.raises(InvalidRequest):
        document_store.put_if_sequencer_before(sequenced(None), bad)
    assert document_store.get("tenant-a", "doc-1") is None
