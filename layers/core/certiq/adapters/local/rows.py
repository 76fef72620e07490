"""What an in-memory index of one tenant's chunks knows of their rows, and how it catches up.

Both in-memory indexes of the local engine (BM25 postings, certiq.adapters.local.lexical, and
dense vectors, certiq.adapters.local.dense) give each row a position: the rows of the base (read
from the tables at one change of the ``chunk_changes`` log, row ids ascending) first, then the
rows added since, in the order they were added. A deleted row keeps its position, marked dead,
until the next rebuild. ``Changes`` is what the log says happened after the last change an index
applied; certiq.adapters.local.fts_index reads it and decides between catching up and rebuilding.

The log, ``chunk_changes``: every write appends the rows it inserts and deletes (``log_changes``),
and keeps each tenant's last CHANGES_KEPT changes; ``log_state`` says where it ends and where it
begins, so an index further behind than its beginning is rebuilt.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

NO_COLLECTION: Final = -1
_FIRST_CAPACITY: Final = 64
# Changes kept in the log per tenant: an index further behind is rebuilt.
CHANGES_KEPT: Final = 50_000


def log_changes(conn: sqlite3.Connection, changes: list[tuple[str, int, int]]) -> None:
    """Records the rows written, (tenant, row id, added), so every in-memory index (any
    process's) catches up; the log keeps each tenant's last CHANGES_KEPT changes, and
    ``chunk_generations.changes_from`` says where it begins."""
    if not changes:
        return
    conn.executemany("INSERT INTO chunk_changes (tenant, id, added) VALUES (?, ?, ?)", changes)
    for tenant in {tenant for tenant, _, _ in changes}:
        row = conn.execute(
            "SELECT seq FROM chunk_changes WHERE tenant = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
            (tenant, CHANGES_KEPT),
        ).fetchone()
        if row is None:
            continue
        conn.execute("DELETE FROM chunk_changes WHERE tenant = ? AND seq <= ?", (tenant, row[0]))
        conn.execute(
            "INSERT INTO chunk_generations (tenant, generation, changes_from)"
            " VALUES (?, 0, ?) ON CONFLICT (tenant) DO UPDATE SET changes_from = ?",
            (tenant, row[0] + 1, row[0] + 1),
        )


def log_state(conn: sqlite3.Connection, tenant: str) -> tuple[int, int]:
    """(the tenant's last change, the first change the log still holds)."""
    last = conn.execute("SELECT MAX(seq) FROM chunk_changes WHERE tenant = ?", (tenant,)).fetchone()
    start = conn.execute(
        "SELECT changes_from FROM chunk_generations WHERE tenant = ?", (tenant,)
    ).fetchone()
    return int(last[0] or 0), int(start[0]) if start else 0


@dataclass(frozen=True)
class Changes:
    """The net effect of the log's changes after one seq, up to ``seq`` (the last read).

    ``removed`` rows existed before (a row added and deleted in between is in neither list);
    ``added`` rows exist now, in the order they were added. A row id deleted and reused is in
    both.
    """

    seq: int
    removed: list[int]
    added: list[int]

    @classmethod
    def read(cls, conn: sqlite3.Connection, tenant: str, after: int) -> Changes:
        removed: list[int] = []
        added: dict[int, None] = {}
        last = after
        for seq, row_id, was_added in conn.execute(
            "SELECT seq, id, added FROM chunk_changes WHERE tenant = ? AND seq > ? ORDER BY seq",
            (tenant, after),
        ):
            last = int(seq)
            if was_added:
                added[int(row_id)] = None
            elif row_id in added:
                del added[row_id]
            else:
                removed.append(int(row_id))
        return cls(seq=last, removed=removed, added=list(added))


class RowTable:
    """Row id, collection and liveness by position; rows are only ever appended or marked dead."""

    def __init__(self, ids: NDArray[np.int64], collections: list[str | None]) -> None:
        """``ids`` ascending (the base), with each row's collection."""
        self.labels: dict[str, int] = {}
        count = int(ids.shape[0])
        self._ids = np.array(ids, dtype=np.int64)
        self._codes = np.fromiter(
            (self._code(collection) for collection in collections), dtype=np.int32, count=count
        )
        self._alive = np.ones(count, dtype=np.bool_)
        self.size = count
        self.base = count
        self.dead = 0
        self._added: dict[int, int] = {}  # row id -> position, rows appended after the base

    @classmethod
    def restore(
        cls, ids: NDArray[np.int64], codes: NDArray[np.int32], labels: dict[str, int]
    ) -> RowTable:
        """A base saved by ``saved()`` (arrays are copied on the first append, never written)."""
        rows = cls(np.empty(0, dtype=np.int64), [])
        rows.labels = dict(labels)
        rows._ids, rows._codes = ids, codes
        rows._alive = np.ones(ids.shape[0], dtype=np.bool_)
        rows.size = rows.base = int(ids.shape[0])
        return rows

    def saved(self) -> tuple[NDArray[np.int64], NDArray[np.int32], dict[str, int]]:
        """The base's ids and collection codes, and the labels; only valid with no changes."""
        if self.changed:
            raise ValueError("only a table without changes since its base is saved")
        return self._ids[: self.size], self._codes[: self.size], dict(self.labels)

    @property
    def ids(self) -> NDArray[np.int64]:
        return self._ids[: self.size]

    @property
    def changed(self) -> int:
        """Rows added or deleted since the base was read."""
        return self.size - self.base + self.dead

    def append(self, row_ids: list[int], collections: list[str | None]) -> NDArray[np.int64]:
        """Positions of the rows added, in order."""
        start, end = self.size, self.size + len(row_ids)
        if end > self._ids.shape[0]:
            capacity = max(end, 2 * self._ids.shape[0], _FIRST_CAPACITY)
            self._ids = np.resize(self._ids, capacity)
            self._codes = np.resize(self._codes, capacity)
            self._alive = np.resize(self._alive, capacity)
        self._ids[start:end] = row_ids
        self._codes[start:end] = [self._code(collection) for collection in collections]
        self._alive[start:end] = True
        for offset, row_id in enumerate(row_ids):
            self._added[row_id] = start + offset
        self.size = end
        return np.arange(start, end, dtype=np.int64)

    def remove(self, row_id: int) -> None:
        """Marks the row dead; a row this table does not hold is ignored."""
        position = self._added.pop(row_id, None)
        if position is None:
            found = int(np.searchsorted(self._ids[: self.base], row_id))
            if found >= self.base or self._ids[found] != row_id:
                return
            position = found
        if self._alive[position]:
            self._alive[position] = False
            self.dead += 1

    def selectable(self, collection: str | None) -> NDArray[np.bool_] | None:
        """Live rows (of the collection), by position; None when the collection has no rows."""
        alive = self._alive[: self.size]
        if collection is None:
            return alive
        code = self.labels.get(collection)
        if code is None:
            return None
        selected: NDArray[np.bool_] = alive & (self._codes[: self.size] == code)
        return selected

    def _code(self, collection: str | None) -> int:
        if collection is None:
            return NO_COLLECTION
        return self.labels.setdefault(collection, len(self.labels))
