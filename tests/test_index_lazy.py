"""The index opens lazily and builds on both cores (issue 20), with the same answers.

- a search reads chunk rows by id and never the graph; the graph and every chunk are
  read only when something asks for them;
- an open index keeps answering from the state it was opened in while another process
  refreshes it (a read snapshot of the chunk store, an open handle on graph.jsonl);
- a damaged row is found when it is read, and a search then rebuilds, as an open would;
- chunking in worker processes builds the same index as chunking in this one.
"""

from __future__ import annotations

import concurrent.futures
import sqlite3
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index import buildstream
from caas_tui.index import refresh as refresh_module
from caas_tui.index import store as store_module
from caas_tui.index.chunkdb import ChunkDB
from caas_tui.retrieve.engine import Engine

from .conftest import write

QUERIES = ["remove body", "scheduler defer", "World", "add_body mass", "deferred removal"]


def _answers(engine: Engine) -> list[list[tuple[str, float]]]:
    return [[(h.chunk.id, round(h.score, 6)) for h in engine.search(q, 5, mode=m)]
            for q in QUERIES for m in ("bm25", "dense", "hybrid")]


def test_search_reads_no_graph_and_not_every_chunk(tiny_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Engine.open(tiny_project).close()

    def refuse(*_args: object) -> None:
        raise AssertionError("read everything")

    monkeypatch.setattr(ChunkDB, "all", refuse)
    monkeypatch.setattr(store_module, "parse_fragments", refuse)
    engine = Engine.open(tiny_project)
    try:
        hits = engine.search("remove_body", 5)
        assert hits[0].chunk.symbol == "pkg.world.World.remove_body"
        assert [c.symbol for c in engine.find_symbol("Scheduler")] == ["pkg.sched.Scheduler"]
        assert engine.search("scheduler", 5, mode="dense", kinds=["code"])
        assert engine.chunk(hits[0].chunk.id) == hits[0].chunk
        assert len(engine.store.chunks) == sum(len(r.chunks) for r in engine.store.manifest.files.values())
        with pytest.raises(AssertionError, match="read everything"):
            engine.graph  # noqa: B018 - the graph is read on first use
    finally:
        engine.close()
    monkeypatch.undo()
    engine = Engine.open(tiny_project)
    try:
        assert "pkg.world.World.remove_body" in engine.graph.nodes
        assert {c.id for c in engine.chunks()} == set(engine.store.chunks)
    finally:
        engine.close()


def test_an_open_index_answers_from_its_own_state_while_another_refreshes(tiny_project: Path) -> None:
    reader = Engine.open(tiny_project)
    try:
        before = _answers(reader)
        old = {h.chunk.id: h.chunk for h in reader.search("remove_body", 5)}
        writer = Engine.open(tiny_project)
        try:
            write(tiny_project, "pkg/world.py", '"""Gone."""\n\n\ndef replaced() -> None:\n    pass\n')
            writer.refresh()
            assert writer.find_symbol("World.remove_body") == []
        finally:
            writer.close()
        # the reader's lexical index, vectors, rows and graph are all still the old state
        assert _answers(reader) == before
        assert all(reader.chunk(cid) == chunk for cid, chunk in old.items())
        assert [c.symbol for c in reader.find_symbol("World.remove_body")] == ["pkg.world.World.remove_body"]
        assert "pkg.world.World.remove_body" in reader.graph.nodes
        reader.refresh()  # now it catches up
        assert reader.find_symbol("World.remove_body") == []
        assert "pkg.world.replaced" in reader.graph.nodes
    finally:
        reader.close()


def test_a_damaged_row_found_by_a_search_rebuilds(tiny_project: Path) -> None:
    engine = Engine.open(tiny_project)
    expected = _answers(engine)
    target = engine.search("remove_body", 1)[0].chunk
    engine.close()
    db = sqlite3.connect(tiny_project / ".caas" / "index" / "chunks.sqlite")
    with db:
        db.execute("UPDATE chunks SET text = ? WHERE id = ?", (target.text + " tampered", target.id))
    db.close()
    notices: list[str] = []
    engine = Engine.open(tiny_project, notify=notices.append)  # not read on open: no notice yet
    try:
        assert notices == []
        assert _answers(engine) == expected
        assert any("corrupt chunk store" in n and "rebuilding" in n for n in notices), notices
    finally:
        engine.close()
    engine = Engine.open(tiny_project, read_only=True)
    try:
        assert engine.chunk(target.id) == target
    finally:
        engine.close()


def test_a_damaged_row_is_an_error_where_nothing_can_rebuild(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    db = sqlite3.connect(tiny_project / ".caas" / "index" / "chunks.sqlite")
    with db:
        db.execute("UPDATE chunks SET text = text || 'x'")
    db.close()
    engine = Engine.open(tiny_project, read_only=True)
    try:
        with pytest.raises(IndexStoreError, match="corrupt chunk store"):
            engine.chunks()
    finally:
        engine.close()


def test_chunking_in_worker_processes_builds_the_same_index(
    tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inline = Engine.open(tiny_project)
    try:
        expected = (_answers(inline), {p: r.chunks for p, r in inline.store.manifest.files.items()},
                    inline.graph.edges)
    finally:
        inline.close()
    pools: list[int] = []

    class CountedPool(ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(refresh_module, "POOL_MIN_FILES", 0)
    monkeypatch.setattr(refresh_module, "POOL_MIN_BYTES", 0)
    # refresh.chunk_files imports the pool class when it starts one (a one-shot command never does)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", CountedPool)
    monkeypatch.setattr(refresh_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(buildstream, "FEED_BATCH", 3)  # feed the lexical writer while files are chunked
    monkeypatch.setattr(buildstream, "EMBED_BATCH", 4)
    pooled = Engine.open(tiny_project, index_dir=tmp_path / "pooled")
    try:
        got = (_answers(pooled), {p: r.chunks for p, r in pooled.store.manifest.files.items()}, pooled.graph.edges)
    finally:
        pooled.close()
    if threading.active_count() > 1:
        assert pools == []  # fork copies one thread: with others running, chunking stays in-process
    else:
        assert pools == [1]
    assert got == expected
