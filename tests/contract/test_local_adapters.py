"""What only the local adapters promise: the SQLite file, the key file, the folder's boundary."""

from __future__ import annotations

import sqlite3
import stat
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from certiq.adapters.local.blob_folder import FolderBlobStore
from certiq.adapters.local.clock import SystemClock
from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.adapters.local.sqlite_db import (
    DB_FILE_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    SqliteDatabase,
)
from certiq.adapters.local.sqlite_stores import SqliteDocumentStore, SqliteQuestionStore
from certiq.errors import CertiqError, InvalidRequest
from certiq.models import QuestionStatus
from tests.fakes import make_document, make_question


def test_the_database_is_one_file_in_wal_mode_with_a_schema_version(tmp_path: Path) -> None:
    # GIVEN / WHEN a database is opened in an empty data directory
    db = SqliteDatabase(tmp_path / "home")

    # THEN certiq.db exists, in WAL mode, at the current schema version
    assert db.path == tmp_path / "home" / DB_FILE_NAME
    with db.read() as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.schema_version() == SCHEMA_VERSION
    db.close()


def test_reopening_keeps_the_data_and_applies_the_schema_once(tmp_path: Path) -> None:
    # GIVEN a database holding a document
    first = SqliteDatabase(tmp_path)
    SqliteDocumentStore(first).put(make_document("doc-1"))
    first.close()

    # WHEN it is opened again
    second = SqliteDatabase(tmp_path)

    # THEN the document is there and the schema was recorded once
    assert SqliteDocumentStore(second).get("tenant-a", "doc-1") is not None
    with second.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == len(MIGRATIONS)
    second.close()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    # GIVEN a database written by a later certiq
    SqliteDatabase(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_FILE_NAME)
    conn.execute("INSERT INTO schema_version VALUES (?, 'later')", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()

    # WHEN this certiq opens it / THEN it refuses rather than guess
    with pytest.raises(RuntimeError, match="newer"):
        SqliteDatabase(tmp_path)


def test_stores_are_safe_to_share_between_threads(tmp_path: Path) -> None:
    # GIVEN one database and question store shared by 8 threads
    db = SqliteDatabase(tmp_path)
    store = SqliteQuestionStore(db)
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for i in range(25):
                question_id = f"q-{worker}-{i}"
                store.create(make_question(question_id))
                store.set_status(question_id, QuestionStatus.RETRIEVING)
                assert store.get(question_id) is not None
        except BaseException as error:  # reported below
            errors.append(error)

    # WHEN they all create, update and read at once
    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN nothing failed and every write landed
    assert errors == []
    with db.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM questions").fetchone()[0] == 200
    db.close()


def test_the_key_file_is_created_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    # GIVEN no key file
    path = tmp_path / "keys" / "signing-key.pem"

    # WHEN a signer is first used
    signer = KeyFileSigner(path)
    signer.sign(b"seal")

    # THEN an Ed25519 private key exists with mode 0600 and the key id derives from its public half
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert signer.key_id == "local-ed25519:" + signer.public_key().fingerprint[:16]


def test_an_existing_key_file_is_never_replaced(tmp_path: Path) -> None:
    # GIVEN a key file
    path = tmp_path / "signing-key.pem"
    KeyFileSigner(path).sign(b"seal")
    key = path.read_bytes()

    # WHEN other signers use it
    KeyFileSigner(path).sign(b"seal")

    # THEN it holds the same key
    assert path.read_bytes() == key


@pytest.mark.parametrize("content", [b"short", b"-----BEGIN PRIVATE KEY-----\nAAAA\n"])
def test_a_corrupt_key_file_is_refused_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "signing-key.pem"
    path.write_bytes(content)
    with pytest.raises(CertiqError, match=r"signing-key\.pem"):
        KeyFileSigner(path).sign(b"seal")


def test_a_symlink_cannot_lead_a_key_outside_the_folder(tmp_path: Path) -> None:
    # GIVEN a folder store with a link pointing outside its root
    outside = tmp_path / "outside"
    outside.mkdir()
    store = FolderBlobStore(tmp_path / "blobs")
    (tmp_path / "blobs" / "link").symlink_to(outside, target_is_directory=True)

    # WHEN a key goes through the link / THEN it is refused and nothing is written outside
    with pytest.raises(InvalidRequest):
        store.put("link/escape.pdf", b"x", "application/pdf")
    assert list(outside.iterdir()) == []


def test_folder_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    # GIVEN / WHEN a blob is written twice
    store = FolderBlobStore(tmp_path)
    uri = store.put("a/b.pdf", b"1", "application/pdf")
    store.put("a/b.pdf", b"2", "application/pdf")

    # THEN the folder holds exactly the blob, and its URI is the file's
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.pdf"]
    assert uri == (tmp_path / "a" / "b.pdf").resolve().as_uri()


def test_the_system_clock_is_aware_utc() -> None:
    now = SystemClock().now()
    assert now.tzinfo is not None and now.utcoffset() == UTC.utcoffset(None)
    assert abs((datetime.now(UTC) - now).total_seconds()) < 5
