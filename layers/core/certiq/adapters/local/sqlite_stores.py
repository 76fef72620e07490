"""Documents, questions and certificates in the local SQLite file.

Each record is kept whole as its JSON (``body``) next to the columns the queries need. A
question's mutable fields (status, reason, updated_at, response) live in their own columns, so a
status change is one UPDATE and never a read-modify-write of the JSON.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from certiq.adapters.local.clock import SystemClock
from certiq.adapters.local.sqlite_db import SqliteDatabase, utc_key
from certiq.errors import AlreadyExists, NotFound, StaleEvent
from certiq.ingestion.sequencer import check_sequencer, sequencer_is_later
from certiq.models import (
    Certificate,
    DocumentRecord,
    QAResponse,
    QuestionRecord,
    QuestionStatus,
    Recheck,
)
from certiq.ports import Clock

# The fields of a QuestionRecord kept in columns rather than in its body.
QUESTION_MUTABLE_FIELDS = frozenset({"status", "reason", "updated_at", "response"})


class SqliteDocumentStore:
    """Implements certiq.ports.DocumentStore."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def put(self, record: DocumentRecord) -> None:
        with self._db.transaction() as conn:
            _put_document(conn, record)

    def put_if_sequencer_before(self, record: DocumentRecord, sequencer: str) -> None:
        check_sequencer(sequencer)
        # BEGIN IMMEDIATE: no other writer runs between the read and the write.
        with self._db.transaction() as conn:
            row = conn.execute(
                "SELECT body FROM documents WHERE tenant = ? AND doc_id = ?",
                (record.tenant, record.doc_id),
            ).fetchone()
            applied = None if row is None else DocumentRecord.model_validate_json(row[0]).sequencer
            if applied is not None and not sequencer_is_later(sequencer, applied):
                raise StaleEvent(
                    f"document {record.tenant}/{record.doc_id}: sequencer {sequencer} is not"
                    f" later than {applied}, applied already"
                )
            _put_document(conn, record)

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT body FROM documents WHERE tenant = ? AND doc_id = ?", (tenant, doc_id)
            ).fetchone()
        return None if row is None else DocumentRecord.model_validate_json(row[0])

    def list(self, tenant: str) -> list[DocumentRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT body FROM documents WHERE tenant = ? ORDER BY created_key, doc_id",
                (tenant,),
            ).fetchall()
        return [DocumentRecord.model_validate_json(row[0]) for row in rows]


def _put_document(conn: sqlite3.Connection, record: DocumentRecord) -> None:
    conn.execute(
        "INSERT INTO documents (tenant, doc_id, status, created_key, body)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (tenant, doc_id) DO UPDATE SET"
        " status = excluded.status, created_key = excluded.created_key,"
        " body = excluded.body",
        (
            record.tenant,
            record.doc_id,
            record.status.value,
            utc_key(record.created_at),
            record.model_dump_json(),
        ),
    )


class SqliteQuestionStore:
    """Implements certiq.ports.QuestionStore; ``clock`` stamps updated_at on every change."""

    def __init__(self, db: SqliteDatabase, clock: Clock | None = None) -> None:
        self._db = db
        self._clock: Clock = clock or SystemClock()

    def create(self, record: QuestionRecord) -> None:
        try:
            with self._db.transaction() as conn:
                conn.execute(
                    "INSERT INTO questions (question_id, tenant, conversation_id, created_key,"
                    " status, reason, updated_at, response, body)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.question_id,
                        record.tenant,
                        record.conversation_id,
                        utc_key(record.created_at),
                        record.status.value,
                        record.reason,
                        record.updated_at.isoformat(),
                        None if record.response is None else record.response.model_dump_json(),
                        record.model_dump_json(exclude=set(QUESTION_MUTABLE_FIELDS)),
                    ),
                )
        except sqlite3.IntegrityError as error:
            raise AlreadyExists(f"question {record.question_id} already exists") from error

    def set_status(
        self, question_id: str, status: QuestionStatus, reason: str | None = None
    ) -> None:
        self._update(
            question_id,
            "status = ?, reason = ?, updated_at = ?",
            (status.value, reason, self._clock.now().isoformat()),
        )

    def complete(self, question_id: str, response: QAResponse) -> None:
        self._update(
            question_id,
            "status = ?, response = ?, updated_at = ?",
            (response.status.value, response.model_dump_json(), self._clock.now().isoformat()),
        )

    def get(self, question_id: str) -> QuestionRecord | None:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_QUESTION_COLUMNS} FROM questions WHERE question_id = ?",
                (question_id,),
            ).fetchone()
        return None if row is None else _question(row)

    def conversation(self, tenant: str, conversation_id: str) -> list[QuestionRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_QUESTION_COLUMNS} FROM questions"
                " WHERE tenant = ? AND conversation_id = ? ORDER BY created_key, question_id",
                (tenant, conversation_id),
            ).fetchall()
        return [_question(row) for row in rows]

    def _update(self, question_id: str, assignments: str, values: tuple[Any, ...]) -> None:
        with self._db.transaction() as conn:
            cursor = conn.execute(
                f"UPDATE questions SET {assignments} WHERE question_id = ?",
                (*values, question_id),
            )
            if cursor.rowcount == 0:
                raise NotFound(f"question {question_id} not found")


