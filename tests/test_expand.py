"""Graph-expanded retrieval: what is added, where, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.config import load_config
from caas_tui.graph import build_graph, extract_fragment
from caas_tui.ingest import chunk_file
from caas_tui.models import Chunk, Hit, SourceFile
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.expand import NodeChunks, expand_hits
from caas_tui.sources import discover, load

from .conftest import write
from .test_graph import FILES


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Chunk], NodeChunks, object]:
    root = tmp_path_factory.mktemp("expandproj")
    for rel, text in FILES.items():
        write(root, rel, text)
    cfg = load_config(root)
    chunks: dict[str, Chunk] = {}
    frags = {}
    for entry in discover(cfg).entries:
        src = load(cfg, entry)
        assert isinstance(src, SourceFile)
        found = chunk_file(src)
        chunks.update((c.id, c) for c in found)
        frags[src.path] = extract_fragment(src, found)
    graph = build_graph(frags)
    return chunks, NodeChunks(graph, chunks.values()), graph


def _chunk(chunks: dict[str, Chunk], symbol: str, kind: str = "code") -> Chunk:
    return next(c for c in chunks.values() if c.symbol == symbol and c.kind == kind)


def _hit(chunk: Chunk, rank: int, score: float) -> Hit:
    return Hit(chunk=chunk, rank=rank, score=score, bm25_rank=rank, dense_rank=rank)


def test_node_chunk_mapping(world) -> None:
    chunks, links, _graph = world
    step = _chunk(chunks, "pkg.scene.Scene.step")
    assert links.nodes_for(step.id) == ["pkg.scene.Scene.step"]
    assert links.chunk_for("pkg.scene.Scene.step") == step.id
    doc = next(c for c in chunks.values() if c.path == "docs/guide.md" and c.symbol == "Guide > Stepping")
    assert links.nodes_for(doc.id) == ["docs/guide.md#Guide > Stepping"]
    api = _chunk(chunks, "pkg.state.StateManager", "api")
    assert links.nodes_for(api.id) == ["pkg/state.py#pkg.state.StateManager"]
    # a constant has no chunk of its own: the code chunk holding its line stands in
    holder = chunks[links.chunk_for("pkg.config.MAX_ITEMS")]
    assert holder.path == "pkg/config.py" and holder.start_line <= 1 <= holder.end_line


def test_neighbours_are_added_after_the_hits_with_a_reason(world) -> None:
    chunks, links, graph = world
    seed = _chunk(chunks, "pkg.scene.Scene.step")
    other = _chunk(chunks, "pkg.sched.run")
    hits = [_hit(seed, 1, 0.03), _hit(other, 2, 0.029)]
    out = expand_hits(hits, 2, graph, links, chunks, extra=10)
    assert [h.chunk.id for h in out[:2]] == [seed.id, other.id]  # the hits keep their places
    added = {h.chunk.symbol: h for h in out[2:]}
    assert "pkg.state.StateManager.flush" in added and "tests.test_scene.test_step" in added
    flush = added["pkg.state.StateManager.flush"]
    assert flush.via == "calls <- pkg.scene.Scene.step"
    assert flush.score < hits[0].score and flush.bm25_rank is None
    assert [h.rank for h in out] == list(range(1, len(out) + 1))
    assert all(h.score <= 0.03 for h in out[2:])
    # two hops: the base method the called ``update`` overrides, through Scene.update
    two = added.get("pkg.base.Base.update")
    assert two is not None and two.via.count(" <- ") == 3 and two.score < added["pkg.scene.Scene.update"].score
    # evidence only: never docs or docstrings
    assert all(h.chunk.kind in ("code", "test", "upstream") for h in out[2:])
    assert len(expand_hits(hits, 2, graph, links, chunks)) == 4  # by default at most k neighbours


def test_filters_containment_and_budget(world) -> None:
    chunks, links, graph = world
    seed = _chunk(chunks, "pkg.scene.Scene.step")
    only_tests = expand_hits([_hit(seed, 1, 0.03)], 5, graph, links, chunks, allow=lambda c: c.kind == "test")
    assert {h.chunk.kind for h in only_tests[1:]} == {"test"}
    # a docstring hit brings the code it documents (not contained in it), once
    api = _chunk(chunks, "pkg.state.StateManager", "api")
    out = expand_hits([_hit(api, 1, 0.03)], 5, graph, links, chunks, extra=1)
    assert len(out) == 2 and out[1].chunk.symbol == "pkg.state.StateManager" and out[1].chunk.kind == "code"
    assert out[1].via == "documents <- pkg.state.StateManager (docstring)"
    # a neighbour whose lines a listed hit already shows is not added
    klass = _chunk(chunks, "pkg.state.StateManager")
    out = expand_hits([_hit(klass, 1, 0.03), _hit(api, 2, 0.02)], 2, graph, links, chunks)
    assert [h.chunk.id for h in out].count(klass.id) == 1
    assert expand_hits([], 5, graph, links, chunks) == []


def test_engine_search_expand(tiny_project: Path) -> None:
    engine = Engine.open(tiny_project)
    try:
        plain = engine.search("remove_body", 3)
        expanded = engine.search("remove_body", 3, expand=True)
        assert [h.chunk.id for h in expanded[:3]] == [h.chunk.id for h in plain]
        added = {h.chunk.symbol: h for h in expanded[3:]}
        assert "pkg.sched.Scheduler.defer" in added
        assert added["pkg.sched.Scheduler.defer"].via.startswith("calls <- pkg.world.World.remove_body")
        assert all(h.via for h in expanded[3:])
        docs_only = engine.search("remove_body", 3, kinds=["doc"], expand=True)
        assert {h.chunk.kind for h in docs_only} == {"doc"}
        globbed = engine.search("remove_body", 3, path_glob="pkg/*", expand=True)
        assert all(h.chunk.path.startswith("pkg/") for h in globbed)
        chain = engine.related("World.remove_body", 1)
        assert chain.root == "pkg.world.World.remove_body" and chain.hops
        assert engine.graph is engine.store.graph
    finally:
        engine.close()
