"""The local chunk index: SQLite FTS5 with BM25 ranking.

``chunks`` holds each chunk's JSON, keyed by (tenant, chunk_id); ``chunks_fts`` indexes its text
with the Porter stemmer (rowid = chunks.id). Queries never reach FTS5 as written: free text is cut
into words, stopwords dropped, each word quoted and the words OR-ed, so no user input is ever
parsed as FTS5 syntax. The tenant filter is part of the SQL query, never applied afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.models import Chunk, SearchHit

# Words as the unicode61 tokenizer sees them: letters and digits (an underscore separates).
_WORD: Final = re.compile(r"[^\W_]+")

# At most this many distinct terms reach FTS5, so a pasted page cannot build a huge expression.
MAX_QUERY_TERMS: Final = 64

# Common English function words: left in, they dominate BM25 on short chunks.
_STOPWORDS_TEXT: Final = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves
"""
STOPWORDS: Final = frozenset(_STOPWORDS_TEXT.split())


def match_expression(query: str) -> str | None:
    """A safe FTS5 MATCH expression for free text, or None when the text has no words.

    Stopwords are dropped unless the query has nothing else (a query of stopwords alone still
    searches for them rather than silently finding nothing).
    """
    words = list(dict.fromkeys(word.casefold() for word in _WORD.findall(query)))
    if not words:
        return None
    terms = [word for word in words if word not in STOPWORDS] or words
    return " OR ".join(_quote(term) for term in terms[:MAX_QUERY_TERMS])


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


class SqliteSearchIndex:
    """Implements certiq.ports.SearchIndex over the local SQLite file."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def index(self, chunks: Sequence[Chunk]) -> int:
        latest = {(chunk.tenant, chunk.chunk_id): chunk for chunk in chunks}
        with self._db.transaction() as conn:
            for (tenant, chunk_id), chunk in latest.items():
                row = conn.execute(
                    "SELECT id FROM chunks WHERE tenant = ? AND chunk_id = ?", (tenant, chunk_id)
                ).fetchone()
                if row is not None:
                    conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (row[0],))
                    conn.execute("DELETE FROM chunks WHERE id = ?", (row[0],))
                cursor = conn.execute(
                    "INSERT INTO chunks (tenant, chunk_id, doc_id, body) VALUES (?, ?, ?, ?)",
                    (tenant, chunk_id, chunk.doc_id, chunk.model_dump_json()),
                )
                conn.execute(
                    "INSERT INTO chunks_fts (rowid, text, tenant, doc_id) VALUES (?, ?, ?, ?)",
                    (cursor.lastrowid, chunk.text, tenant, chunk.doc_id),
                )
        return len(latest)

    def delete_document(self, tenant: str, doc_id: str) -> int:
        with self._db.transaction() as conn:
            conn.execute(
                "DELETE FROM chunks_fts WHERE rowid IN"
                " (SELECT id FROM chunks WHERE tenant = ? AND doc_id = ?)",
                (tenant, doc_id),
            )
            cursor = conn.execute(
                "DELETE FROM chunks WHERE tenant = ? AND doc_id = ?", (tenant, doc_id)
            )
            return cursor.rowcount

    def search(self, tenant: str, query: str, k: int) -> list[SearchHit]:
        expression = match_expression(query)
        if expression is None or k <= 0:
            return []
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT c.body, bm25(chunks_fts) AS rank"
                " FROM chunks_fts JOIN chunks AS c ON c.id = chunks_fts.rowid"
                " WHERE chunks_fts MATCH ? AND c.tenant = ?"
                " ORDER BY rank, c.id LIMIT ?",
                (expression, tenant, k),
            ).fetchall()
        # FTS5's bm25() is negated so that smaller sorts first; report it higher-is-better.
        return [
            SearchHit(chunk=Chunk.model_validate_json(body), score=-float(rank))
            for body, rank in rows
        ]

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        wanted = list(dict.fromkeys(chunk_ids))
        found: dict[str, Chunk] = {}
        # Stay well under SQLite's limit on bound parameters.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            placeholders = ", ".join("?" * len(batch))
            with self._db.read() as conn:
                rows = conn.execute(
                    f"SELECT chunk_id, body FROM chunks"
                    f" WHERE tenant = ? AND chunk_id IN ({placeholders})",
                    (tenant, *batch),
                ).fetchall()
            found.update((chunk_id, Chunk.model_validate_json(body)) for chunk_id, body in rows)
        return found

    def count(self, tenant: str) -> int:
        with self._db.read() as conn:
            row = conn.execute("SELECT COUNT(*) FROM chunks WHERE tenant = ?", (tenant,)).fetchone()
        return int(row[0])
