"""What a chunking worker hands the indexing process instead of doing it there: the lexical
analysis (``PreAnalyzed``) and each file's graph fragment as its stored line. Each
must give the index exactly what the plain path gives."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import caas_tui.index.refresh as refresh_module
from caas_tui.graph import FragmentLines, extract_fragment
from caas_tui.index.encoders.hashing import HashingEncoder
from caas_tui.index.lexical_tantivy import TantivyLexical, document_terms
from caas_tui.index.protocols import PreAnalyzed
from caas_tui.ingest import chunk_file
from caas_tui.models import Chunk, SourceFile


def _chunk(cid: str, text: str, path: str = "pkg/m.py", symbol: str | None = None) -> Chunk:
    return Chunk(id=cid, kind="code", path=path, start_line=1, end_line=2, symbol=symbol or f"pkg.m.{cid}",
                 text=text, mtime=0.0, sha256="0" * 64, language="python", signature=None, parent=None,
                 file_sha256="0" * 64)


_CHUNKS = [
    _chunk("a", "def fetchUserName(request_id):\n    return HTTPClient().get(request_id)", symbol="pkg.m.fetchUserName"),
    _chunk("b", "class Cache:\n    def get_or_create(self, key):\n        return key", symbol="pkg.m.Cache"),
    _chunk("c", "def remove_body(scene, body):\n    scene.bodies.remove(body)", path="pkg/world.py",
           symbol="pkg.world.remove_body"),
]
_QUERIES = ["fetch user name", "HTTPClient", "get_or_create", "remove body", "scene.bodies", "cache key", "pkg world"]


def _answers(lex: TantivyLexical) -> list[list[tuple[str, float]]]:
    return [lex.search(q, 5) for q in _QUERIES] + [lex.search("remo", 5, prefix_last=True)]


def test_tantivy_given_the_workers_analysis_indexes_what_it_would_analyze_itself(tmp_path: Path) -> None:
    plain, handed = TantivyLexical.create(tmp_path / "plain"), TantivyLexical.create(tmp_path / "handed")
    try:
        assert isinstance(handed, PreAnalyzed)  # Whoosh's handoff: tests/test_coldidx_whoosh.py
        plain.add(_CHUNKS)
        plain.commit()
        handed.add_analyzed(_CHUNKS, handed.analysis()(_CHUNKS))
        handed.commit()
        assert _answers(handed) == _answers(plain)
        assert all(_answers(plain)[:5])  # the queries do find things
    finally:
        plain.close()
        handed.close()


def test_tantivy_re_added_chunk_is_analyzed_anew_not_from_an_older_handoff(tmp_path: Path) -> None:
    lex = TantivyLexical.create(tmp_path / "lex")
    try:
        old = _chunk("a", "def alpha(): return zebra")
        lex.add_analyzed([old], document_terms([old]))
        lex.add([_chunk("a", "def alpha(): return walrus")])  # the same id, new text, no analysis given
        lex.commit()
        assert [cid for cid, _s in lex.search("walrus", 5)] == ["a"]
        assert lex.search("zebra", 5) == []
        # and a deleted chunk's analysis is not kept for a later add of the same id
        gone = _chunk("b", "def beta(): return yak")
        lex.add_analyzed([gone], document_terms([gone]))
        lex.delete(["b"])
        lex.add([_chunk("b", "def beta(): return ibex")])
        lex.commit()
        assert lex.search("yak", 5) == [] and [cid for cid, _s in lex.search("ibex", 5)] == ["b"]
    finally:
        lex.close()


def test_tantivy_refuses_an_analysis_of_other_chunks(tmp_path: Path) -> None:
    lex = TantivyLexical.create(tmp_path / "lex")
    try:
        with pytest.raises(ValueError, match="2 analyzed documents for 3 chunks"):
            lex.add_analyzed(_CHUNKS, document_terms(_CHUNKS[:2]))
    finally:
        lex.close()


def _files(n: int) -> list[SourceFile]:
    return [SourceFile(path=f"pkg/m{i}.py", kind="code", language="python", mtime=0.0, size=0, sha256=f"{i:064x}",
                       text=f"import os\n\n\ndef f{i}(x):\n    return os.path.join(x, '{i}')\n\n\n"
                            f"class C{i}:\n    def m(self):\n        return f{i}(self)\n")
            for i in range(n)]


def test_a_fragment_line_decodes_to_the_fragment_it_was_made_from() -> None:
    for src in _files(3):
        fragment = extract_fragment(src, chunk_file(src))
        made = refresh_module.fragment_line(fragment)
        lines = FragmentLines()
        lines.put_line(made.path, made.line)
        assert made.path == src.path and lines[src.path] == fragment
        plain = FragmentLines()
        plain[src.path] = fragment  # what a build stored before the worker encoded it
        assert plain.line(src.path) == made.line


@pytest.mark.skipif(threading.active_count() > 1, reason="fork copies one thread: chunking stays in-process")
def test_workers_hand_over_the_analysis_this_process_would_make(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(9)
    encoder = HashingEncoder()
    inline = list(refresh_module.chunk_files(files, encoder, analysis=document_terms))
    assert all(computed.lexical is None for _c, _f, _w, computed in inline)  # in-process: the backend does it
    monkeypatch.setattr(refresh_module, "POOL_MIN_FILES", 0)
    monkeypatch.setattr(refresh_module, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(refresh_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(refresh_module, "FILES_PER_TASK", 2)
    pooled = list(refresh_module.chunk_files(files, encoder, analysis=document_terms))
    assert [(c, f) for c, f, _w, _x in pooled] == [(c, f) for c, f, _w, _x in inline]
    for chunks, _f, _w, computed in pooled:
        assert computed.lexical == document_terms(chunks)
