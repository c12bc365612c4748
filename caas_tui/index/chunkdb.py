"""Chunk records in SQLite, so hits can be shown without re-reading files."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from caas_tui.errors import IndexStoreError
from caas_tui.models import KINDS, Chunk

_COLUMNS = (
    "id", "kind", "path", "start_line", "end_line", "symbol", "text", "mtime",
    "sha256", "language", "signature", "parent", "file_sha256",
)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY, kind TEXT, path TEXT, start_line INTEGER, end_line INTEGER,
    symbol TEXT, text TEXT, mtime REAL, sha256 TEXT, language TEXT, signature TEXT,
    parent TEXT, file_sha256 TEXT
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
"""


_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,), "kind": (str,), "path": (str,), "start_line": (int,), "end_line": (int,),
    "symbol": (str, type(None)), "text": (str,), "mtime": (float, int), "sha256": (str,), "language": (str,),
    "signature": (str, type(None)), "parent": (str, type(None)), "file_sha256": (str,),
}


def _chunk(path: Path, row: Sequence[object]) -> Chunk:
    """A stored row as a Chunk; a row of the wrong shape or whose text no longer hashes to
    its recorded sha256 (bytes changed inside the database) is corruption, not a chunk."""
    values = dict(zip(_COLUMNS, row, strict=True))
    for col, types in _TYPES.items():
        if not isinstance(values[col], types) or isinstance(values[col], bool):
            raise IndexStoreError(f"{path}: corrupt chunk store (bad {col} in a row)")
    if values["kind"] not in KINDS:
        raise IndexStoreError(f"{path}: corrupt chunk store (bad kind in a row)")
    text = str(values["text"])
    if hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() != values["sha256"]:
        raise IndexStoreError(f"{path}: corrupt chunk store (a chunk's text does not match its checksum)")
    return Chunk(**values)  # type: ignore[arg-type]


class ChunkDB:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            # check_same_thread=False: the engine serialises access with its own lock,
            # and the app searches from worker threads.
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise IndexStoreError(f"{path}: corrupt chunk store ({exc})") from exc

    def all(self) -> list[Chunk]:
        try:
            rows = self._conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM chunks").fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexStoreError(f"{self.path}: corrupt chunk store ({exc})") from exc
        return [_chunk(self.path, row) for row in rows]

    def replace(self, remove_ids: Sequence[str], add: Iterable[Chunk]) -> None:
        """Delete and insert in one transaction: readers see before or after, never half."""
        placeholders = ", ".join("?" for _ in _COLUMNS)
        with self._conn:
            self._conn.execute("BEGIN")
            self._conn.executemany("DELETE FROM chunks WHERE id = ?", [(i,) for i in remove_ids])
            self._conn.executemany(
                f"INSERT OR REPLACE INTO chunks ({', '.join(_COLUMNS)}) VALUES ({placeholders})",
                [tuple(getattr(c, col) for col in _COLUMNS) for c in add],
            )

    def close(self) -> None:
        self._conn.close()
