"""Dependency chains: the pure ``chain()`` and the ``caas-tui chain`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.graph import Edge, Node, SymbolGraph, build_graph
from caas_tui.retrieve.chain import chain

from .conftest import write
from .test_graph import FILES, fragments_of

HOP_KEYS = {"from", "to", "edge", "path", "start_line", "end_line", "depth"}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    root = tmp_path_factory.mktemp("chainproj")
    for rel, text in FILES.items():
        write(root, rel, text)
    return build_graph(fragments_of(root))


def _node(name: str, line: int) -> Node:
    return Node(name, "function", "m.py", line, line + 1, name, "code")


def test_one_hop_neighbourhood_both_directions(graph: SymbolGraph) -> None:
    result = chain(graph, "Scene.step", 1)
    assert result.root == "pkg.scene.Scene.step" and result.root_node is not None
    got = {(h.edge, h.to) for h in result.hops}
    assert ("calls", "pkg.scene.Scene.update") in got
    assert ("calls", "pkg.state.StateManager.flush") in got
    assert ("tests", "tests.test_scene.test_step") in got  # walked backwards: the test tests the root
    assert ("documents", "docs/guide.md#Guide > Stepping") in got
    assert all(h.depth == 1 and h.from_ == result.root for h in result.hops)
    flush = next(h for h in result.hops if h.to == "pkg.state.StateManager.flush")
    assert flush.path == "pkg/state.py" and flush.start_line <= flush.end_line and flush.outgoing


def test_called_by_and_depth_two(graph: SymbolGraph) -> None:
    result = chain(graph, "pkg.state.StateManager.flush", 2)
    first = {(h.edge, h.to) for h in result.hops if h.depth == 1}
    assert ("called_by", "pkg.scene.Scene.step") in first
    assert ("called_by", "pkg.app.App.go") in first
    second = [h for h in result.hops if h.depth == 2]
    assert any(h.from_ == "pkg.scene.Scene.step" and h.to == "pkg.scene.Scene.update" for h in second)
    # a tree: every hop hangs off the root or an earlier hop, and every node appears once
    placed = {result.root}
    for hop in result.hops:
        assert hop.from_ in placed and hop.to not in placed
        placed.add(hop.to)
    # doc sections are leaves: nothing is reached through them
    assert not [h for h in result.hops if h.from_.startswith("docs/")]


def test_cycles_end_and_hops_are_capped() -> None:
    nodes = [_node("m.a", 1), _node("m.b", 5), _node("m.c", 9)]
    edges = [Edge("m.a", "m.b", "calls", 1.0, "m.py", 2), Edge("m.b", "m.a", "calls", 1.0, "m.py", 6),
             Edge("m.b", "m.c", "calls", 0.5, "m.py", 6), Edge("m.c", "m.a", "calls", 1.0, "m.py", 10)]
    g = SymbolGraph(nodes, edges)
    result = chain(g, "m.a", 10)
    assert sorted(h.to for h in result.hops) == ["m.b", "m.c"] and not result.truncated
    capped = chain(g, "m.a", 10, max_hops=1)
    assert len(capped.hops) == 1 and capped.truncated
    only_out = chain(g, "m.a", 3, edges={"calls"})
    assert [(h.from_, h.to) for h in only_out.hops] == [("m.a", "m.b"), ("m.b", "m.c")]


def test_json_contract_and_unknown_root(graph: SymbolGraph) -> None:
    payload = json.loads(json.dumps(chain(graph, "Scene.step").to_json()))
    assert payload["root"] == "pkg.scene.Scene.step" and payload["truncated"] is False
    assert payload["hops"] and all(set(h) >= HOP_KEYS for h in payload["hops"])
    assert {h["depth"] for h in payload["hops"]} <= {1, 2}
    missing = chain(graph, "no_such_symbol_anywhere")
    assert missing.root_node is None and missing.hops == () and missing.to_json()["hops"] == []


# -- the command -------------------------------------------------------------------------------
def test_cli_chain_json_and_tree(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tiny_project, "docs/markup.md", "# [red]Danger[/red] zone\n\nSee `World.remove_body`.\n")
    assert main(["chain", "--root", str(tiny_project), "--json", "World.remove_body"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["root"] == "pkg.world.World.remove_body" and payload["resolved_by"] == "symbol"
    edges = {(h["edge"], h["to"]) for h in payload["hops"]}
    assert ("calls", "pkg.sched.Scheduler.defer") in edges  # self.scheduler = Scheduler()
    assert ("tests", "tests.test_world.test_remove_is_deferred") in edges
    assert any(e == "documents" and to.startswith("docs/guide.md#") for e, to in edges)
    assert all(set(h) >= HOP_KEYS for h in payload["hops"])

    assert main(["chain", "--root", str(tiny_project), "--depth", "1", "World.remove_body"]) == 0
    out = capsys.readouterr().out
    assert "pkg.world.World.remove_body" in out and "calls" in out and "pkg/sched.py:" in out
    assert "[red]Danger[/red] zone" in out  # file text is never read as Rich markup


def test_cli_chain_falls_back_to_search_and_errors(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", "--root", str(tiny_project), "--json", "queue a body for removal"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["resolved_by"] == "search" and payload["root"].startswith("pkg.")
    assert main(["chain", "--root", str(tiny_project), "--depth", "0", "World"]) == 2
    assert "depth" in capsys.readouterr().err


def test_cli_chain_unknown_symbol_exits_2_with_nearest_names(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", "--root", str(tiny_project), "nonexistent_symbol"]) == 2
    err = capsys.readouterr().err
    assert "no symbol of that name" in err and err.count("\n") == 1
    assert main(["chain", "--root", str(tiny_project), "World.remove_bodi"]) == 2
    err = capsys.readouterr().err
    assert "nearest:" in err and "remove_body" in err
