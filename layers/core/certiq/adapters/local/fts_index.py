"""The local chunk index: SQLite FTS5 with BM25 ranking, and exact dense search in numpy.

``chunks`` holds each chunk's JSON (without its embedding), keyed by (tenant, chunk_id), with its
collection; ``chunks_fts`` indexes its text with the Porter stemmer (rowid = chunks.id) beside
its tenant and collection (unindexed columns, filtered as FTS5 yields matches). Queries
never reach FTS5 as written: free text is cut into words, stopwords dropped, each word quoted and
the words OR-ed, so no user input is ever parsed as FTS5 syntax. The tenant and collection
filters are part of the SQL query, never applied afterwards.

Lexical search is answered from memory (certiq.adapters.local.lexical): per tenant, FTS5's own
tokens as compact postings with BM25 saturations, ranking and scoring like FTS5's bm25() (with
the tenant's own statistics). FTS5 answers itself when that index cannot be built, or when a
query word is several FTS5 tokens (a phrase). Dense search reads a tenant's vectors of this
index's model into float32 matrices (certiq.adapters.local.dense). Ranking keeps only row ids,
collections and numbers (``rank``, ``rank_vector``); the rows of the hits kept are read from
``chunks`` afterwards, in one query, and each hit's chunk is parsed from its JSON, unvalidated,
when the caller first looks into it (``read``, certiq.adapters.local.stored_chunks): a search
costs what the caller uses, and the hits are the caller's own copies.

``chunk_vectors`` holds each chunk's embedding as a float32 blob (rowid = chunks.id) with the
name of the model that made it and its dimension.

Every write appends the rows it inserts and deletes to ``chunk_changes`` (the log,
certiq.adapters.local.rows). An in-memory index remembers the last change it reflects; the next
search applies the changes since (new rows tokenized or stacked, deleted ones masked), so a
document added by this process or another (``certiq ingest`` beside ``certiq serve``) is
searchable at once without reading the tenant again. When the changes since the last build
exceed a tenth of it (or it is small, where a build is cheap), or the log no longer reaches back
to it, the index is built afresh.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.dense import TenantVectors, vector_blob
from certiq.adapters.local.lexical import Fts5Tokenizer, TenantLexicon
from certiq.adapters.local.rows import Changes, RowTable, log_changes, log_state
from certiq.adapters.local.snapshots import Snapshot, SnapshotStore
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.adapters.local.stored_chunks import read_chunks, read_hits, read_vectors
from certiq.models import Chunk, SearchHit, collection_of

_log = logging.getLogger(__name__)

# Words as the unicode61 tokenizer sees them: letters and digits (an underscore separates).
_WORD: Final = re.compile(r"[^\W_]+")

# The model name vectors are stored under when the index is not told its embedder's.
UNNAMED_MODEL: Final = "unnamed"

# In-memory indexes smaller than this are rebuilt on any change (a build is cheap, and its
# statistics are exact); larger ones catch up, and are rebuilt in the background once the
# changes since their build exceed REBUILD_SHARE of them.
REBUILD_BELOW: Final = 5_000
REBUILD_SHARE: Final = 0.1
# How an in-memory index gets up to date (SqliteSearchIndex._plan).
CATCH_UP: Final = "catch up"
CATCH_UP_THEN_REBUILD: Final = "catch up, rebuild in the background"
REBUILD: Final = "rebuild"

# The kinds of in-memory index saved as snapshots; vectors are saved per model.
LEXICON_KIND: Final = "bm25"
VECTORS_KIND: Final = "vectors"
IndexT = TypeVar("IndexT", TenantLexicon, TenantVectors)

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
        # The change at which a tenant had no vectors of this model.
        self._no_vectors: dict[str, int] = {}
        self._lexicons: dict[str, TenantLexicon] = {}
        # The change whose lexicon could not be built, per tenant: FTS5 serves it instead.
        self._lexicon_failed: dict[str, int] = {}
        self._tokenizer = Fts5Tokenizer()
        self._snapshots = SnapshotStore(db)
        self._rebuilding: set[tuple[str, str]] = set()  # (tenant, kind) rebuilt in the background
        self._rebuilding_lock = threading.Lock()

    @property
    def vector_model(self) -> str:
        return self._model

    # -- writes --

    def index(self, chunks: Sequence[Chunk]) -> int:
        latest = {(chunk.tenant, chunk.chunk_id): chunk for chunk in chunks}
        changes: list[tuple[str, int, int]] = []  # tenant, row id, added
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
                    changes.append((tenant, int(row[0]), 0))
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
                row_id = int(cursor.lastrowid or 0)
                changes.append((tenant, row_id, 1))
                conn.execute(
                    "INSERT INTO chunks_fts (rowid, text, tenant, doc_id, collection)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (row_id, chunk.text, tenant, chunk.doc_id, collection),
                )
                if chunk.embedding is not None:
                    conn.execute(
                        "INSERT INTO chunk_vectors"
                        " (id, tenant, collection, model, dimension, vector)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            row_id,
                            tenant,
                            collection,
                            self._model,
                            len(chunk.embedding),
                            vector_blob(chunk.embedding),
                        ),
                    )
            log_changes(conn, changes)
        return len(latest)

    def delete_document(self, tenant: str, doc_id: str) -> int:
        with self._db.transaction() as conn:
            row_ids = [
                int(row[0])
                for row in conn.execute(
                    "SELECT id FROM chunks WHERE tenant = ? AND doc_id = ?", (tenant, doc_id)
                )
            ]
            for table, key in (("chunks_fts", "rowid"), ("chunk_vectors", "id")):
                conn.execute(
                    f"DELETE FROM {table} WHERE {key} IN"
                    " (SELECT id FROM chunks WHERE tenant = ? AND doc_id = ?)",
                    (tenant, doc_id),
                )
            conn.execute("DELETE FROM chunks WHERE tenant = ? AND doc_id = ?", (tenant, doc_id))
            log_changes(conn, [(tenant, row_id, 0) for row_id in row_ids])
            return len(row_ids)

    # -- reads --

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        return self.read(self.rank(tenant, query, k, collection))

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        return self.read(self.rank_vector(tenant, vector, k, collection))

    def rank(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[tuple[int, float]]:
        """(row id, BM25 score) of the k best chunks, best first: in memory, or by FTS5."""
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        with self._db.read() as conn:
            lexicon = self._tenant_lexicon(conn, tenant)
            if lexicon is not None:
                tokens = self._tokenizer.tokens(terms)
                # A word FTS5 cuts into several tokens is a phrase query: left to FTS5.
                if all(len(token) == 1 for token in tokens):
                    return lexicon.search([token[0] for token in tokens], k, collection)
            return self._rank_fts(conn, tenant, terms, k, collection)

    def rank_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[tuple[int, float]]:
        """(row id, cosine) of the k nearest chunks with a vector of this index's model."""
        if k <= 0:
            return []
        with self._db.read() as conn:
            vectors = self._tenant_vectors(conn, tenant)
            return [] if vectors is None else vectors.nearest(vector, k, collection)

    def read(self, ranked: Sequence[tuple[int, float]]) -> list[SearchHit]:
        """The ranked rows as hits, read in one query; each chunk is parsed when first used."""
        with self._db.read() as conn:
            return read_hits(conn, ranked)

    def _rank_fts(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        terms: list[str],
        k: int,
        collection: str | None,
    ) -> list[tuple[int, float]]:
        """The same ranking by FTS5 itself: the durable path and the fallback."""
        where = "chunks_fts MATCH ? AND tenant = ?"
        parameters: list[object] = [" OR ".join(_quote(term) for term in terms), tenant]
        if collection is not None:
            where += " AND collection = ?"
            parameters.append(collection)
        # The filters are columns of the full-text table, so FTS5 ranks and cuts to the
        # top k by itself.
        ranked = conn.execute(
            f"SELECT rowid, rank FROM chunks_fts WHERE {where} ORDER BY rank LIMIT ?",
            (*parameters, k),
        ).fetchall()
        # Equal scores in row order, whatever order FTS5 gave them in.
        ranked.sort(key=lambda row: (row[1], row[0]))
        # FTS5's rank (bm25()) is negated so that smaller sorts first; report higher-is-better.
        return [(int(row_id), -float(rank)) for row_id, rank in ranked]

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        with self._db.read() as conn:
            return read_chunks(conn, tenant, chunk_ids)

    def count(self, tenant: str) -> int:
        with self._db.read() as conn:
            row = conn.execute("SELECT COUNT(*) FROM chunks WHERE tenant = ?", (tenant,)).fetchone()
        return int(row[0])

    # -- internals --

    @staticmethod
    def _plan(conn: sqlite3.Connection, tenant: str, seq: int, start: int, rows: RowTable) -> str:
        """How an index at change ``seq`` gets up to date: CATCH_UP when the log still holds
        every change after it and they are few; CATCH_UP_THEN_REBUILD when they are many (the
        rebuild runs in the background meanwhile); REBUILD when the log no longer reaches back
        to it or it is small (a build is cheap, and its statistics exact)."""
        if seq < start - 1 or rows.base < REBUILD_BELOW:
            return REBUILD
        pending = conn.execute(
            "SELECT COUNT(*) FROM chunk_changes WHERE tenant = ? AND seq > ?", (tenant, seq)
        ).fetchone()[0]
        if rows.changed + int(pending) <= REBUILD_SHARE * rows.base:
            return CATCH_UP
        return CATCH_UP_THEN_REBUILD

    def _tenant_lexicon(self, conn: sqlite3.Connection, tenant: str) -> TenantLexicon | None:
        """The tenant's in-memory BM25 index, up to date with the log.

        None when it cannot be built (FTS5 answers instead, until the next change).
        """
        last, _ = log_state(conn, tenant)
        cached = self._lexicons.get(tenant)
        if cached is not None and cached.seq == last:
            return cached
        if self._lexicon_failed.get(tenant) == last:
            return None

        def keep(lexicon: TenantLexicon | None) -> None:
            if lexicon is not None:
                self._lexicons[tenant] = lexicon

        try:
            lexicon = self._up_to_date(
                conn,
                tenant,
                LEXICON_KIND,
                cached,
                restore=lambda snapshot: TenantLexicon.restore(
                    snapshot.seq, snapshot.meta, snapshot.arrays
                ),
                build=lambda reader, seq: TenantLexicon.build(reader, tenant, seq),
                apply=lambda lexicon, changes: lexicon.apply(
                    conn, tenant, changes, self._tokenizer
                ),
                keep=keep,
            )
        except (sqlite3.Error, RuntimeError, ValueError) as error:
            _log.warning("in-memory BM25 index not built for %s, using FTS5: %s", tenant, error)
            self._lexicons.pop(tenant, None)
            self._lexicon_failed[tenant] = last
            return None
        assert lexicon is not None  # a lexicon is always built, if empty
        self._lexicon_failed.pop(tenant, None)
        return lexicon

    def _tenant_vectors(self, conn: sqlite3.Connection, tenant: str) -> TenantVectors | None:
        """The tenant's vectors of this index's model, up to date with the log; None if none."""
        last, _ = log_state(conn, tenant)
        cached = self._vectors.get(tenant)
        if cached is not None and cached.seq == last:
            return cached
        if cached is None and self._no_vectors.get(tenant) == last:
            return None

        def keep(vectors: TenantVectors | None) -> None:
            if vectors is None:
                self._vectors.pop(tenant, None)
                self._no_vectors[tenant] = last
            else:
                self._vectors[tenant] = vectors
                self._no_vectors.pop(tenant, None)

        return self._up_to_date(
            conn,
            tenant,
            f"{VECTORS_KIND}:{self._model}",
            cached,
            restore=lambda snapshot: TenantVectors.restore(
                snapshot.seq, snapshot.meta, snapshot.arrays
            ),
            build=lambda reader, seq: self._build_vectors(reader, tenant, seq),
            apply=lambda vectors, changes: vectors.apply(
                changes, read_vectors(conn, tenant, self._model, changes.added)
            ),
            keep=keep,
        )

    def _up_to_date(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        kind: str,
        cached: IndexT | None,
        *,
        restore: Callable[[Snapshot], IndexT],
        build: Callable[[sqlite3.Connection, int], IndexT | None],
        apply: Callable[[IndexT, Changes], None],
        keep: Callable[[IndexT | None], None],
    ) -> IndexT | None:
        """The index caught up with the log, or built afresh, in one read snapshot, and kept.

        Without one in memory, the saved snapshot is the starting point when there is one. A
        build is saved for the next process; one that can wait runs in the background.
        """
        began = not conn.in_transaction
        built = False
        try:
            if began:
                conn.execute("BEGIN")  # one snapshot for the rows, the tokens and the log
            last, start = log_state(conn, tenant)
            if cached is None:
                saved = self._snapshots.load(tenant, kind)
                if saved is not None and saved.seq <= last:
                    try:
                        cached = restore(saved)
                    except (KeyError, TypeError, ValueError) as error:
                        _log.warning("index snapshot of %s unusable, rebuilding: %s", kind, error)
            plan = (
                REBUILD
                if cached is None
                else self._plan(conn, tenant, cached.seq, start, cached.rows)
            )
            if cached is not None and plan != REBUILD:
                if cached.seq != last:
                    apply(cached, Changes.read(conn, tenant, cached.seq))
                index: IndexT | None = cached
            else:
                index, built = build(conn, last), True
        finally:
            if began and conn.in_transaction:
                conn.execute("COMMIT")
        keep(index)
        if built and index is not None:
            self._save(tenant, kind, index)
        elif plan == CATCH_UP_THEN_REBUILD:
            self._rebuild_in_background(tenant, kind, build, keep)
        return index

    def _rebuild_in_background(
        self,
        tenant: str,
        kind: str,
        build: Callable[[sqlite3.Connection, int], IndexT | None],
        keep: Callable[[IndexT | None], None],
    ) -> None:
        """Builds the index afresh on a connection of its own while searches go on with the
        caught-up one, then swaps it in (the next search catches it up) and saves it."""
        with self._rebuilding_lock:
            if (tenant, kind) in self._rebuilding:
                return
            self._rebuilding.add((tenant, kind))

        def rebuild() -> None:
            try:
                reader = sqlite3.connect(
                    self._db.path, check_same_thread=False, isolation_level=None
                )
                try:
                    reader.execute("BEGIN")
                    index = build(reader, log_state(reader, tenant)[0])
                    reader.execute("COMMIT")
                finally:
                    reader.close()
                with self._db.read():
                    keep(index)
                if index is not None:
                    self._save(tenant, kind, index)
            except (sqlite3.Error, RuntimeError, ValueError, OSError) as error:
                _log.warning("background rebuild of %s for %s failed: %s", kind, tenant, error)
            finally:
                with self._rebuilding_lock:
                    self._rebuilding.discard((tenant, kind))

        threading.Thread(target=rebuild, name=f"certiq-rebuild-{kind}", daemon=True).start()

    def _save(self, tenant: str, kind: str, index: TenantLexicon | TenantVectors) -> None:
        """Saves a fresh build for the next process to map, when building it is not cheap."""
        if len(index) >= REBUILD_BELOW:
            meta, arrays = index.saved()
            self._snapshots.save(tenant, kind, index.seq, meta, arrays)

    def _build_vectors(
        self, conn: sqlite3.Connection, tenant: str, seq: int
    ) -> TenantVectors | None:
        first = conn.execute(
            "SELECT dimension, COUNT(*) FROM chunk_vectors WHERE tenant = ? AND model = ?",
            (tenant, self._model),
        ).fetchone()
        if not first[1]:
            return None
        rows = conn.execute(
            "SELECT id, collection, vector FROM chunk_vectors"
            " WHERE tenant = ? AND model = ? ORDER BY id",
            (tenant, self._model),
        )
        return TenantVectors.build(seq, int(first[0]), rows, expected=int(first[1]))