_QUESTION_COLUMNS = "body, status, reason, updated_at, response"


def _question(row: tuple[str, str, str | None, str, str | None]) -> QuestionRecord:
    body, status, reason, updated_at, response = row
    fields: dict[str, Any] = json.loads(body)
    fields.update(
        status=status,
        reason=reason,
        updated_at=updated_at,
        response=None if response is None else json.loads(response),
    )
    return QuestionRecord.model_validate(fields)


class SqliteCertificateStore:
    """Implements certiq.ports.CertificateStore: a certificate is written once, never replaced,
    and each seals the seal of the tenant's certificate before it (rowid order is chain order).

    The head is read and the next certificate written in one BEGIN IMMEDIATE transaction, so
    two processes appending together queue on the file lock and the chain never forks.
    """

    PAGE = 500

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def append(self, tenant: str, seal: Callable[[str | None], Certificate]) -> Certificate:
        with self._db.transaction() as conn:
            row = conn.execute(
                "SELECT json_extract(body, '$.seal') FROM certificates WHERE tenant = ?"
                " ORDER BY rowid DESC LIMIT 1",
                (tenant,),
            ).fetchone()
            certificate = seal(None if row is None else str(row[0]))
            try:
                conn.execute(
                    "INSERT INTO certificates (certificate_id, tenant, question_id, body)"
                    " VALUES (?, ?, ?, ?)",
                    (
                        certificate.certificate_id,
                        tenant,
                        certificate.question_id,
                        certificate.model_dump_json(),
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise AlreadyExists(
                    f"certificate {certificate.certificate_id} already exists"
                ) from error
            conn.executemany(
                "INSERT OR IGNORE INTO certificate_documents (tenant, doc_id, certificate_id)"
                " VALUES (?, ?, ?)",
                [(tenant, doc.doc_id, certificate.certificate_id) for doc in certificate.documents],
            )
        return certificate

    def get(self, certificate_id: str) -> Certificate | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT body FROM certificates WHERE certificate_id = ?", (certificate_id,)
            ).fetchone()
        return None if row is None else Certificate.model_validate_json(row[0])

    def history(self, tenant: str) -> Iterator[Certificate]:
        after = 0
        while True:
            with self._db.read() as conn:
                rows = conn.execute(
                    "SELECT rowid, body FROM certificates WHERE tenant = ? AND rowid > ?"
                    " ORDER BY rowid LIMIT ?",
                    (tenant, after, self.PAGE),
                ).fetchall()
            for _, body in rows:
                yield Certificate.model_validate_json(body)
            if len(rows) < self.PAGE:
                return
            after = rows[-1][0]

    def citing(self, tenant: str, doc_id: str) -> list[str]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT d.certificate_id FROM certificate_documents AS d"
                " JOIN certificates AS c ON c.certificate_id = d.certificate_id"
                " WHERE d.tenant = ? AND d.doc_id = ? ORDER BY c.rowid",
                (tenant, doc_id),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def append_recheck(
        self, tenant: str, certificate_id: str, seal: Callable[[Recheck | None], Recheck]
    ) -> Recheck:
        with self._db.transaction() as conn:
            row = conn.execute(
                "SELECT body FROM certificate_rechecks WHERE certificate_id = ?"
                " ORDER BY sequence DESC LIMIT 1",
                (certificate_id,),
            ).fetchone()
            recheck = seal(None if row is None else Recheck.model_validate_json(row[0]))
            try:
                conn.execute(
                    "INSERT INTO certificate_rechecks (certificate_id, sequence, tenant, body)"
                    " VALUES (?, ?, ?, ?)",
                    (certificate_id, recheck.sequence, tenant, recheck.model_dump_json()),
                )
            except sqlite3.IntegrityError as error:
                raise AlreadyExists(
                    f"re-check {recheck.sequence} of certificate {certificate_id} already exists"
                ) from error
        return recheck

    def rechecks(self, certificate_id: str) -> list[Recheck]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT body FROM certificate_rechecks WHERE certificate_id = ? ORDER BY sequence",
                (certificate_id,),
            ).fetchall()
        return [Recheck.model_validate_json(row[0]) for row in rows]
