"""The cold build's fast paths give the same index as the plain ones (issue 20).

- chunking workers that also embed (as they do when the indexing process falls
  behind) store the same vectors and answer the same as embedding in this process;
- the Whoosh writer that groups postings by term (and its hand-over to Whoosh's own
  spilling pool on a big corpus) answers exactly as Whoosh's ``SegmentWriter``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from whoosh.writing import SegmentWriter

from caas_tui.index import refresh as refresh_module
from caas_tui.index import store as store_module
from caas_tui.index import whoosh_writer
from caas_tui.index.lexical import WhooshLexical
from caas_tui.models import Chunk
from caas_tui.retrieve.engine import Engine

from .test_index_lazy import _answers

QUERIES = ["remove body", "scheduler", "World", "add_body mass", "deferred removal", "wor", "sched"]


def test_workers_that_embed_build_the_same_index(tiny_project: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # decided when the test runs, not at collection: a thread an earlier test left running
    # makes the build chunk in-process (fork copies one thread), so there is no worker to test
    if threading.active_count() > 1:
        pytest.skip("fork copies one thread: chunking stays in-process")
    inline = Engine.open(tiny_project)
    try:
        expected = _answers(inline)
        ids = sorted(c.id for c in inline.chunks())
    finally:
        inline.close()
    monkeypatch.setattr(refresh_module, "POOL_MIN_FILES", 0)
    monkeypatch.setattr(refresh_module, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(refresh_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(refresh_module, "BEHIND_TASKS", -1)  # the worker embeds every batch
    monkeypatch.setattr(refresh_module, "FILES_PER_TASK", 2)
    embedded_here: list[int] = []
    original = store_module.IndexStore._encode

    def counted(self: Any, chunks: list[Chunk]) -> Any:
        embedded_here.append(len(chunks))
        return original(self, chunks)

    monkeypatch.setattr(store_module.IndexStore, "_encode", counted)
    pooled = Engine.open(tiny_project, index_dir=tmp_path / "pooled")
    try:
        assert _answers(pooled) == expected
        assert sorted(c.id for c in pooled.chunks()) == ids
    finally:
        pooled.close()
    assert embedded_here == []  # every vector came from the worker


def _chunks(n: int) -> list[Chunk]:
    words = ["remove", "body", "world", "scheduler", "defer", "mass", "gravity", "step", "collide", "render"]
    out = []
    for i in range(n):
        name = f"{words[i % 10]}_{words[(i * 3) % 10]}"
        text = f"def {name}(x):\n    return {words[(i * 7) % 10]}(x) + {i}\n"
        out.append(Chunk(id=f"c{i}", kind="code", path=f"pkg/m{i % 7}.py", start_line=1, end_line=2,
                         symbol=f"pkg.m{i % 7}.{name}", text=text, mtime=0.0, sha256="0" * 64, language="python",
                         signature=None, parent=None, file_sha256="0" * 64))
    return out


def _build(directory: Path, chunks: list[Chunk]) -> WhooshLexical:
    lex = WhooshLexical.create(directory)
    for start in range(0, len(chunks), 50):
        lex.add(chunks[start : start + 50])
        lex.prepare()
    lex.commit()
    return lex


@pytest.mark.parametrize("max_postings", [whoosh_writer.MAX_POSTINGS, 300])
def test_fast_writer_answers_as_whoosh_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              max_postings: int) -> None:
    chunks = _chunks(400)
    monkeypatch.setattr(whoosh_writer, "MAX_POSTINGS", max_postings)  # 300: hands over to Whoosh's pool midway
    fast = _build(tmp_path / "fast", chunks)
    # lexical.py imports the writer when it first writes: replace it where it is looked up
    monkeypatch.setattr(whoosh_writer, "FastSegmentWriter", lambda ix, **kw: SegmentWriter(ix, **kw))
    plain = _build(tmp_path / "plain", chunks)
    try:
        assert fast.doc_count() == plain.doc_count() == 400
        for q in QUERIES:
            for prefix_last in (False, True):
                got = fast.search(q, 10, prefix_last=prefix_last)
                assert got == plain.search(q, 10, prefix_last=prefix_last)
        assert fast.search("remove body", 10)  # the queries do match
        # an incremental change after the first build goes through the same writer
        fast.delete(["c0", "c1"])
        fast.add([chunks[0]])
        fast.commit()
        assert fast.doc_count() == 399
    finally:
        fast.close()
        plain.close()


def test_term_pool_yields_postings_in_whoosh_order() -> None:
    pool = whoosh_writer.TermPool(lambda: pytest.fail("no spill expected"))
    items = [("content", t.encode(), d, 1.0, b"") for d in range(5) for t in ("zeta", "alpha", "mid")]
    items += [("path", b"alpha", 5, 2.0, None)]
    for item in items:
        pool.add(item)
    assert list(pool.iter_postings()) == sorted(items, key=lambda it: (it[0], it[1], it[2]))
