"""Verified answers a later question may reuse, in the local SQLite file (migration 6).

The record is kept as JSON without its embedding, which sits beside it as a float32 blob.
"""

from __future__ import annotations

from certiq.adapters.local.dense import blob_vector, vector_blob
from certiq.adapters.local.sqlite_db import SqliteDatabase, utc_key
from certiq.models import VerifiedAnswer


class SqliteVerifiedAnswerStore:
    """Implements certiq.ports.VerifiedAnswerStore."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def put(self, answer: VerifiedAnswer) -> None:
        vector = None if answer.embedding is None else vector_blob(answer.embedding)
        with self._db.transaction() as conn:
            conn.execute(
                "INSERT INTO verified_answers"
                " (tenant, question_id, collection, terms_key, created_key, vector, body)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tenant, question_id) DO UPDATE SET"
                " collection = excluded.collection, terms_key = excluded.terms_key,"
                " created_key = excluded.created_key, vector = excluded.vector,"
                " body = excluded.body",
                (
                    answer.tenant,
                    answer.question_id,
                    answer.collection or "",
                    answer.terms_key,
                    utc_key(answer.created_at),
                    vector,
                    answer.model_dump_json(exclude={"embedding"}),
                ),
            )

    def candidates(
        self, tenant: str, collection: str | None, terms_key: str, limit: int
    ) -> list[VerifiedAnswer]:
        scope = (tenant, collection or "")
        with self._db.read() as conn:
            same_terms = conn.execute(
                "SELECT question_id, vector, body, created_key FROM verified_answers"
                " WHERE tenant = ? AND collection = ? AND terms_key = ?"
                " ORDER BY created_key DESC, question_id DESC LIMIT ?",
                (*scope, terms_key, limit),
            ).fetchall()
            newest = conn.execute(
                "SELECT question_id, vector, body, created_key FROM verified_answers"
                " WHERE tenant = ? AND collection = ?"
                " ORDER BY created_key DESC, question_id DESC LIMIT ?",
                (*scope, limit),
            ).fetchall()
        rows = {row[0]: row for row in [*same_terms, *newest]}
        ordered = sorted(rows.values(), key=lambda row: (row[3], row[0]), reverse=True)
        return [_answer(vector, body) for _, vector, body, _ in ordered]


def _answer(vector: bytes | None, body: str) -> VerifiedAnswer:
    answer = VerifiedAnswer.model_validate_json(body)
    if vector is not None:
        answer.embedding = blob_vector(vector).tolist()
    return answer
