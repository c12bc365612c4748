"""The index round trip with each lexical backend, and switching between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.config import LEXICAL_BACKENDS
from caas_tui.errors import ConfigError
from caas_tui.index.manifest import read_manifest
from caas_tui.retrieve.engine import Engine

from .conftest import write


@pytest.mark.parametrize("lexical", LEXICAL_BACKENDS)
def test_round_trip_and_incremental_refresh(tiny_project: Path, lexical: str) -> None:
    engine = Engine.open(tiny_project, lexical=lexical)
    try:
        hits = engine.search("remove_body", 5, mode="bm25")
        assert hits[0].chunk.symbol == "pkg.world.World.remove_body"
        assert "pkg.world.World.remove_body" in [h.chunk.symbol for h in engine.search("remove body", 5, mode="bm25")]
        kinds = {h.chunk.kind for h in engine.search("removal end of frame", 10, mode="bm25", kinds=["upstream"])}
        assert kinds == {"upstream"}
        manifest = read_manifest(engine.store.directory)
        assert manifest is not None and manifest.lexical == lexical
        # incremental: one file added, one removed
        write(tiny_project, "pkg/teleport.py", "def teleport_body(body):\n    return body\n")
        (tiny_project / "pkg" / "sched.py").unlink()
        stats = engine.refresh()
        assert stats.added == ["pkg/teleport.py"] and stats.removed == ["pkg/sched.py"] and not stats.rebuilt
        assert engine.search("teleport_body", 3, mode="bm25")[0].chunk.symbol == "pkg.teleport.teleport_body"
        assert all(h.chunk.path != "pkg/sched.py" for h in engine.search("defer scheduler", 10, mode="bm25"))
    finally:
        engine.close()
    again = Engine.open(tiny_project, lexical=lexical)
    try:
        assert again.store.last_stats is not None and not again.store.last_stats.changed_any
        assert again.search("teleport_body", 1, mode="bm25")[0].chunk.symbol == "pkg.teleport.teleport_body"
    finally:
        again.close()


def test_changing_backend_rebuilds_with_a_message(tiny_project: Path) -> None:
    Engine.open(tiny_project, lexical="whoosh").close()
    notes: list[str] = []
    engine = Engine.open(tiny_project, lexical="tantivy", notify=notes.append)
    try:
        assert engine.store.last_stats is not None and engine.store.last_stats.rebuilt
        assert any("whoosh lexical backend" in n and "tantivy" in n for n in notes), notes
        assert engine.search("remove_body", 1, mode="bm25")[0].chunk.symbol == "pkg.world.World.remove_body"
    finally:
        engine.close()


def test_config_selects_the_backend(tiny_project: Path) -> None:
    write(tiny_project, "caas.toml", '[index]\nlexical = "tantivy"\n')
    engine = Engine.open(tiny_project)
    try:
        assert type(engine.store.lexical).__name__ == "TantivyLexical"
    finally:
        engine.close()
    write(tiny_project, "caas.toml", '[index]\nlexical = "lucene"\n')
    with pytest.raises(ConfigError, match="index.lexical"):
        Engine.open(tiny_project)
