"""A build streams its chunks into the chunk store and its vectors into the vector index
as it goes (issue 20, memory at 500k chunks), inside one uncommitted write: what it reads
back is what it wrote, and a build that fails or is killed before its commit leaves the
last complete index as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from caas_tui.index import buildstream, chunkdb
from caas_tui.index import store as store_module
from caas_tui.index.chunkdb import ChunkDB, ChunkMap, ChunkWriter
from caas_tui.index.manifest import read_manifest
from caas_tui.index.vectors import ClusteredVectorIndex, ExactVectorIndex
from caas_tui.models import Chunk
from caas_tui.retrieve.engine import Engine

from .conftest import write
from .test_vector_clusters import ids_for, mixture


def _chunk(cid: str, text: str = "body") -> Chunk:
    return Chunk(id=cid, kind="code", path="pkg/m.py", start_line=1, end_line=2, symbol=f"m.{cid}", text=text,
                 mtime=1.0, sha256=hashlib.sha256(text.encode()).hexdigest(), language="python",
                 signature=None, parent=None, file_sha256="f" * 64)


def _spy_batches(monkeypatch: pytest.MonkeyPatch) -> list[list[Chunk]]:
    batches: list[list[Chunk]] = []
    original = ChunkWriter.add

    def add(self: ChunkWriter, chunks: Any, tokens: Any = None) -> None:
        chunks = list(chunks)
        batches.append(chunks)
        original(self, chunks, tokens)

    monkeypatch.setattr(ChunkWriter, "add", add)
    return batches


def _rows(index_dir: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(index_dir / "chunks.sqlite") as conn:
        return conn.execute("SELECT * FROM chunks ORDER BY id").fetchall()


@pytest.mark.parametrize("lexical", ["whoosh", "tantivy"])
def test_a_streamed_build_reads_back_every_chunk_it_wrote(tiny_project: Path, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path, lexical: str) -> None:
    whole = Engine.open(tiny_project, index_dir=tmp_path / "whole", lexical=lexical)  # one batch: the project is small
    try:
        expected = sorted(whole.chunks(), key=lambda c: c.id)
    finally:
        whole.close()
    monkeypatch.setattr(buildstream, "FEED_BATCH", 3)
    monkeypatch.setattr(buildstream, "EMBED_BATCH", 4)
    batches = _spy_batches(monkeypatch)
    Engine.open(tiny_project, index_dir=tmp_path / "streamed", lexical=lexical).close()
    written = [c for batch in batches for c in batch]
    assert len([b for b in batches if b]) > 2  # it did stream, in several batches
    assert len(written) == len(expected) == len({c.id for c in written})
    reopened = Engine.open(tiny_project, index_dir=tmp_path / "streamed", read_only=True, lexical=lexical)
    try:
        got = sorted(reopened.chunks(), key=lambda c: c.id)
        assert got == sorted(written, key=lambda c: c.id) == expected
        vectors = reopened.store.vectors
        assert vectors is not None and set(vectors.ids()) <= {c.id for c in got}  # all-zero vectors are not stored
    finally:
        reopened.close()
    whole_again = Engine.open(tiny_project, index_dir=tmp_path / "whole", read_only=True, lexical=lexical)
    try:
        streamed = Engine.open(tiny_project, index_dir=tmp_path / "streamed", read_only=True, lexical=lexical)
        try:
            assert sorted(whole_again.store.vectors.ids()) == sorted(streamed.store.vectors.ids())  # type: ignore[union-attr]
            for q in ("remove body", "scheduler", "World"):
                for mode in ("bm25", "dense", "hybrid"):
                    assert ([(h.chunk.id, round(h.score, 6)) for h in streamed.search(q, 5, mode=mode)]
                            == [(h.chunk.id, round(h.score, 6)) for h in whole_again.search(q, 5, mode=mode)])
        finally:
            streamed.close()
    finally:
        whole_again.close()


def _edit(root: Path) -> None:
    write(root, "pkg/extra.py", "def brand_new_function(x):\n    return x\n")
    world = root / "pkg" / "world.py"
    world.write_text(world.read_text() + "\n\ndef another_new_one():\n    return 1\n")


def test_a_refresh_that_fails_mid_build_leaves_the_last_index(tiny_project: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine.open(tiny_project)
    index_dir = tiny_project / ".caas" / "index"
    try:
        before = sorted(engine.chunks(), key=lambda c: c.id)
        rows_before = _rows(index_dir)
        _edit(tiny_project)
        batches = _spy_batches(monkeypatch)

        def fail(self: Any, chunks: list[Chunk]) -> Any:
            raise RuntimeError("encoder died")

        monkeypatch.setattr(store_module.IndexStore, "_encode", fail)
        with pytest.raises(RuntimeError, match="encoder died"):
            engine.refresh()
        assert any(c.path == "pkg/extra.py" for b in batches for c in b)  # rows were written, uncommitted
    finally:
        engine.close()
    assert _rows(index_dir) == rows_before
    manifest = read_manifest(index_dir)
    assert manifest is not None and manifest.state == "clean" and "pkg/extra.py" not in manifest.files
    monkeypatch.undo()
    last = Engine.open(tiny_project, read_only=True)
    try:
        assert sorted(last.chunks(), key=lambda c: c.id) == before
        assert last.find_symbol("brand_new_function") == []
    finally:
        last.close()
    fresh = Engine.open(tiny_project)  # and the next refresh picks the edits up
    try:
        assert fresh.find_symbol("brand_new_function")
    finally:
        fresh.close()


_KILLED = """
import os, sys
from caas_tui.index import buildstream
from caas_tui.index.chunkdb import ChunkWriter
from caas_tui.retrieve.engine import Engine
buildstream.FEED_BATCH = 1
original = ChunkWriter.add
calls = []
def add(self, chunks, tokens=None):
    chunks = list(chunks)
    original(self, chunks, tokens)
    calls.append(len(chunks))
    if any(c.path == "pkg/extra.py" for c in chunks):
        os._exit(7)  # killed: no rollback, no finally, an open write transaction in the WAL
