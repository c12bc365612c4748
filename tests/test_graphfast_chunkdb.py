"""A write into an empty chunk store builds its secondary indexes once, at the commit (issue 20):
the store ends exactly as a row-by-row indexed write leaves it, and a write that never commits
leaves the indexes where they were."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from caas_tui.index.chunkdb import ChunkDB
from caas_tui.models import Chunk

_INDEXES = ["chunks_path", "chunks_short", "chunks_symbol"]


def _chunk(cid: str, path: str = "pkg/m.py") -> Chunk:
    text = f"body of {cid}"
    return Chunk(id=cid, kind="code", path=path, start_line=1, end_line=2, symbol=f"m.{cid}", text=text,
                 mtime=1.0, sha256=hashlib.sha256(text.encode()).hexdigest(), language="python",
                 signature=None, parent=None, file_sha256="f" * 64)


def _indexes(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))


def _rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM chunks ORDER BY id").fetchall()


def test_a_build_into_an_empty_store_ends_as_an_indexed_write(tmp_path: Path) -> None:
    chunks = [_chunk(f"c{i}", f"pkg/m{i % 3}.py") for i in range(50)]
    fresh, filled = ChunkDB(tmp_path / "fresh.sqlite"), ChunkDB(tmp_path / "filled.sqlite")
    try:
        declared = _indexes(fresh.path)
        assert [name for name, _ in declared] == _INDEXES
        writer = fresh.writer([])
        writer.add(chunks[:20], [b"t"] * 20)
        writer.add(chunks[20:])
        assert writer.added == 50
        writer.commit()
        # the same rows written into a non-empty store, indexes kept up per row
        filled.replace([], [_chunk("seed")])
        writer = filled.writer(["seed"])
        writer.add(chunks[:20], [b"t"] * 20)
        writer.add(chunks[20:])
        writer.commit()
        assert _indexes(fresh.path) == _indexes(filled.path) == declared
        assert _rows(fresh.path) == _rows(filled.path)
        assert [c.id for c in fresh.where("path", "pkg/m1.py")] == [c.id for c in filled.where("path", "pkg/m1.py")]
        with sqlite3.connect(fresh.path) as conn:
            plan = " ".join(str(r) for r in conn.execute("EXPLAIN QUERY PLAN SELECT id FROM chunks WHERE short = 'x'"))
            assert "chunks_short" in plan
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        fresh.close()
        filled.close()


def test_a_build_that_never_commits_leaves_the_indexes(tmp_path: Path) -> None:
    db = ChunkDB(tmp_path / "chunks.sqlite")
    try:
        declared = _indexes(db.path)
        writer = db.writer([])
        writer.add([_chunk("a"), _chunk("b")])
        assert _indexes(db.path) == declared  # another reader: the drop is not visible before the commit
        writer.close()  # killed mid-build: rolled back
        assert _indexes(db.path) == declared and _rows(db.path) == []
        db.replace([], [_chunk("c")])
        assert [c.id for c in db.where("symbol", "m.c")] == ["c"]
    finally:
        db.close()
