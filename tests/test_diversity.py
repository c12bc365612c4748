"""Docstring/code twins merge into the code chunk at the better position."""

from __future__ import annotations

from caas_tui.models import Chunk
from caas_tui.retrieve.diversity import drop_twins
from caas_tui.retrieve.fusion import Fused


def _chunk(cid: str, kind: str, symbol: str | None, path: str = "pkg/m.py") -> Chunk:
    return Chunk(id=cid, kind=kind, path=path, start_line=1, end_line=3, symbol=symbol, text="", mtime=0.0, sha256="")


CHUNKS = {
    "api-f": _chunk("api-f", "api", "pkg.m.f"),
    "code-f": _chunk("code-f", "code", "pkg.m.f"),
    "code-g": _chunk("code-g", "code", "pkg.m.g"),
    "doc": _chunk("doc", "doc", "Guide", path="docs/g.md"),
}


def test_api_above_its_code_twin_becomes_the_code_chunk() -> None:
    items = [
        Fused("api-f", 0.5, {"bm25": 1}),
        Fused("doc", 0.4, {"dense": 1}),
        Fused("code-f", 0.3, {"bm25": 4, "dense": 2}),
        Fused("code-g", 0.2, {"bm25": 2}),
    ]
    out = drop_twins(items, CHUNKS.get)
    assert [f.id for f in out] == ["code-f", "doc", "code-g"]
    assert out[0].score == 0.5 and out[0].ranks == {"bm25": 1, "dense": 2}


def test_code_above_its_api_twin_drops_the_api_chunk_and_pins_stay() -> None:
    items = [Fused("code-f", 0.5, {"bm25": 1}), Fused("api-f", 0.4, {"bm25": 2}), Fused("doc", 0.1, {})]
    assert [f.id for f in drop_twins(items, CHUNKS.get)] == ["code-f", "doc"]
    both = drop_twins(items, CHUNKS.get, pinned={"code-f", "api-f"})
    assert [f.id for f in both] == ["code-f", "api-f", "doc"]
    assert [f.id for f in drop_twins([Fused("gone", 1.0, {})], CHUNKS.get)] == []
