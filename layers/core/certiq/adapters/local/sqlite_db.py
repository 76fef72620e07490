"""The single SQLite file of the local runtime: opening, schema, transactions.

Everything local (documents, questions, certificates, the chunk index) lives in one file,
``certiq.db`` under the data directory, in WAL mode so readers never block the writer.

Thread-safety: the local HTTP server calls the stores from several threads. One connection is
shared (``check_same_thread=False``) and every use of it goes through one re-entrant lock, so a
statement or a transaction is never interleaved with another thread's. Other processes (a
``certiq ingest`` next to ``certiq serve``) are serialised by SQLite itself: writes start with
``BEGIN IMMEDIATE`` and wait up to ``busy_timeout`` for the file lock.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

DB_FILE_NAME: Final = "certiq.db"
BUSY_TIMEOUT_MS: Final = 10_000

# Schema migrations, applied in order, each once. Append; never edit a released step.
MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE documents (
            tenant      TEXT NOT NULL,
            doc_id      TEXT NOT NULL,
            status      TEXT NOT NULL,
            created_key TEXT NOT NULL,
            body        TEXT NOT NULL,
            PRIMARY KEY (tenant, doc_id)
        );
        CREATE INDEX documents_by_age ON documents (tenant, created_key, doc_id);

        CREATE TABLE questions (
            question_id TEXT PRIMARY KEY,
            tenant      TEXT NOT NULL,
            status      TEXT NOT NULL,
            reason      TEXT,
            updated_at  TEXT NOT NULL,
            response    TEXT,
            body        TEXT NOT NULL
        );

        CREATE TABLE certificates (
            certificate_id TEXT PRIMARY KEY,
            tenant         TEXT NOT NULL,
            question_id    TEXT NOT NULL,
            body           TEXT NOT NULL
        );

        CREATE TABLE chunks (
            id       INTEGER PRIMARY KEY,
            tenant   TEXT NOT NULL,
            chunk_id TEXT NOT NULL,
            doc_id   TEXT NOT NULL,
            body     TEXT NOT NULL,
            UNIQUE (tenant, chunk_id)
        );
        CREATE INDEX chunks_by_document ON chunks (tenant, doc_id);

        -- rowid of chunks_fts = chunks.id
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            text,
            tenant UNINDEXED,
            doc_id UNINDEXED,
            tokenize = 'porter unicode61'
        );
        """,
    ),
    (
        2,
        """
        -- Vectors already computed, by embedding model and SHA-256 of the text (float32 LE).
        CREATE TABLE embedding_cache (
            model       TEXT NOT NULL,
            text_sha256 TEXT NOT NULL,
            dimension   INTEGER NOT NULL,
            vector      BLOB NOT NULL,
            PRIMARY KEY (model, text_sha256)
        ) WITHOUT ROWID;
        """,
    ),
    (
        3,
        """
        -- Collections filter inside the query; vectors live beside the chunk, not in its JSON.
        ALTER TABLE chunks ADD COLUMN collection TEXT;
        UPDATE chunks SET body = json_remove(body, '$.embedding')
            WHERE json_type(body, '$.embedding') IS NOT NULL;

        -- id = chunks.id; float32 little-endian, recorded with the model that made it.
        CREATE TABLE chunk_vectors (
            id         INTEGER PRIMARY KEY,
            tenant     TEXT NOT NULL,
            collection TEXT,
            model      TEXT NOT NULL,
            dimension  INTEGER NOT NULL,
            vector     BLOB NOT NULL
        );
        CREATE INDEX chunk_vectors_by_tenant ON chunk_vectors (tenant, model, id);

        -- Bumped by every write to a tenant's chunks, so any process sees its cache is stale.
        CREATE TABLE chunk_generations (
            tenant     TEXT PRIMARY KEY,
            generation INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
    ),
    (
        4,
        """
        -- The full-text table filters tenant and collection itself: no join per match, so
        -- FTS5 can rank and cut to the top k on its own (twice as fast on 10k chunks).
        CREATE VIRTUAL TABLE chunks_fts_v4 USING fts5(
            text,
            tenant UNINDEXED,
            doc_id UNINDEXED,
            collection UNINDEXED,
            tokenize = 'porter unicode61'
        );
        INSERT INTO chunks_fts_v4 (rowid, text, tenant, doc_id, collection)
            SELECT f.rowid, f.text, f.tenant, f.doc_id, c.collection
            FROM chunks_fts AS f JOIN chunks AS c ON c.id = f.rowid;
        DROP TABLE chunks_fts;
        ALTER TABLE chunks_fts_v4 RENAME TO chunks_fts;
        """,
    ),
    (
        5,
        """
        -- A conversation's questions, oldest first.
        ALTER TABLE questions ADD COLUMN conversation_id TEXT;
        ALTER TABLE questions ADD COLUMN created_key TEXT;
        -- utc_key's format; rows from before this step keep whole seconds only.
        UPDATE questions SET
            conversation_id = json_extract(body, '$.conversation_id'),
            created_key = strftime('%Y-%m-%dT%H:%M:%S', json_extract(body, '$.created_at'))
                || '.000000';
        CREATE INDEX questions_by_conversation
            ON questions (tenant, conversation_id, created_key, question_id);
        """,
    ),
    (
        6,
        """
        -- Fully verified answers a later near-identical question may reuse. collection is ''
        -- for questions asked of no collection; vector: float32 little-endian, or NULL.
        CREATE TABLE verified_answers (
            tenant      TEXT NOT NULL,
            question_id TEXT NOT NULL,
            collection  TEXT NOT NULL,
            terms_key   TEXT NOT NULL,
            created_key TEXT NOT NULL,
            vector      BLOB,
            body        TEXT NOT NULL,
            PRIMARY KEY (tenant, question_id)
        );
        CREATE INDEX verified_answers_by_age
            ON verified_answers (tenant, collection, created_key);
        CREATE INDEX verified_answers_by_terms
            ON verified_answers (tenant, collection, terms_key, created_key);
        """,
    ),
    (
        7,
        """
        -- Every row written to or deleted from a tenant's chunks, in order, so an index held in
        -- memory (by this process or another) catches up by reading what changed since the last
        -- change it applied, not the whole tenant. added: 1 inserted, 0 deleted. The oldest
        -- changes are trimmed; changes_from is the first change a reader can still catch up
        -- from (one that applied less rebuilds from the tables). They supersede
        -- chunk_generations.generation, no longer written.
        CREATE TABLE chunk_changes (
            seq    INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant TEXT NOT NULL,
            id     INTEGER NOT NULL,
            added  INTEGER NOT NULL
        );
        CREATE INDEX chunk_changes_by_tenant ON chunk_changes (tenant, seq);
        ALTER TABLE chunk_generations ADD COLUMN changes_from INTEGER NOT NULL DEFAULT 0;

        -- The saved in-memory index of each tenant and kind (BM25, or one model's vectors): a
        -- folder under <data dir>/index/ reflecting the log up to seq.
        CREATE TABLE index_snapshots (
            tenant TEXT NOT NULL,
            kind   TEXT NOT NULL,
            seq    INTEGER NOT NULL,
            folder TEXT NOT NULL,
            PRIMARY KEY (tenant, kind)
        ) WITHOUT ROWID;
        """,
    ),
    (
        8,
        """
        -- Re-checks of a certificate against the documents now (certiq.trust.rechecks): each
        -- written once, sequence 1, 2, ... per certificate, chained by digest.
        CREATE TABLE certificate_rechecks (
            certificate_id TEXT NOT NULL,
            sequence       INTEGER NOT NULL,
            tenant         TEXT NOT NULL,
            body           TEXT NOT NULL,
            PRIMARY KEY (certificate_id, sequence)
        ) WITHOUT ROWID;

        -- Which certificates cite which document, for re-checking them when it changes.
        CREATE TABLE certificate_documents (
            tenant         TEXT NOT NULL,
            doc_id         TEXT NOT NULL,
            certificate_id TEXT NOT NULL,
            PRIMARY KEY (tenant, doc_id, certificate_id)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO certificate_documents (tenant, doc_id, certificate_id)
            SELECT c.tenant, json_extract(d.value, '$.doc_id'), c.certificate_id
            FROM certificates AS c, json_each(c.body, '$.documents') AS d;
        """,
    ),
)

SCHEMA_VERSION: Final = MIGRATIONS[-1][0]


def utc_key(moment: datetime) -> str:
    """A string that sorts like the instant: aware datetimes in UTC, naive ones taken as UTC."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


class SqliteDatabase:
    """The ``certiq.db`` file under ``data_dir``, created with its schema on first open."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / DB_FILE_NAME
        self._lock = threading.RLock()
        # isolation_level=None: autocommit; transactions are explicit (see transaction()).
        self._conn = sqlite3.connect(
            self.path,
            check_same_thread=False,
            isolation_level=None,
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
        with self._lock:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection, for the calling thread alone while the block runs."""
        with self._lock:
            yield self._conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def schema_version(self) -> int:
        with self.read() as conn:
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _migrate(self) -> None:
        with self.transaction() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = int(row[0]) if row and row[0] is not None else 0
            if current > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path} has schema version {current}, newer than this certiq "
                    f"({SCHEMA_VERSION}); upgrade certiq"
                )
            for version, script in MIGRATIONS:
                if version <= current:
                    continue
                # executescript() would COMMIT our transaction; run statement by statement.
                for statement in _statements(script):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                    (version, datetime.now(UTC).isoformat()),
                )


def _statements(script: str) -> Iterator[str]:
    """Splits a migration script into complete statements (no triggers in our scripts)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if statement:
                yield statement
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buffer.strip()[:80]}")
