"""Chunk records in SQLite, so hits can be shown without re-reading files.

Read through :class:`ChunkMap`: a one-shot command touches a few dozen chunks of
tens of thousands, so rows are read (and verified) by id on first use and kept,
and only a caller that walks every chunk pays for reading them all. Definitions
are found by an indexed ``symbol`` / ``short`` lookup, not a table built in memory.
"""

from __future__ import annotations

import hashlib
import operator
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence, ValuesView
from pathlib import Path

import numpy as np

from caas_tui.errors import IndexStoreError
from caas_tui.index.tokenids import unpack
from caas_tui.models import KINDS, Chunk, Kind
from caas_tui.sources.entries import CODE_LANGUAGES

_COLUMNS = (
    "id", "kind", "path", "start_line", "end_line", "symbol", "text", "mtime",
    "sha256", "language", "signature", "parent", "file_sha256",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM chunks"
# ``short``: the last dotted segment of a code symbol (see short_name), for bare-name lookups;
# ``tokens``: the token stage's ids of the chunk (index/tokenids.py), NULL when the encoder has none
_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY, kind TEXT, path TEXT, start_line INTEGER, end_line INTEGER,
    symbol TEXT, text TEXT, mtime REAL, sha256 TEXT, language TEXT, signature TEXT,
    parent TEXT, file_sha256 TEXT, short TEXT, tokens BLOB
);
"""
# Secondary indexes: a write into an empty store drops them and builds each once at its commit
# (one sort) instead of updating three B-trees per row; both happen inside the write transaction,
# so a build that never commits leaves them as they were.
_INDEXES = """
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_symbol ON chunks(symbol);
CREATE INDEX IF NOT EXISTS chunks_short ON chunks(short);
"""
_DROP_INDEXES = "DROP INDEX IF EXISTS chunks_path; DROP INDEX IF EXISTS chunks_symbol; DROP INDEX IF EXISTS chunks_short;"
_BATCH = 500  # ids per ``IN (...)`` query: under SQLite's variable limit


_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,), "kind": (str,), "path": (str,), "start_line": (int,), "end_line": (int,),
    "symbol": (str, type(None)), "text": (str,), "mtime": (float, int), "sha256": (str,), "language": (str,),
    "signature": (str, type(None)), "parent": (str, type(None)), "file_sha256": (str,),
}


def short_name(chunk: Chunk) -> str | None:
    """The bare name a code definition is also found by (``remove_body`` for
    ``pkg.World.remove_body``); docs and text have none (their symbols are heading paths)."""
    if not chunk.symbol or chunk.language not in CODE_LANGUAGES:
        return None
    return chunk.symbol.rsplit(".", 1)[-1]


class CorruptChunkStore(IndexStoreError):
    """A row read from the chunk store is damaged (found when it is read, not on open)."""


def _corrupt(path: Path, what: str) -> CorruptChunkStore:
    return CorruptChunkStore(f"{path}: corrupt chunk store ({what})")


def _text_ok(text: object, sha256: object) -> bool:
    return isinstance(text, str) and hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() == sha256


def _chunk(path: Path, row: Sequence[object]) -> Chunk:
    """A stored row as a Chunk; a row of the wrong shape or whose text no longer hashes to
    its recorded sha256 (bytes changed inside the database) is corruption, not a chunk."""
    values = dict(zip(_COLUMNS, row, strict=True))
    for col, types in _TYPES.items():
        if not isinstance(values[col], types) or isinstance(values[col], bool):
            raise _corrupt(path, f"bad {col} in a row")
    if values["kind"] not in KINDS:
        raise _corrupt(path, "bad kind in a row")
    if not _text_ok(values["text"], values["sha256"]):
        raise _corrupt(path, "a chunk's text does not match its checksum")
    return Chunk(**values)  # type: ignore[arg-type]


class ChunkDB:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            # check_same_thread=False: the engine serialises access with its own lock,
            # and the app searches from worker threads.
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA + _INDEXES)
        except sqlite3.DatabaseError as exc:
            raise _corrupt(path, str(exc)) from exc

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, str(exc)) from exc

    def all(self) -> list[Chunk]:
        return [_chunk(self.path, row) for row in self._rows(_SELECT)]

    def get_many(self, ids: Sequence[str]) -> list[Chunk]:
        out: list[Chunk] = []
        for start in range(0, len(ids), _BATCH):
            part = ids[start : start + _BATCH]
            rows = self._rows(f"{_SELECT} WHERE id IN ({', '.join('?' * len(part))})", part)
            out.extend(_chunk(self.path, row) for row in rows)
        return out

    def where(self, column: str, value: str) -> list[Chunk]:
        """Chunks whose ``symbol``, ``short`` or ``path`` is ``value``, in file order."""
        if column not in ("symbol", "short", "path"):
            raise ValueError(column)
        return [_chunk(self.path, row) for row in self._rows(f"{_SELECT} WHERE {column} = ? ORDER BY path, start_line, rowid",
                                                             (value,))]

    def token_blobs(self, ids: Sequence[str]) -> dict[str, object]:
        """The ``tokens`` column of the rows of ``ids`` (rows without one are left out)."""
        out: dict[str, object] = {}
        for start in range(0, len(ids), _BATCH):
            part = ids[start : start + _BATCH]
            sql = f"SELECT id, tokens FROM chunks WHERE id IN ({', '.join('?' * len(part))}) AND tokens IS NOT NULL"
            out.update((str(cid), blob) for cid, blob in self._rows(sql, part))
        return out

    def ids_by_kind(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for cid, kind in self._rows("SELECT id, kind FROM chunks"):
            out.setdefault(str(kind), set()).add(str(cid))
        return out

    def count(self) -> int:
        return int(self._rows("SELECT COUNT(*) FROM chunks")[0][0])  # type: ignore[call-overload]

    def pin(self) -> int:
        """Start a read transaction and return the row count in it: until ``replace`` or
        ``close``, every read sees the store as it is now (WAL snapshot), as the rest of an
        open index does, whatever another process commits meanwhile."""
        if self._conn.in_transaction:
            self._conn.execute("COMMIT")
        self._conn.execute("BEGIN")
        return self.count()

    def replace(self, remove_ids: Sequence[str], add: Iterable[Chunk]) -> None:
        """Delete and insert in one transaction: readers see before or after, never half."""
        writer = self.writer(remove_ids)
        try:
            writer.add(add)
            writer.commit()
        finally:
            writer.close()
        if self._conn.in_transaction:
            self.pin()  # a pinned snapshot moves on to the write just made

    def writer(self, remove_ids: Sequence[str]) -> ChunkWriter:
        """An open write transaction that first deletes ``remove_ids``; see :class:`ChunkWriter`."""
        return ChunkWriter(self.path, remove_ids)

    def close(self) -> None:
        self._conn.close()


_INSERT = (f"INSERT OR REPLACE INTO chunks ({', '.join(_COLUMNS)}, short, tokens) "
           f"VALUES ({', '.join('?' * (len(_COLUMNS) + 2))})")
_row = operator.attrgetter(*_COLUMNS)  # a chunk's stored columns as one tuple, in C
_WRITE_CACHE_KB = 65_536  # page cache of the write connection: index pages stay hot across batches


class ChunkWriter:
    """One write transaction on a connection of its own, fed in batches while a build runs.

    A build streams its chunks here as files are chunked instead of holding them all until
    the commit. Nothing is visible to any reader (this process's pinned snapshot included)
    until :meth:`commit`; a build that fails or is killed before it leaves the store as it
    was (an open transaction is rolled back when its connection closes or its process dies).
    """

    def __init__(self, path: Path, remove_ids: Sequence[str]) -> None:
        self.path = path
        self.added = 0
        self._deferred = False  # secondary indexes dropped until the commit (an empty store)
        self._conn: sqlite3.Connection | None = None
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute(f"PRAGMA cache_size=-{_WRITE_CACHE_KB}")
            self._conn.execute("BEGIN IMMEDIATE")  # the writer lock is ours already: take SQLite's now
            self._conn.executemany("DELETE FROM chunks WHERE id = ?", ((i,) for i in remove_ids))
            # ``executescript`` would commit first: one statement at a time keeps the transaction.
            self._deferred = self._conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None
            for statement in _DROP_INDEXES.split(";") if self._deferred else ():
                if statement.strip():
                    self._conn.execute(statement)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise _corrupt(path, str(exc)) from exc

    def add(self, chunks: Iterable[Chunk], tokens: Sequence[bytes | None] | None = None) -> None:
        """Write ``chunks``; ``tokens``: each one's token-stage ids as :func:`~caas_tui.index.tokenids.pack`
        made them (None: not stored, a search tokenizes that chunk when it needs them)."""
        conn = self._open()
        before = conn.total_changes
        rows = list(chunks)
        blobs: Sequence[bytes | None] = [None] * len(rows) if tokens is None else tokens
        if len(blobs) != len(rows):
            raise ValueError(f"{len(blobs)} token blobs for {len(rows)} chunks")
        try:
            conn.executemany(_INSERT, ((*_row(c), short_name(c), blob) for c, blob in zip(rows, blobs, strict=True)))
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, str(exc)) from exc
        self.added += conn.total_changes - before

    def commit(self) -> None:
        try:
            conn = self._open()
            for statement in _INDEXES.split(";") if self._deferred else ():
                if statement.strip():
                    conn.execute(statement)
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, str(exc)) from exc
        self.close()

    def close(self) -> None:
        """End the connection; an uncommitted transaction is rolled back."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise IndexStoreError(f"{self.path}: chunk store write already finished")
        return self._conn


class ChunkMap(Mapping[str, Chunk]):
    """The chunks of one open index by id, read from ``db`` on first use and kept.

    Iterating (``values()``, ``items()``, ``for cid in ...``) reads every row once; ``get``
    and the definition lookups read only what they return. Not thread-safe on its own:
    the engine serialises callers.
    """

    def __init__(self, db: ChunkDB) -> None:
        self._db = db
        self._cache: dict[str, Chunk] = {}
        self._complete = False
        self._count = db.pin()
        self._kind_ids: dict[str, set[str]] | None = None
        self._defs: dict[tuple[str, str], list[Chunk]] = {}  # (column, name) -> definitions

    # -- Mapping -----------------------------------------------------------------
    def __getitem__(self, chunk_id: str) -> Chunk:
        chunk = self.get(chunk_id)
        if chunk is None:
            raise KeyError(chunk_id)
        return chunk

    def get(self, chunk_id: str, default: Chunk | None = None) -> Chunk | None:  # type: ignore[override]
        chunk = self._cache.get(chunk_id)
        if chunk is None and not self._complete:
            found = self._db.get_many([chunk_id])
            if found:
                chunk = self._cache[chunk_id] = found[0]
        return chunk if chunk is not None else default

    def __contains__(self, chunk_id: object) -> bool:
        return isinstance(chunk_id, str) and self.get(chunk_id) is not None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def values(self) -> ValuesView[Chunk]:
        return self._everything().values()

    def _everything(self) -> dict[str, Chunk]:
        if not self._complete:
            self._cache = {c.id: c for c in self._db.all()}
            self._complete = True
        return self._cache

    # -- lookups -----------------------------------------------------------------
    def prefetch(self, ids: Iterable[str]) -> None:
        """Read the rows of ``ids`` not yet read, in one query per few hundred."""
        if self._complete:
            return
        missing = [cid for cid in dict.fromkeys(ids) if cid not in self._cache]
        for chunk in self._db.get_many(missing):
            self._cache[chunk.id] = chunk

    def defined(self, column: str, name: str) -> list[Chunk]:
        """Chunks whose ``symbol`` (or ``short`` name, see :func:`short_name`) is ``name``,
        ordered by path and line."""
        key = (column, name)
        found = self._defs.get(key)
        if found is None:
            if self._complete:
                test = (lambda c: c.symbol == name) if column == "symbol" else (lambda c: short_name(c) == name)
                found = sorted((c for c in self._cache.values() if test(c)), key=lambda c: (c.path, c.start_line))
            else:
                found = [self._cache.setdefault(c.id, c) for c in self._db.where(column, name)]
            self._defs[key] = found
        return found

    def token_ids(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored token-stage ids (``index/tokenids.py``) of those of ``ids`` that have them."""
        out: dict[str, np.ndarray] = {}
        for cid, blob in self._db.token_blobs(list(dict.fromkeys(ids))).items():
            found = unpack(blob)
            if found is not None:
                out[cid] = found
        return out

    def ids_of_kind(self, kind: Kind) -> set[str]:
        if self._kind_ids is None:
            self._kind_ids = self._db.ids_by_kind()
        return self._kind_ids.get(kind, set())

    # -- writes (the store applies them to ``db`` first) -----------------------------
    def applied(self, changed: Iterable[str]) -> None:
        """Follow a committed write that removed or replaced the rows of ``changed`` and
        added others: move to the newest snapshot and forget what it may have changed.
        Added rows are read on first use like any other, so a build holds none of them."""
        for cid in changed:
            self._cache.pop(cid, None)
        self._complete = False
        self._count = self._db.pin()
        self._kind_ids = None
        self._defs.clear()
