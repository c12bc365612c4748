"""Score-aware fusion, kind/path priors and the claim stage (retrieve/fusion, priors, claimquery)."""

from __future__ import annotations

import pytest

from caas_tui.models import Chunk, Claim
from caas_tui.retrieve.claimquery import EVIDENCE_KINDS, claim_pins, claim_request, named_symbols
from caas_tui.retrieve.fusion import Fused, combsum
from caas_tui.retrieve.priors import apply_priors, is_test_chunk
from caas_tui.retrieve.ranking import is_identifier_query
from caas_tui.retrieve.symbols import SymbolTable


def _chunk(cid: str, path: str, symbol: str | None, kind: str = "code", signature: str | None = "def f()") -> Chunk:
    return Chunk(id=cid, kind=kind, path=path, start_line=1, end_line=5, symbol=symbol, text=cid, mtime=0.0,
                 sha256=cid, language="python", signature=signature)


def test_combsum_minmax_uses_the_score_gap_that_ranks_hide() -> None:
    # bm25 barely prefers a over b; dense strongly prefers b: b wins on summed normalised scores,
    # where RRF would tie them (each is first once, second once).
    fused = combsum({"bm25": [("a", 10.0), ("b", 9.9), ("c", 1.0)], "dense": [("b", 0.9), ("a", 0.2), ("c", 0.1)]})
    scores = {f.id: f.score for f in fused}
    assert scores["a"] == pytest.approx(1.0 + (0.2 - 0.1) / 0.8)
    assert scores["b"] == pytest.approx((9.9 - 1.0) / 9.0 + 1.0)
    assert [f.id for f in fused][:2] == ["b", "a"]
    assert fused[0].ranks == {"bm25": 2, "dense": 1}


def test_combsum_zscore_and_one_sided_documents() -> None:
    fused = combsum({"bm25": [("a", 3.0), ("b", 1.0)], "dense": [("c", 0.5)]}, norm="zscore")
    scores = {f.id: f.score for f in fused}
    assert scores["a"] == pytest.approx(1.0) and scores["b"] == pytest.approx(-1.0)
    assert scores["c"] == pytest.approx(0.0)  # a single score has no spread
    assert [f.id for f in fused] == ["a", "c", "b"]


def test_priors_demote_tests_examples_and_reexports_unless_asked() -> None:
    chunks = {
        "t": _chunk("t", "tests/test_box.py", "tests.test_box.test_make", kind="test"),
        "e": _chunk("e", "examples/demo.py", "examples.demo.main"),
        "i": _chunk("i", "pkg/__init__.py", "pkg", signature=None),
        "init_def": _chunk("init_def", "pkg/__init__.py", "pkg.dumps"),
        "d": _chunk("d", "pkg/box.py", "pkg.box.make"),
    }
    fused = [Fused(cid, 1.0 - i * 0.01, {}) for i, cid in enumerate(["t", "e", "i", "init_def", "d"])]
    order = [f.id for f in apply_priors("make a box of a given size", fused, chunks.get)]
    assert order[:2] == ["init_def", "d"]  # a function defined in __init__.py is a definition
    assert set(order[2:]) == {"t", "e", "i"}
    asked = [f.id for f in apply_priors("test that make builds a box", fused, chunks.get)]
    assert asked[0] == "t"
    assert is_test_chunk(_chunk("x", "src/conftest.py", "conftest.fixture")) and not is_test_chunk(chunks["d"])


def test_identifier_queries_and_sentences_are_told_apart() -> None:
    assert is_identifier_query("Scene.spawn")
    assert is_identifier_query("get_component registry")
    assert not is_identifier_query("spawn an entity with components")
    assert not is_identifier_query("parse a retry after header value into seconds")


def test_named_symbols_puts_calls_first_and_ignores_short_queries() -> None:
    assert named_symbols("Scene.spawn") == []  # pin_exact's job
    names = named_symbols('Calls `Registry.get` and then player = scene.spawn("p", MeshComponent(box))')
    assert names[:2] == ["scene.spawn", "MeshComponent"]
    assert "Registry.get" in names
    assert named_symbols("Call :meth:`~xrkit.physics.Builder.build_all` once after building")[0] == \
        "xrkit.physics.Builder.build_all"


def test_claim_pins_resolve_a_variable_to_its_class_and_skip_modules() -> None:
    table = SymbolTable([
        _chunk("spawn", "xr/scene.py", "xr.scene.Scene.spawn"),
        _chunk("mod", "xr/scene/__init__.py", "xr.scene", signature=None),
        _chunk("other", "xr/world.py", "xr.world.World.add"),
    ])
    fused = [Fused("other", 0.9, {"bm25": 1}), Fused("spawn", 0.5, {"bm25": 2})]
    out, moved = claim_pins('player = scene.spawn("player", body) spawns at once', fused, table, ("code", "test"))
    assert [f.id for f in out] == ["spawn", "other"] and moved == {"spawn"}
    untouched, none = claim_pins("a sentence that names nothing at all", fused, table, ("code",))
    assert untouched == fused and none == set()


def test_claim_request_adds_the_docstring_owner_and_searches_evidence_kinds() -> None:
    claim = Claim(id="c", doc_path="pkg/pages.py", start_line=3, end_line=3, text="per_page: Items per page.",
                  kind="field", symbols=("per_page",), section="pkg.pages.Paginator.__init__")
    request = claim_request(claim, 7)
    assert request.kinds == EVIDENCE_KINDS and request.k == 7
    assert request.query.startswith("`pkg.pages.Paginator.__init__` per_page: Items per page.")
    prose = Claim(id="d", doc_path="docs/guide.md", start_line=1, end_line=1, text="Waits `Retry.delay` seconds.",
                  kind="prose", symbols=("Retry.delay", "Retry"), section="Guide > Retries")
    assert claim_request(prose).query == "Waits `Retry.delay` seconds."  # names already in the text
