"""The local chunk index: SQLite FTS5 with BM25 ranking, and exact dense search in numpy.

``chunks`` holds each chunk's JSON (without its embedding), keyed by (tenant, chunk_id), with its
collection; ``chunks_fts`` indexes its text with the Porter stemmer (rowid = chunks.id) beside
its tenant and collection (unindexed columns, filtered as FTS5 yields matches). Queries
never reach FTS5 as written: free text is cut into words, stopwords dropped, each word quoted and
the words OR-ed, so no user input is ever parsed as FTS5 syntax. The tenant and collection
filters are part of the SQL query, never applied afterwards.

Lexical search is answered from memory (certiq.adapters.local.lexical): per tenant, FTS5's own
tokens with precomputed BM25 weights and the parsed chunks, so a query costs well under a
millisecond instead of an FTS5 ranking plus a JSON parse per hit. It ranks and scores like
FTS5's bm25() (with the tenant's own statistics) and is rebuilt, like the dense vectors, when the
tenant's generation changes. FTS5 answers itself when that index cannot be built, or when a
query word is several FTS5 tokens (a phrase). The chunks of lexical hits are shared with the
in-memory index and must be treated as read-only; get_chunks returns fresh copies.

``chunk_vectors`` holds each chunk's embedding as a float32 blob (rowid = chunks.id) with the
name of the model that made it and its dimension. Dense search reads a tenant's vectors of this
index's model once into one matrix (certiq.adapters.local.dense) and keeps it in memory until the
tenant's chunks change: every write bumps the tenant's row in ``chunk_generations``, so a write by
another process (``certiq ingest`` beside ``certiq serve``) is seen by the next search.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.dense import TenantVectors, blob_vector, vector_blob
from certiq.adapters.local.lexical import QueryTokenizer, TenantLexicon
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.models import Chunk, SearchHit, collection_of

_log = logging.getLogger(__name__)

# Words as the unicode61 tokenizer sees them: letters and digits (an underscore separates).
_WORD: Final = re.compile(r"[^\W_]+")

# The model name vectors are stored under when the index is not told its embedder's.
UNNAMED_MODEL: Final = "unnamed"
# Bound parameters per IN (...) list: far below SQLite's limit.
_IN_BATCH: Final = 500

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


def query_terms(query: str) -> list[str]:
    """The words of free text that are searched: casefolded, distinct, at most MAX_QUERY_TERMS.

    Stopwords are dropped unless the query has nothing else (a query of stopwords alone still
    searches for them rather than silently finding nothing).
    """
    words = list(dict.fromkeys(word.casefold() for word in _WORD.findall(query)))
    terms = [word for word in words if word not in STOPWORDS] or words
    return terms[:MAX_QUERY_TERMS]


def _quote(term: str) -> str:
    """A term as a safe FTS5 MATCH string: quoted, its own quotes doubled."""
    return '"' + term.replace('"', '""') + '"'


class SqliteSearchIndex:
    """Implements certiq.ports.SearchIndex over the local SQLite file.

    ``vector_model`` names the embedder whose vectors this index stores and searches; vectors
    of another model in the same file are never compared with its queries.
    """

    engine: Final = "sqlite-fts5"

    def __init__(self, db: SqliteDatabase, *, vector_model: str | None = None) -> None:
        self._db = db
        self._model = vector_model or UNNAMED_MODEL
        # Guarded by the database's lock (every use is inside db.read() or db.transaction()).
        self._vectors: dict[str, TenantVectors] = {}
        self._lexicons: dict[str, TenantLexicon] = {}
        # The generation whose lexicon could not be built, per tenant: FTS5 serves it instead.
        self._lexicon_failed: dict[str, int] = {}
        self._tokenizer = QueryTokenizer()

    @property
    def vector_model(self) -> str:
        return self._model

    # -- writes --

    def index(self, chunks: Sequence[Chunk]) -> int:
        latest = {(chunk.tenant, chunk.chunk_id): chunk for chunk in chunks}
        tenants = {tenant for tenant, _ in latest}
        with self._db.transaction() as conn:
            for (tenant, chunk_id), chunk in latest.items():
                collection = collection_of(chunk)
                row = conn.execute(
                    "SELECT id FROM chunks WHERE tenant = ? AND chunk_id = ?", (tenant, chunk_id)
                ).fetchone()
                if row is not None:
                    conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (row[0],))
                    conn.execute("DELETE FROM chunk_vectors WHERE id = ?", (row[0],))
                    conn.execute("DELETE FROM chunks WHERE id = ?", (row[0],))
                cursor = conn.execute(
                    "INSERT INTO chunks (tenant, chunk_id, doc_id, collection, body)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        tenant,
                        chunk_id,
                        chunk.doc_id,
                        collection,
                        chunk.model_dump_json(exclude={"embedding"}),
                    ),
                )
                conn.execute(
                    "INSERT INTO chunks_fts (rowid, text, tenant, doc_id, collection)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (cursor.lastrowid, chunk.text, tenant, chunk.doc_id, collection),
                )
                if chunk.embedding is not None:
                    conn.execute(
                        "INSERT INTO chunk_vectors"
                        " (id, tenant, collection, model, dimension, vector)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            cursor.lastrowid,
                            tenant,
                            collection,
                            self._model,
                            len(chunk.embedding),
                            vector_blob(chunk.embedding),
                        ),
                    )
            self._changed(conn, tenants)
        return len(latest)

    def delete_document(self, tenant: str, doc_id: str) -> int:
        with self._db.transaction() as conn:
            for table, key in (("chunks_fts", "rowid"), ("chunk_vectors", "id")):
                conn.execute(
                    f"DELETE FROM {table} WHERE {key} IN"
                    " (SELECT id FROM chunks WHERE tenant = ? AND doc_id = ?)",
                    (tenant, doc_id),
                )
            cursor = conn.execute(
                "DELETE FROM chunks WHERE tenant = ? AND doc_id = ?", (tenant, doc_id)
            )
            if cursor.rowcount:
                self._changed(conn, {tenant})
            return cursor.rowcount

    # -- reads --

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        with self._db.read() as conn:
            lexicon = self._tenant_lexicon(conn, tenant)
            if lexicon is not None:
                tokens = self._tokenizer.tokens(terms)
                # A word FTS5 cuts into several tokens is a phrase query: left to FTS5.
                if all(len(token) == 1 for token in tokens):
                    return [
                        SearchHit(chunk=chunk, score=score)
                        for chunk, score in lexicon.search(
                            [token[0] for token in tokens], k, collection
                        )
                    ]
            return self._search_fts(conn, tenant, terms, k, collection)

    def _search_fts(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        terms: list[str],
        k: int,
        collection: str | None,
    ) -> list[SearchHit]:
        """The same search run by FTS5 itself: the durable path and the fallback."""
        where = "chunks_fts MATCH ? AND tenant = ?"
        parameters: list[object] = [" OR ".join(_quote(term) for term in terms), tenant]
        if collection is not None:
            where += " AND collection = ?"
            parameters.append(collection)
        # The filters are columns of the full-text table, so FTS5 ranks and cuts to the
        # top k by itself; bodies are read for those k only.
        ranked = conn.execute(
            f"SELECT rowid, rank FROM chunks_fts WHERE {where} ORDER BY rank LIMIT ?",
            (*parameters, k),
        ).fetchall()
        bodies = dict(self._select_in(conn, "SELECT id, body FROM chunks", [i for i, _ in ranked]))
        # Equal scores in row order, whatever order FTS5 gave them in.
        ranked.sort(key=lambda row: (row[1], row[0]))
        # FTS5's rank (bm25()) is negated so that smaller sorts first; report higher-is-better.
        return [
            SearchHit(chunk=Chunk.model_validate_json(bodies[row_id]), score=-float(rank))
            for row_id, rank in ranked
        ]

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        if k <= 0:
            return []
        with self._db.read() as conn:
            vectors = self._tenant_vectors(conn, tenant)
            if vectors is None:
                return []
            nearest = vectors.nearest(vector, k, collection)
            bodies = dict(
                self._select_in(conn, "SELECT id, body FROM chunks", [i for i, _ in nearest])
            )
        return [
            SearchHit(chunk=Chunk.model_validate_json(bodies[row_id]), score=score)
            for row_id, score in nearest
            if row_id in bodies
        ]

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        wanted = list(dict.fromkeys(chunk_ids))
        found: dict[str, Chunk] = {}
        with self._db.read() as conn:
            rows = self._select_in(
                conn,
                "SELECT c.chunk_id, c.body, v.vector FROM chunks AS c"
                " LEFT JOIN chunk_vectors AS v ON v.id = c.id",
                wanted,
                column="c.chunk_id",
                where=("c.tenant = ?", tenant),
            )
            for chunk_id, body, blob in rows:
                chunk = Chunk.model_validate_json(body)
                if blob is not None:
                    chunk.embedding = blob_vector(blob).tolist()
                found[chunk_id] = chunk
        return found

    def count(self, tenant: str) -> int:
        with self._db.read() as conn:
            row = conn.execute("SELECT COUNT(*) FROM chunks WHERE tenant = ?", (tenant,)).fetchone()
        return int(row[0])

    # -- internals --

    def _changed(self, conn: sqlite3.Connection, tenants: Iterable[str]) -> None:
        """Marks the tenants' chunks as changed, here and for every other process."""
        for tenant in tenants:
            conn.execute(
                "INSERT INTO chunk_generations (tenant, generation) VALUES (?, 1)"
                " ON CONFLICT (tenant) DO UPDATE SET generation = generation + 1",
                (tenant,),
            )
            self._vectors.pop(tenant, None)
            self._lexicons.pop(tenant, None)

    def _generation(self, conn: sqlite3.Connection, tenant: str) -> int:
        row = conn.execute(
            "SELECT generation FROM chunk_generations WHERE tenant = ?", (tenant,)
        ).fetchone()
        return int(row[0]) if row else 0

    def _tenant_lexicon(self, conn: sqlite3.Connection, tenant: str) -> TenantLexicon | None:
        """The tenant's in-memory BM25 index, rebuilt only when its chunks changed.

        None when it cannot be built (FTS5 answers instead, until the next change).
        """
        generation = self._generation(conn, tenant)
        cached = self._lexicons.get(tenant)
        if cached is not None and cached.generation == generation:
            return cached
        if self._lexicon_failed.get(tenant) == generation:
            return None
        self._lexicons.pop(tenant, None)
        began = not conn.in_transaction
        try:
            if began:
                conn.execute("BEGIN")  # one snapshot for the chunks and the tokens
            lexicon = TenantLexicon.build(conn, tenant, self._generation(conn, tenant))
        except (sqlite3.Error, RuntimeError, ValueError) as error:
            _log.warning("in-memory BM25 index not built for %s, using FTS5: %s", tenant, error)
            self._lexicon_failed[tenant] = generation
            return None
        finally:
            if began and conn.in_transaction:
                conn.execute("COMMIT")
        self._lexicon_failed.pop(tenant, None)
        self._lexicons[tenant] = lexicon
        return lexicon

    def _tenant_vectors(self, conn: sqlite3.Connection, tenant: str) -> TenantVectors | None:
        """The tenant's vectors of this index's model, rebuilt only when its chunks changed."""
        row = conn.execute(
            "SELECT generation FROM chunk_generations WHERE tenant = ?", (tenant,)
        ).fetchone()
        generation = int(row[0]) if row else 0
        cached = self._vectors.get(tenant)
        if cached is not None and cached.generation == generation:
            return cached
        first = conn.execute(
            "SELECT dimension FROM chunk_vectors WHERE tenant = ? AND model = ?"
            " ORDER BY id LIMIT 1",
            (tenant, self._model),
        ).fetchone()
        if first is None:
            self._vectors.pop(tenant, None)
            self._lexicons.pop(tenant, None)
            return None
        rows = conn.execute(
            "SELECT id, collection, vector FROM chunk_vectors"
            " WHERE tenant = ? AND model = ? ORDER BY id",
            (tenant, self._model),
        )
        vectors = TenantVectors.build(generation, int(first[0]), rows)
        self._vectors[tenant] = vectors
        return vectors

    @staticmethod
    def _select_in(
        conn: sqlite3.Connection,
        select: str,
        keys: Sequence[object],
        *,
        column: str = "id",
        where: tuple[str, object] | None = None,
    ) -> list[Any]:
        """Rows of ``select`` whose ``column`` is among keys, in batches of bound parameters."""
        rows: list[Any] = []
        for start in range(0, len(keys), _IN_BATCH):
            batch = list(keys[start : start + _IN_BATCH])
            condition = f"{column} IN ({', '.join('?' * len(batch))})"
            parameters: list[object] = batch
            if where is not None:
                condition = f"{where[0]} AND {condition}"
                parameters = [where[1], *batch]
            rows.extend(conn.execute(f"{select} WHERE {condition}", parameters).fetchall())
        return rows