ChunkWriter.add = add
Engine.open(sys.argv[1]).close()
"""


def test_a_build_killed_mid_write_leaves_the_last_index(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    index_dir = tiny_project / ".caas" / "index"
    rows_before = _rows(index_dir)
    _edit(tiny_project)
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_KILLED), str(tiny_project)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 7, proc.stderr[-2000:]
    assert _rows(index_dir) == rows_before
    last = Engine.open(tiny_project, read_only=True)
    try:
        assert last.find_symbol("brand_new_function") == []
        assert len(last.chunks()) == len(rows_before)
    finally:
        last.close()


def test_chunk_writer_is_invisible_until_commit_and_rolls_back_on_close(tmp_path: Path) -> None:
    db = ChunkDB(tmp_path / "chunks.sqlite")
    try:
        db.replace([], [_chunk("a"), _chunk("b")])
        chunks = ChunkMap(db)
        writer = db.writer(["a"])
        writer.add([_chunk("c"), _chunk("d", "other")])
        writer.add([_chunk("e")])
        assert writer.added == 3
        assert len(chunks) == 2 and chunks.get("a") is not None and chunks.get("c") is None  # pinned reader
        with sqlite3.connect(db.path) as other:  # another process's reader
            assert other.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 2
        writer.close()  # never committed
        assert sorted(c.id for c in ChunkDB(db.path).all()) == ["a", "b"]
        writer = db.writer(["a"])
        writer.add([_chunk("c"), _chunk("d", "other")])
        writer.commit()
        assert chunks.get("c") is None  # the pinned snapshot still sees the store before the write
        chunks.applied(["a"])
        assert len(chunks) == 3 and chunks.get("a") is None and chunks["d"].text == "other"
        with pytest.raises(chunkdb.IndexStoreError):
            writer.add([_chunk("late")])
    finally:
        db.close()


def test_vectors_streamed_in_batches_equal_one_upsert() -> None:
    data = mixture(5000, seed=21)
    ids = ids_for(len(data))
    whole = ExactVectorIndex()
    whole.upsert(ids, data)
    streamed = ExactVectorIndex()
    for start in range(0, len(data), 333):
        streamed.upsert(ids[start : start + 333], data[start : start + 333])
    streamed.upsert(ids[:10], data[10:20])  # updates in place
    whole.upsert(ids[:10], data[10:20])
    assert streamed.ids() == whole.ids()
    assert np.array_equal(streamed._mat[: len(streamed)], whole._mat[: len(whole)])
    for q in data[:5]:
        assert streamed.search(q, 10) == whole.search(q, 10)


def test_big_matrices_grow_by_a_quarter_without_a_second_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.index import vectors

    monkeypatch.setattr(vectors, "_GROW_SLOWLY_FROM", 1000)
    index = ExactVectorIndex()
    data = mixture(4000, seed=22)
    ids = ids_for(len(data))
    for start in range(0, len(data), 100):
        index.upsert(ids[start : start + 100], data[start : start + 100])
        if len(index) >= 2 * 1000:  # past the doubling: at most a quarter spare
            assert index._mat.shape[0] <= 1.25 * len(index) + 100
    extra = mixture(index._mat.shape[0] - len(index) + 1, seed=26)
    index.upsert(ids_for(len(extra) - 1, "fill"), extra[:-1])  # exactly full
    view = index._mat[:10]  # a live view: the buffer must be copied, not resized under it
    before = view.copy()
    index.upsert(["last"], extra[-1:])
    assert index._mat.shape[0] > len(index) - 1 and np.array_equal(view, before)
    assert np.array_equal(index._mat[:10], before) and index.search(extra[-1], 1)[0][0] == "last"


@pytest.mark.parametrize("edited", [False, True])
def test_probing_every_list_is_exact_whatever_the_layout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         edited: bool) -> None:
    from caas_tui.index import vectors

    monkeypatch.setattr(vectors, "CLUSTER_MIN_VECTORS", 1000)
    data = mixture(3000, seed=23)
    index = ClusteredVectorIndex()
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    if edited:  # rows moved into holes, rows appended: some lists' slices hold other lists' rows
        index.remove(ids_for(150)[::3])
        index.upsert(ids_for(40, "new"), mixture(40, seed=24))
        assert index._layout()[1].any() and len(index._loose_rows())
    assert index._centroids is not None
    index.n_probe = len(index._centroids)
    exact = ExactVectorIndex()
    exact.upsert(index.ids(), np.stack([index._mat[index._pos[cid]] for cid in index.ids()]))
    for q in mixture(20, seed=25):
        got, want = index.search(q, 10), exact.search(q, 10)
        assert [cid for cid, _ in got] == [cid for cid, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
