"""Contract of certiq.ports.BlobStore, run on FolderBlobStore and S3BlobStore."""

from __future__ import annotations

import pytest

from certiq.errors import InvalidRequest, NotFound
from certiq.ports import BlobStore

PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"


def test_put_then_get_returns_the_same_bytes(blob_store: BlobStore) -> None:
    # GIVEN a store holding a binary file under a nested key
    blob_store.put("tenant-a/reports/q1.pdf", PDF, "application/pdf")

    # WHEN it is read back
    data = blob_store.get("tenant-a/reports/q1.pdf")

    # THEN every byte is intact
    assert data == PDF


def test_put_returns_a_uri_naming_the_key(blob_store: BlobStore) -> None:
    # GIVEN / WHEN a blob is stored
    uri = blob_store.put("tenant-a/q1.pdf", PDF, "application/pdf")

    # THEN its URI is a file:// or s3:// URI ending with the key
    assert uri.startswith(("file://", "s3://"))
    assert uri.endswith("/tenant-a/q1.pdf")


def test_put_replaces_what_the_key_held(blob_store: BlobStore) -> None:
    # GIVEN a key holding a first version
    blob_store.put("doc.txt", b"first", "text/plain")

    # WHEN a second version is stored under the same key
    blob_store.put("doc.txt", b"second", "text/plain")

    # THEN the key holds the second version
    assert blob_store.get("doc.txt") == b"second"


def test_get_of_a_missing_key_raises_not_found(blob_store: BlobStore) -> None:
    # GIVEN an empty store / WHEN a key is read / THEN NotFound
    with pytest.raises(NotFound):
        blob_store.get("tenant-a/never-stored.pdf")


def test_get_of_a_version_the_store_does_not_hold_raises_not_found(
    blob_store: BlobStore,
) -> None:
    # GIVEN a stored blob (the contract bucket keeps no versions, nor does a folder)
    blob_store.put("tenant-a/doc.pdf", b"%PDF-1.7", "application/pdf")

    # WHEN a version of it that was never issued is read / THEN NotFound, not the current bytes
    with pytest.raises(NotFound):
        blob_store.get("tenant-a/doc.pdf", version="3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY")
    assert blob_store.get("tenant-a/doc.pdf", version=None) == b"%PDF-1.7"


def test_exists_tells_stored_from_missing_keys(blob_store: BlobStore) -> None:
    # GIVEN one stored key
    blob_store.put("tenant-a/present.pdf", PDF, "application/pdf")

    # WHEN / THEN exists says yes for it and no for others, including its folder
    assert blob_store.exists("tenant-a/present.pdf") is True
    assert blob_store.exists("tenant-a/absent.pdf") is False
    assert blob_store.exists("tenant-a") is False


def test_delete_removes_the_blob_and_is_idempotent(blob_store: BlobStore) -> None:
    # GIVEN a stored blob
    blob_store.put("tenant-a/gone.pdf", PDF, "application/pdf")

    # WHEN it is deleted, twice
    blob_store.delete("tenant-a/gone.pdf")
    blob_store.delete("tenant-a/gone.pdf")

    # THEN it no longer exists and reading it raises NotFound
    assert blob_store.exists("tenant-a/gone.pdf") is False
    with pytest.raises(NotFound):
        blob_store.get("tenant-a/gone.pdf")


def test_empty_blobs_are_stored(blob_store: BlobStore) -> None:
    # GIVEN / WHEN an empty blob is stored
    blob_store.put("empty.bin", b"", "application/octet-stream")

    # THEN it exists and reads back empty
    assert blob_store.exists("empty.bin") is True
    assert blob_store.get("empty.bin") == b""


@pytest.mark.parametrize(
    "key",
    ["../outside.pdf", "a/../../outside.pdf", "/etc/passwd", "a//b.pdf", "./a.pdf", "a\\b", ""],
)
def test_keys_that_could_escape_the_root_are_refused(blob_store: BlobStore, key: str) -> None:
    # GIVEN a key that is not a plain relative path
    # WHEN it is used to write, read, test or delete / THEN every use is refused
    with pytest.raises(InvalidRequest):
        blob_store.put(key, PDF, "application/pdf")
    with pytest.raises(InvalidRequest):
        blob_store.get(key)
    with pytest.raises(InvalidRequest):
        blob_store.exists(key)
    with pytest.raises(InvalidRequest):
        blob_store.delete(key)
