"""The index on disk: build, search, incremental refresh, recovery."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from caas_tui.errors import ProjectError
from caas_tui.index.manifest import read_manifest, write_manifest
from caas_tui.retrieve.engine import Engine

from .conftest import write


def _symbols(hits) -> list[str | None]:
    return [h.chunk.symbol for h in hits]


def test_build_and_search_round_trip(tiny_project: Path) -> None:
    engine = Engine.open(tiny_project)
    try:
        hits = engine.search("remove_body", 5)
        assert hits[0].chunk.symbol == "pkg.world.World.remove_body"
        assert hits[0].chunk.path == "pkg/world.py"
        assert hits[0].via == "exact symbol"
        words = engine.search("remove body", 5)
        assert "pkg.world.World.remove_body" in _symbols(words)
        kinds = {h.chunk.kind for h in engine.search("removal end of frame", 10, kinds=["upstream"])}
        assert kinds == {"upstream"}
        for mode in ("bm25", "dense", "hybrid"):
            assert engine.search("deferred removal scheduler", 5, mode=mode), mode
        bm25_only = engine.search("scheduler", 5, mode="bm25")
        assert all(h.dense_rank is None and h.bm25_rank is not None for h in bm25_only)
        globbed = engine.search("body", 10, path_glob="docs/*")
        assert globbed and all(h.chunk.path.startswith("docs/") for h in globbed)
    finally:
        engine.close()
    # A second open uses the index as it is: nothing to redo.
    again = Engine.open(tiny_project)
    try:
        stats = again.store.last_stats
        assert stats is not None and not stats.changed_any and not stats.rebuilt
        assert again.search("remove_body", 1)[0].chunk.symbol == "pkg.world.World.remove_body"
    finally:
        again.close()


def test_refresh_after_edit_delete_rename(tiny_project: Path) -> None:
    engine = Engine.open(tiny_project)
    try:
        write(tiny_project, "pkg/sched.py", '"""Deferred work."""\n\n\ndef flush_queue() -> None:\n    pass\n')
        (tiny_project / "tests" / "test_world.py").unlink()
        (tiny_project / "docs" / "guide.md").rename(tiny_project / "docs" / "manual.md")
        stats = engine.refresh()
        assert stats.changed == ["pkg/sched.py"]
        assert stats.added == ["docs/manual.md"]
        assert sorted(stats.removed) == ["docs/guide.md", "tests/test_world.py"]
        assert engine.find_symbol("flush_queue")[0].path == "pkg/sched.py"
        assert engine.find_symbol("Scheduler.defer") == []
        paths = {c.path for c in engine.chunks()}
        assert "tests/test_world.py" not in paths and "docs/guide.md" not in paths
        assert any(h.chunk.path == "docs/manual.md" for h in engine.search("Bodies guide", 5))
        assert not engine.refresh().changed_any
    finally:
        engine.close()
    manifest = read_manifest(tiny_project / ".caas" / "index")
    assert manifest is not None and manifest.state == "clean"
    assert "docs/manual.md" in manifest.files and "docs/guide.md" not in manifest.files


def test_interrupted_build_is_rebuilt_not_used(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Engine.open(tiny_project).close()
    index_dir = tiny_project / ".caas" / "index"
    manifest = read_manifest(index_dir)
    assert manifest is not None
    manifest.state = "dirty"
    write_manifest(index_dir, manifest)
    messages: list[str] = []
    engine = Engine.open(tiny_project, notify=messages.append)
    try:
        assert engine.store.last_stats is not None and engine.store.last_stats.rebuilt
        assert any("interrupted" in m for m in messages)
        assert engine.search("remove_body", 1)
    finally:
        engine.close()


@pytest.mark.parametrize("damage", ["manifest", "lexical", "chunks", "vectors", "model"])
def test_corrupt_or_foreign_index_is_rebuilt(tiny_project: Path, damage: str) -> None:
    Engine.open(tiny_project).close()
    index_dir = tiny_project / ".caas" / "index"
    if damage == "manifest":
        (index_dir / "manifest.json").write_text("{not json")
    elif damage == "lexical":
        shutil.rmtree(index_dir / "lexical")
    elif damage == "chunks":
        (index_dir / "chunks.sqlite").write_bytes(b"garbage" * 100)
        for extra in index_dir.glob("chunks.sqlite-*"):
            extra.unlink()
    elif damage == "vectors":
        shutil.rmtree(index_dir / "vectors")
    else:
        data = json.loads((index_dir / "manifest.json").read_text())
        data["model_id"] = "some-other-model"
        (index_dir / "manifest.json").write_text(json.dumps(data))
    messages: list[str] = []
    engine = Engine.open(tiny_project, notify=messages.append)
    try:
        assert messages, "a rebuild must be announced"
        assert engine.search("remove_body", 1)[0].chunk.symbol == "pkg.world.World.remove_body"
    finally:
        engine.close()


def test_bad_roots(tmp_path: Path) -> None:
    with pytest.raises(ProjectError):
        Engine.open(tmp_path / "missing")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(ProjectError):
        Engine.open(tmp_path / "file.txt")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ProjectError):
        Engine.open(empty)


def test_read_span_refuses_outside_root(tiny_project: Path) -> None:
    from caas_tui.errors import PathOutsideRoot

    engine = Engine.open(tiny_project)
    try:
        assert engine.read_span("pkg/sched.py", 1, 1) == '"""Deferred work."""'
        with pytest.raises(PathOutsideRoot):
            engine.read_span("../outside.txt", 1, 2)
    finally:
        engine.close()


def test_foreign_index_dir_is_never_deleted(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.errors import IndexStoreError

    precious = tmp_path / "precious"
    (precious / "index").mkdir(parents=True)
    (precious / "index" / "thesis.tex").write_text("years of work")
    with pytest.raises(IndexStoreError, match="not a caas-tui index"):
        Engine.open(tiny_project, index_dir=precious)
    assert (precious / "index" / "thesis.tex").read_text() == "years of work"


def test_config_may_not_point_the_index_outside_the_project(tiny_project: Path) -> None:
    from caas_tui.errors import ConfigError

    (tiny_project / "caas.toml").write_text('[index]\ndir = "../elsewhere"\n')
    with pytest.raises(ConfigError, match="inside the project"):
        Engine.open(tiny_project)
    (tiny_project / "caas.toml").write_text('[index]\ndir = "build/caas"\n')
    engine = Engine.open(tiny_project)
    try:
        assert (tiny_project / "build" / "caas" / "index" / "manifest.json").exists()
    finally:
        engine.close()


def test_two_processes_sharing_an_index_stay_consistent(tiny_project: Path) -> None:
    """Another writer (the app's watcher, `caas-tui watch`) updates the index under us."""
    first = Engine.open(tiny_project)
    second = Engine.open(tiny_project)
    try:
        write(tiny_project, "pkg/extra.py", "def brand_new_helper() -> int:\n    return 1\n")
        assert second.refresh().added == ["pkg/extra.py"]
        write(tiny_project, "pkg/more.py", "def another_helper() -> int:\n    return 2\n")
        stats = first.refresh()
        assert stats.reloaded and stats.added == ["pkg/more.py"]
        assert first.find_symbol("brand_new_helper") and first.find_symbol("another_helper")
        manifest = read_manifest(tiny_project / ".caas" / "index")
        assert manifest is not None and {"pkg/extra.py", "pkg/more.py"} <= set(manifest.files)
        total = sum(len(r.chunks) for r in manifest.files.values())
        assert len(first.chunks()) == total
    finally:
        first.close()
        second.close()
    reopened = Engine.open(tiny_project)
    try:
        assert not reopened.store.last_stats.rebuilt
        assert reopened.search("another_helper", 1)[0].chunk.path == "pkg/more.py"
    finally:
        reopened.close()


def test_find_symbol_is_not_hidden_by_a_doc_heading(tiny_project: Path) -> None:
    write(tiny_project, "docs/store.md", "# Scheduler\n\nAbout the scheduler.\n")
    engine = Engine.open(tiny_project)
    try:
        found = engine.find_symbol("Scheduler", kinds=("code",))
        assert [c.symbol for c in found] == ["pkg.sched.Scheduler"]
    finally:
        engine.close()


def test_incremental_symbol_table_matches_a_fresh_one(tiny_project: Path) -> None:
    from caas_tui.retrieve.symbols import SymbolTable

    engine = Engine.open(tiny_project)
    try:
        write(tiny_project, "pkg/sched.py", "class Scheduler:\n    def flush(self) -> None:\n        pass\n")
        write(tiny_project, "pkg/new.py", "def defer(item: str) -> None:\n    pass\n")
        (tiny_project / "tests" / "test_world.py").unlink()
        engine.refresh()
        fresh = SymbolTable(engine.chunks())
        for name in ("Scheduler", "Scheduler.defer", "Scheduler.flush", "defer", "flush", "World.remove_body",
                     "test_remove_is_deferred", "pkg.new.defer"):
            for kinds in (("code", "test", "upstream"), ("code", "test", "upstream", "api", "doc")):
                got = [c.id for c in engine.find_symbol(name, kinds=kinds)]
                assert got == [c.id for c in fresh.find(name, kinds)], (name, kinds)
        assert [c.path for c in engine.find_symbol("defer")] == ["pkg/new.py"]
        assert engine.find_symbol("test_remove_is_deferred") == []
    finally:
        engine.close()
