"""Both lexical backends (Whoosh, tantivy) on a real on-disk index built from hand-made chunks."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index import lexical
from caas_tui.index.lexical import WhooshLexical
from caas_tui.index.lexical_select import LEXICAL_BACKENDS, create_lexical
from caas_tui.index.lexical_tantivy import TantivyLexical
from caas_tui.index.protocols import LexicalBackend
from caas_tui.models import Chunk


def chunk(cid: str, kind: str, path: str, symbol: str | None, text: str, **extra: str) -> Chunk:
    return Chunk(
        id=cid, kind=kind, path=path, start_line=1, end_line=text.count("\n") + 1,
        symbol=symbol, text=text, mtime=0.0, sha256="0" * 64, **extra,
    )


CHUNKS = [
    chunk("remove", "code", "src/xrkit/scene.py", "xrkit.scene.Scene.remove_body",
          "def remove_body(self, body):\n    self._bodies.remove(body)\n    body.scene = None",
          signature="def remove_body(self, body)", parent="xrkit.scene.Scene"),
    chunk("clear", "code", "src/xrkit/scene.py", "xrkit.scene.Scene.clear",
          "def clear(self):\n    for body in list(self._bodies):\n        self.remove_body(body)",
          signature="def clear(self)", parent="xrkit.scene.Scene"),
    chunk("remove_all", "code", "src/xrkit/world.py", "xrkit.world.World.remove_all_bodies",
          "def remove_all_bodies(self):\n    self.bodies = []",
          signature="def remove_all_bodies(self)", parent="xrkit.world.World"),
    chunk("test", "test", "tests/test_scene.py", "tests.test_scene.test_remove_body",
          "def test_remove_body(scene):\n    scene.remove_body(b)\n    assert b not in scene"),
    chunk("guide", "doc", "docs/guide.md", "Guide > Bodies",
          "To remove a body from the scene, call `Scene.remove_body`. "
          "Bodies can be removed at any time, even while the world is stepping."),
    chunk("server", "code", "src/xrkit/net.py", "xrkit.net.HTTPServer",
          "class HTTPServer:\n    port: int = 8080", signature="class HTTPServer"),
]


@pytest.fixture(params=LEXICAL_BACKENDS)
def lx(tmp_path: Path, request: pytest.FixtureRequest) -> WhooshLexical:
    index = create_lexical(request.param, tmp_path / "lexical")
    index.add(CHUNKS)
    index.commit()
    yield index
    index.close()


@pytest.fixture()
def whoosh_lx(tmp_path: Path) -> WhooshLexical:
    """For tests of Whoosh internals (segments, its write lock)."""
    index = WhooshLexical.create(tmp_path / "lexical")
    index.add(CHUNKS)
    index.commit()
    yield index
    index.close()


def ids(results: list[tuple[str, float]]) -> list[str]:
    return [cid for cid, _ in results]


def test_implements_the_protocol(lx: WhooshLexical) -> None:
    assert isinstance(lx, LexicalBackend)
    assert lx.doc_count() == len(CHUNKS)


@pytest.mark.parametrize(
    "query", ["remove_body", "remove body", "Scene.remove_body", "removes bodies", "removeBody"]
)
def test_exact_identifier_ranks_first(lx: WhooshLexical, query: str) -> None:
    results = lx.search(query, 10)
    assert ids(results)[0] == "remove"
    scores = [score for _, score in results]
    assert scores == sorted(scores, reverse=True)


def test_acronym_identifier_found_by_words(lx: WhooshLexical) -> None:
    assert ids(lx.search("http server", 3))[0] == "server"
    assert ids(lx.search("HTTPServer", 3))[0] == "server"


def test_k_limits_results(lx: WhooshLexical) -> None:
    assert len(lx.search("body", 2)) == 2
    assert lx.search("body", 0) == []


def test_kinds_filter(lx: WhooshLexical) -> None:
    assert ids(lx.search("remove body", 10, kinds=["doc"])) == ["guide"]
    assert set(ids(lx.search("remove body", 10, kinds=["test", "doc"]))) == {"test", "guide"}
    assert lx.search("remove body", 10, kinds=[]) == []
    assert lx.search("remove body", 10, kinds=["upstream"]) == []  # a kind with no chunks
    lx.add([chunk("up", "upstream", "upstream/api.md", "API", "remove_body is documented here")])
    lx.commit()  # the cached kind filter must not outlive the searcher
    assert ids(lx.search("remove body", 10, kinds=["upstream"])) == ["up"]


def test_changes_are_invisible_until_commit(lx: WhooshLexical) -> None:
    lx.add([chunk("new", "code", "src/x.py", "x.teleport", "def teleport(): ...")])
    lx.delete(["guide"])
    assert lx.search("teleport", 5) == []
    assert "guide" in ids(lx.search("stepping", 5))
    lx.commit()
    assert ids(lx.search("teleport", 5)) == ["new"]
    assert lx.search("stepping", 5) == []


def test_update_replaces_without_duplicates(lx: WhooshLexical, tmp_path: Path) -> None:
    lx.add([chunk("guide", "doc", "docs/guide.md", "Guide > Bodies", "Bodies may be frozen.")])
    lx.commit()
    assert lx.doc_count() == len(CHUNKS)
    assert lx.search("stepping", 5) == []
    assert ids(lx.search("frozen", 5)) == ["guide"]
    # Adding the same id twice before one commit keeps only the last version.
    lx.add([chunk("guide", "doc", "docs/guide.md", "Guide", "first draft")])
    lx.add([chunk("guide", "doc", "docs/guide.md", "Guide", "second draft")])
    lx.commit()
    assert lx.doc_count() == len(CHUNKS)
    assert ids(lx.search("draft", 5)) == ["guide"]
    assert lx.search("first", 5) == []


def test_delete_removes_and_reopened_index_agrees(lx: WhooshLexical, tmp_path: Path) -> None:
    lx.delete(["remove", "missing-id"])
    lx.commit()
    assert "remove" not in ids(lx.search("remove_body", 10))
    assert lx.doc_count() == len(CHUNKS) - 1
    lx.close()
    again = type(lx).open(tmp_path / "lexical")
    try:
        assert again.doc_count() == len(CHUNKS) - 1
        assert "remove" not in ids(again.search("remove_body", 10))
        assert "clear" in ids(again.search("remove_body", 10))
    finally:
        again.close()


def test_dead_documents_are_purged_not_kept_forever(whoosh_lx: WhooshLexical) -> None:
    lx = whoosh_lx
    lx.add(CHUNKS)  # replace everything: the first segment is now all deleted
    lx.commit()
    assert lx._searcher.doc_count_all() == lx.doc_count() == len(CHUNKS)
    lx.delete([c.id for c in CHUNKS])
    lx.commit()
    assert lx._searcher.doc_count_all() == lx.doc_count() == 0
    assert lx.search("remove_body", 5) == []


def test_closed_index_raises_a_clean_error(lx: WhooshLexical) -> None:
    lx.close()
    lx.close()  # idempotent
    with pytest.raises(IndexStoreError, match="closed"):
        lx.search("remove_body", 5)


def test_add_then_delete_before_commit_deletes(lx: WhooshLexical) -> None:
    lx.add([chunk("guide", "doc", "docs/guide.md", "Guide", "replacement text")])
    lx.delete(["guide"])
    lx.commit()
    assert lx.doc_count() == len(CHUNKS) - 1
    assert lx.search("replacement", 5) == [] and lx.search("stepping", 5) == []


@pytest.mark.parametrize(
    "query",
    ["(( AND OR :*", "", "   ", '"unclosed', "title:foo^3 ~2 [a TO b]", "*", "x" * 2000,
     " ".join(["remove body scene"] * 700), "\x00\ufffd émoji 🎉", "OR", "NOT AND"],
)
def test_garbage_queries_never_raise(lx: WhooshLexical, query: str) -> None:
    for prefix_last in (False, True):
        results = lx.search(query, 5, prefix_last=prefix_last)
        assert isinstance(results, list) and len(results) <= 5


def test_prefix_last_completes_the_word_being_typed(lx: WhooshLexical) -> None:
    assert lx.search("remo", 5) == []
    assert "remove" in ids(lx.search("remo", 5, prefix_last=True))
    assert "remove" in ids(lx.search("scene remove_bo", 5, prefix_last=True))
    assert lx.search("re", 5, prefix_last=True) == []  # under 3 letters: no expansion


def test_time_limit_returns_partial_results_instead_of_raising(lx: WhooshLexical) -> None:
    lx.time_limit = 0.0
    assert isinstance(lx.search("remove body scene", 5), list)


@pytest.mark.parametrize("backend", [WhooshLexical, TantivyLexical])
def test_open_missing_or_empty_dir_raises(tmp_path: Path, backend: type[WhooshLexical]) -> None:
    with pytest.raises(IndexStoreError, match="no (tantivy )?lexical index"):
        backend.open(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(IndexStoreError, match="no (tantivy )?lexical index"):
        backend.open(tmp_path / "empty")


def test_open_corrupt_dir_raises(lx: WhooshLexical, tmp_path: Path) -> None:
    lx.close()
    directory = tmp_path / "lexical"
    for path in directory.iterdir():
        path.write_bytes(b"\x80\x04garbage" * 3)
    with pytest.raises(IndexStoreError) as info:
        type(lx).open(directory)
    assert "\n" not in str(info.value)


def test_locked_index_raises_and_failed_commit_releases_lock(
    whoosh_lx: WhooshLexical, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lx = whoosh_lx
    monkeypatch.setattr(lexical, "LOCK_TIMEOUT", 0.1)
    lock = lx._ix.lock("WRITELOCK")
    assert lock.acquire(False)
    try:
        with pytest.raises(IndexStoreError, match="locked"):
            WhooshLexical.open(tmp_path / "lexical")
        lx.add([chunk("x", "code", "a.py", "a.x", "text")])
        with pytest.raises(IndexStoreError, match="locked"):
            lx.commit()
    finally:
        lock.release()

    def broken(c: Chunk) -> dict[str, str]:
        raise RuntimeError("boom")

    monkeypatch.setattr(lexical, "_fields", broken)
    with pytest.raises(RuntimeError):
        lx.commit()
    monkeypatch.undo()
    lx.commit()  # the failed writer was cancelled: not locked, pending kept
    assert ids(lx.search("text", 5)) == ["x"]
