"""The graph lives with the index: persisted, refreshed per file, never used half-written."""

from __future__ import annotations

import json
import os
from pathlib import Path

from caas_tui.config import load_config
from caas_tui.graph import GRAPH_FILE, SymbolGraph, load_fragments
from caas_tui.index.manifest import read_manifest, write_manifest
from caas_tui.index.store import IndexStore

from .conftest import write


def _edge(graph: SymbolGraph, src: str, kind: str, dst: str) -> bool:
    return any(e.kind == kind and e.dst == dst for e in graph.out_edges(src))


def _touch_later(path: Path) -> None:
    # Filesystems with coarse mtimes: make sure the edit is seen as one.
    st = path.stat()
    os.utime(path, (st.st_atime, st.st_mtime + 5))


def test_edit_one_file_changes_its_edges_only(tiny_project: Path) -> None:
    cfg = load_config(tiny_project)
    store = IndexStore.open(cfg)
    try:
        graph = store.graph
        assert _edge(graph, "pkg.world.World.remove_body", "calls", "pkg.sched.Scheduler.defer")
        assert _edge(graph, "tests.test_world.test_remove_is_deferred", "tests", "pkg.world.World.remove_body")
        before = dict(store.fragments)

        write(tiny_project, "pkg/world.py", '''
            """The world holds bodies."""

            from pkg.sched import Scheduler, drop


            class World:
                """A simulation world."""

                def __init__(self) -> None:
                    self.bodies: list[str] = []
                    self.scheduler = Scheduler()

                def add_body(self, name: str, mass: float = 1.0) -> str:
                    """Add a body and return its name."""
                    self.bodies.append(name)
                    return name

                def remove_body(self, name: str) -> None:
                    """Remove a body at once."""
                    drop(self.bodies, name)
            ''')
        write(tiny_project, "pkg/sched.py", '''
            """Deferred work."""


            class Scheduler:
                def __init__(self) -> None:
                    self.pending: list[str] = []

                def defer(self, item: str) -> None:
                    """Run ``item`` when the frame ends."""
                    self.pending.append(item)


            def drop(items: list[str], item: str) -> None:
                items.remove(item)
            ''')
        _touch_later(tiny_project / "pkg" / "world.py")
        _touch_later(tiny_project / "pkg" / "sched.py")
        stats = store.refresh()
        assert sorted(stats.changed) == ["pkg/sched.py", "pkg/world.py"]
        graph = store.graph
        assert not _edge(graph, "pkg.world.World.remove_body", "calls", "pkg.sched.Scheduler.defer")
        assert _edge(graph, "pkg.world.World.remove_body", "calls", "pkg.sched.drop")
        # cross-file resolution was redone: the unchanged test still points at the method
        assert _edge(graph, "tests.test_world.test_remove_is_deferred", "tests", "pkg.world.World.remove_body")
        # unchanged files were not re-read: their fragments are the very same objects
        for path in ("tests/test_world.py", "docs/guide.md", "pkg/__init__.py", "upstream/engine.md"):
            assert store.fragments[path] is before[path]
        assert store.fragments["pkg/world.py"] is not before["pkg/world.py"]
        # what is on disk is what is in memory
        assert load_fragments(store.directory) == store.fragments

        (tiny_project / "pkg" / "sched.py").unlink()
        store.refresh()
        assert "pkg/sched.py" not in store.fragments
        assert "pkg.sched.drop" not in store.graph.nodes
        assert not store.graph.out_edges("pkg.world.World.remove_body") or not any(
            e.dst.startswith("pkg.sched") for e in store.graph.out_edges("pkg.world.World.remove_body")
        )
    finally:
        store.close()


def test_reopen_uses_the_stored_graph_and_rebuilds_a_bad_one(tiny_project: Path) -> None:
    cfg = load_config(tiny_project)
    store = IndexStore.open(cfg)
    edges = store.graph.edges
    store.close()
    again = IndexStore.open(cfg)
    try:
        assert again.last_stats is not None and not again.last_stats.rebuilt
        assert again.graph.edges == edges
    finally:
        again.close()
    graph_file = cfg.caas_dir / "index" / GRAPH_FILE
    # a graph of another schema (or missing, or corrupt) is never used: the index is rebuilt
    good = graph_file.read_text()
    graph_file.write_text(json.dumps({"schema": -1, "files": 0}) + "\n")
    rebuilt = IndexStore.open(cfg)
    try:
        assert rebuilt.last_stats is not None and rebuilt.last_stats.rebuilt
        assert rebuilt.graph.edges == edges
    finally:
        rebuilt.close()
    # a graph that disagrees with the manifest (a file it does not know), or that lost
    # its last lines, is rebuilt too
    header, *lines = good.rstrip("\n").split("\n")
    for text in (
        "\n".join([json.dumps({"schema": json.loads(header)["schema"], "files": len(lines) - 1}), *lines[1:]]) + "\n",
        "\n".join([header, *lines[:-1]]) + "\n",
    ):
        graph_file.write_text(text)
        fixed = IndexStore.open(cfg)
        try:
            assert fixed.last_stats is not None and fixed.last_stats.rebuilt and fixed.graph.edges == edges
        finally:
            fixed.close()


def test_interrupted_write_is_detected(tiny_project: Path) -> None:
    cfg = load_config(tiny_project)
    store = IndexStore.open(cfg)
    edges = store.graph.edges
    store.close()
    # a crash between graph.jsonl and the manifest leaves the manifest dirty: rebuilt, not trusted
    directory = cfg.caas_dir / "index"
    manifest = read_manifest(directory)
    assert manifest is not None
    manifest.state = "dirty"
    write_manifest(directory, manifest)
    (directory / GRAPH_FILE).write_text('{"schema": 1, "fragm')
    again = IndexStore.open(cfg)
    try:
        assert again.last_stats is not None and again.last_stats.rebuilt and again.graph.edges == edges
    finally:
        again.close()
