"""The cold build's shortcuts give exactly what the plain code gives: token streams, AST
walks, the collector pause and the pooled chunking's bounded look-ahead."""

from __future__ import annotations

import ast
import gc
import sysconfig
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.graph.pyexpr import child_nodes, walk_statements
from caas_tui.index import refresh as refresh_module
from caas_tui.index.analysis import CodeAnalyzer, code_analyzer
from caas_tui.index.encoders.hashing import HashingEncoder
from caas_tui.index.lexical import WhooshLexical
from caas_tui.index.lexical_tantivy import TantivyLexical
from caas_tui.ingest.gcpause import collector_paused
from caas_tui.models import Chunk, SourceFile


def _stdlib_sample(n: int = 40) -> list[tuple[str, str]]:
    """Every k-th module of the installed standard library (path, text), deterministically."""
    root = Path(sysconfig.get_paths()["stdlib"])
    paths = sorted(p for p in root.glob("*.py") if p.is_file())
    step = max(1, len(paths) // n)
    return [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in paths[::step][:n]]


@pytest.fixture(scope="module")
def sample() -> list[tuple[str, str]]:
    found = _stdlib_sample()
    assert len(found) >= 20
    return found


@pytest.mark.parametrize("make", [code_analyzer, lambda: CodeAnalyzer(dotted=0)], ids=["names", "bodies"])
def test_terms_text_and_term_counts_are_the_token_stream(sample: list[tuple[str, str]],
                                                         make: Callable[[], CodeAnalyzer]) -> None:
    analyzer = make()
    for _name, text in sample:
        stream = [t.text for t in make()(text)]  # a fresh analyzer: no cache shared with the fast paths
        assert analyzer.terms_text(text).split() == stream
        counts = analyzer.term_counts(text)
        assert counts == Counter(stream)
        assert list(counts) == list(dict.fromkeys(stream))  # first-seen order, as before
    assert analyzer.terms_text("") == "" and analyzer.terms_text("a the of") == ""


def test_term_caches_stay_out_of_the_pickled_analyzer() -> None:
    import pickle

    analyzer = code_analyzer()
    analyzer.terms_text("remove_body HTTPServer")
    assert analyzer._joined
    clone = pickle.loads(pickle.dumps(analyzer))
    assert clone._joined == {} and clone == analyzer
    assert clone.terms_text("remove_body HTTPServer") == analyzer.terms_text("remove_body HTTPServer")


def test_child_nodes_and_walk_statements_keep_ast_order(sample: list[tuple[str, str]]) -> None:
    leaves = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
    blocks = (ast.stmt, ast.excepthandler, ast.match_case)
    seen_leaf = False
    for _name, text in sample:
        tree = ast.parse(text)
        for node in ast.walk(tree):
            full = list(ast.iter_child_nodes(node))
            seen_leaf = seen_leaf or any(isinstance(c, leaves) for c in full)
            assert child_nodes(node) == [c for c in full if not isinstance(c, leaves)]
        for node in (tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))):
            expected = [n for n in ast.walk(node) if n is node or isinstance(n, blocks)]
            assert list(walk_statements(node)) == expected
    assert seen_leaf  # the filter was exercised


def test_collector_paused_restores_the_previous_state() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause does not end the outer one
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


@pytest.mark.skipif(threading.active_count() > 1, reason="fork copies one thread: chunking stays in-process")
def test_pooled_chunking_with_a_short_lookahead_keeps_file_order(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [SourceFile(path=f"pkg/m{i}.py", kind="code", language="python", mtime=0.0, size=0, sha256=f"{i:064x}",
                        text=f"def f{i}(x):\n    return x + {i}\n\n\nclass C{i}:\n    def m(self):\n        return {i}\n")
             for i in range(23)]
    encoder = HashingEncoder()
    inline = [(c, f) for c, f, _w, _v in refresh_module.chunk_files(files, encoder)]
    monkeypatch.setattr(refresh_module, "POOL_MIN_FILES", 0)
    monkeypatch.setattr(refresh_module, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(refresh_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(refresh_module, "FILES_PER_TASK", 2)
    monkeypatch.setattr(refresh_module, "LOOKAHEAD_TASKS", 2)
    pooled = [(c, f) for c, f, _w, _v in refresh_module.chunk_files(files, encoder)]
    assert pooled == inline
    assert [f.path for _c, f in pooled] == [s.path for s in files]


def _chunk(cid: str, text: str, path: str = "pkg/m.py") -> Chunk:
    return Chunk(id=cid, kind="code", path=path, start_line=1, end_line=2, symbol=f"pkg.m.{cid}", text=text,
                 mtime=0.0, sha256="0" * 64, language="python", signature=None, parent=None, file_sha256="0" * 64)


def test_tantivy_forgets_fed_chunks_and_still_replaces_and_deletes_in_the_writer(tmp_path: Path) -> None:
    lex = TantivyLexical.create(tmp_path / "lex")
    try:
        lex.add([_chunk("a", "def alpha(): return zebra"), _chunk("b", "def beta(): return yak")])
        lex.prepare()
        assert lex._pending == {}  # fed chunks are not held until the commit
        lex.add([_chunk("a", "def alpha(): return walrus")])  # re-added while its first version is fed
        lex.prepare()
        lex.delete(["b"])  # deleted while fed, not committed
        lex.add([_chunk("c", "def gamma(): return yak")])
        lex.commit()
        assert lex.doc_count() == 2
        assert [cid for cid, _s in lex.search("walrus", 5)] == ["a"]
        assert lex.search("zebra", 5) == []
        assert [cid for cid, _s in lex.search("yak", 5)] == ["c"]
        lex.add([_chunk("c", "def gamma(): return ibex")])  # a committed document replaced
        lex.commit()
        assert lex.doc_count() == 2 and lex.search("yak", 5) == []
    finally:
        lex.close()


def test_tantivy_writer_dropped_after_feeding_says_so_instead_of_losing_documents(tmp_path: Path) -> None:
    lex = TantivyLexical.create(tmp_path / "lex")
    try:
        lex.add([_chunk("a", "def alpha(): return zebra")])
        lex.prepare()
        assert lex._writer is not None
        lex._cancel(lex._writer)  # what a failed feed or commit does
        lex.add([_chunk("b", "def beta(): return yak")])
        with pytest.raises(IndexStoreError, match="rebuild"):
            lex.commit()
        lex.add([_chunk("c", "def gamma(): return ibex")])
        lex.commit()  # usable again; the caller's dirty manifest rebuilds what was lost
        assert lex.doc_count() == 1
    finally:
        lex.close()


def test_whoosh_keeps_fed_chunks_for_its_redo(tmp_path: Path) -> None:
    lex = WhooshLexical.create(tmp_path / "lex")
    try:
        lex.add([_chunk("a", "def alpha(): return zebra")])
        lex.prepare()
        assert set(lex._pending) == {"a"}
        lex.add([_chunk("a", "def alpha(): return walrus")])
        lex.commit()
        assert lex.doc_count() == 1 and lex.search("zebra", 5) == []
    finally:
        lex.close()
