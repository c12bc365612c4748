"""The store holds graph fragments as their ``graph.jsonl`` lines (issue 20, memory at 500k
chunks): a build or refresh never decodes them, a read decodes each once, and what is
written is what was held."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from caas_tui.config import load_config
from caas_tui.errors import IndexStoreError
from caas_tui.graph import GRAPH_FILE, FragmentLines, build_graph, load_fragments, parse_fragments, save_fragments
from caas_tui.graph.model import Fragment
from caas_tui.index.store import IndexStore

from .conftest import write


def _count_decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    decoded: list[str] = []
    original = Fragment.from_json.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Fragment], data: dict[str, object]) -> Fragment:
        decoded.append(str(data["path"]))
        return original(cls, data)

    monkeypatch.setattr(Fragment, "from_json", classmethod(counting))
    return decoded


def test_build_and_refresh_decode_no_unchanged_fragment(tiny_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decoded = _count_decodes(monkeypatch)
    cfg = load_config(tiny_project)
    store = IndexStore.open(cfg)
    try:
        assert isinstance(store.fragments, FragmentLines) and len(store.fragments) == len(store.manifest.files)
        edges = store.graph.edges
        assert sorted(decoded) == sorted(store.manifest.files)  # the graph decoded each file once
    finally:
        store.close()
    decoded.clear()
    again = IndexStore.open(cfg)  # reopened: the lines are read from graph.jsonl
    try:
        write(tiny_project, "pkg/extra.py", "def helper():\n    return 1\n")
        path = tiny_project / "pkg" / "world.py"
        path.write_text(path.read_text() + "\n\ndef added():\n    return helper()\n")
        st = path.stat()
        os.utime(path, (st.st_atime, st.st_mtime + 5))
        stats = again.refresh()
        assert stats.added == ["pkg/extra.py"] and stats.changed == ["pkg/world.py"]
        assert set(decoded) <= {"pkg/world.py"}  # unchanged files' lines were written back as read, never decoded
        assert load_fragments(again.directory) == again.fragments
        assert "pkg.world.added" in again.graph.nodes
        assert len(edges) <= len(again.graph.edges)
    finally:
        again.close()


def test_lines_roundtrip_and_reject_bad_files(tmp_path: Path, tiny_project: Path) -> None:
    store = IndexStore.open(load_config(tiny_project))
    try:
        fragments = dict(store.fragments)  # decoded
        graph_edges = store.graph.edges
    finally:
        store.close()
    save_fragments(tmp_path, fragments)  # from objects
    held = load_fragments(tmp_path)
    assert held == fragments and build_graph(held).edges == graph_edges
    first = next(iter(held))
    assert held[first] is held[first]  # decoded once, then kept
    (tmp_path / "copy").mkdir()
    save_fragments(tmp_path / "copy", held)  # from lines: the same bytes
    assert (tmp_path / "copy" / GRAPH_FILE).read_bytes() == (tmp_path / GRAPH_FILE).read_bytes()

    header, *lines = (tmp_path / GRAPH_FILE).read_text().rstrip("\n").split("\n")
    # a line whose keys come in another order still gives its path
    reordered = json.dumps(dict(reversed(list(json.loads(lines[0]).items()))))
    lines_b = [reordered, *lines[1:]]
    again = parse_fragments(tmp_path / GRAPH_FILE, "\n".join([header, *lines_b]).encode())
    assert again == fragments
    for bad in ([lines[0], *lines], ["[1, 2]", *lines[1:]], ['{"path": 3}', *lines[1:]]):
        data = "\n".join([json.dumps({**json.loads(header), "files": len(bad)}), *bad]).encode()
        with pytest.raises(IndexStoreError, match="corrupt symbol graph"):
            parse_fragments(tmp_path / GRAPH_FILE, data)
    # a damaged body is found when that fragment is read, as one line
    broken = [lines[0][: len(lines[0]) // 2], *lines[1:]]
    lazy = parse_fragments(tmp_path / GRAPH_FILE, "\n".join([header, *broken]).encode())
    with pytest.raises(IndexStoreError, match="corrupt fragment"):
        lazy[json.loads(lines[0])["path"]]


def test_setting_a_fragment_keeps_only_its_line(tiny_project: Path) -> None:
    store = IndexStore.open(load_config(tiny_project))
    try:
        source = dict(store.fragments)
    finally:
        store.close()
    held = FragmentLines()
    for path, fragment in source.items():
        held[path] = fragment
    assert set(held) == set(source) and len(held) == len(source)
    path = next(iter(source))
    assert held[path] == source[path] and held[path] is not source[path]  # re-made from the line
    del held[path]
    assert path not in held and len(held) == len(source) - 1
    with pytest.raises(KeyError):
        held[path]
