"""``retrieve.related``: a symbol's neighbours from the graph, else by name search, and the
edge vocabulary (``graph.edges``) every front end reads them with."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from caas_tui.graph.edges import EDGE_KINDS, EDGES, REVERSE_NAMES, WALK_NAMES, edge_named, relation, relation_label
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.related import UnknownSymbol, related, uses
from caas_tui.tui.chain_port import build_chains

from .conftest import write


def test_every_edge_kind_has_one_row_and_reads_both_ways() -> None:
    assert len({e.kind for e in EDGES}) == len(EDGES) == len(EDGE_KINDS)
    for e in EDGES:
        assert edge_named(e.kind) is e and edge_named(e.walked_back) is e
        assert relation(e.kind, True) == e.kind and relation(e.walked_back, False) == e.inverse
        assert relation_label(e.walked_back, False) == e.inverse_label
    assert REVERSE_NAMES == {"calls": "called_by", "uses": "used_by"}
    assert WALK_NAMES[: len(EDGE_KINDS)] == EDGE_KINDS and set(WALK_NAMES) == {*EDGE_KINDS, "called_by", "used_by"}
    assert relation("tests", False) == "tested_by" and relation_label("tests", False) == "tested by"
    assert relation("no_such_edge", False) == "no_such_edge"


def test_uses_reads_calls_and_bases_of_a_header_only_class() -> None:
    assert uses("class A(Base, mod.Mixin):") == [("inherits", "Base"), ("inherits", "Mixin")]
    assert uses("def f():\n    g(1)\n    self.h()\n    g(2)\n") == [("calls", "g"), ("calls", "h")]
    assert uses("def broken(:\n") == []


@pytest.fixture()
def engine(tiny_project: Path) -> Iterator[Engine]:
    write(tiny_project, "upstream/physx.py", '''
        class Actor:
            def release(self) -> None:
                self.detach()

            def detach(self) -> None:
                pass
        ''')
    write(tiny_project, "pkg/bridge.py", "def drop(actor) -> None:\n    actor.release()\n")
    eng = Engine.open(tiny_project)
    yield eng
    eng.close()


def test_graph_entries_are_marked_graph(engine: Engine) -> None:
    found = related(engine, "remove_body", 1)
    assert found.source == "graph" and found.symbol == "pkg.world.World.remove_body"
    assert found.entries and {e.source for e in found.entries} == {"graph"}
    rel = {(e.relation, e.symbol) for e in found.entries}
    assert ("calls", "pkg.sched.Scheduler.defer") in rel
    assert ("tested_by", "tests.test_world.test_remove_is_deferred") in rel
    assert found.children(found.symbol) == list(found.entries)  # depth 1: all hang off the root


def test_outside_the_graph_entries_come_from_search(engine: Engine) -> None:
    found = related(engine, "Actor.release", 2)
    assert found.source == "search" and found.symbol == "upstream.physx.Actor.release"
    assert {e.source for e in found.entries} == {"search"} and all(e.depth == 1 for e in found.entries)
    rel = {(e.relation, e.symbol) for e in found.entries}
    assert {("called_by", "pkg.bridge.drop"), ("calls", "upstream.physx.Actor.detach")} <= rel
    with pytest.raises(UnknownSymbol):
        related(engine, "no_such_thing_anywhere", 1)


def test_the_chain_view_renders_the_search_fallback(engine: Engine) -> None:
    (root,) = build_chains(engine, ["Actor.release"])
    assert root.path is None  # not in the graph: the screen says the hops came from search
    groups = {g.label: [c.symbol for c in g.children] for g in root.children}
    assert groups["definition (1)"] == ["upstream.physx.Actor.release"]
    assert "pkg.bridge.drop" in groups["called by (1)"]
    assert groups["calls (1)"] == ["upstream.physx.Actor.detach"]
