"""Score-aware fusion, kind/path priors and the claim stage (retrieve/fusion, priors, claimquery)."""

from __future__ import annotations

import pytest

from caas_tui.models import Chunk, Claim
from caas_tui.retrieve.claimcalls import keyword_calls, makes_same_call, shown_objects
from caas_tui.retrieve.claimquery import EVIDENCE_KINDS, claim_pins, claim_request, named_symbols
from caas_tui.retrieve.fusion import Fused, combsum
from caas_tui.retrieve.priors import apply_priors, is_test_chunk, wants_tests
from caas_tui.retrieve.ranking import DEFAULT_POLICY, fuse, is_identifier_query
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


def _with_text(cid: str, path: str, symbol: str | None, text: str, kind: str = "code",
               signature: str | None = "def f()", parent: str | None = None) -> Chunk:
    return Chunk(id=cid, kind=kind, path=path, start_line=1, end_line=5, symbol=symbol, text=text, mtime=0.0,
                 sha256=cid, language="python", signature=signature, parent=parent)


def test_a_test_ranks_after_the_candidate_definition_it_calls() -> None:
    chunks = {
        "t": _with_text("t", "tests/test_box.py", "tests.test_box.test_make", "def test_make():\n    make_box(2)\n",
                        kind="test"),
        "x": _with_text("x", "pkg/other.py", "pkg.other.size_of", "def size_of(b): ..."),
        "d": _with_text("d", "pkg/box.py", "pkg.box.make_box", "def make_box(n): ..."),
        "lone": _with_text("lone", "tests/test_io.py", "tests.test_io.test_read", "def test_read():\n    read()\n",
                           kind="test"),
    }
    fused = [Fused(cid, 1.0 - i * 0.01, {}) for i, cid in enumerate(["t", "lone", "x", "d"])]
    order = [f.id for f in apply_priors("make a box", fused, chunks.get, test_factor=1.0)]
    assert order == ["lone", "x", "d", "t"]  # `read` is no candidate: that test keeps its place
    out = apply_priors("make a box", fused, chunks.get, test_factor=1.0)
    assert all(a.score >= b.score for a, b in zip(out, out[1:], strict=False))
    kept = [f.id for f in apply_priors("make a box", fused, chunks.get, test_factor=1.0, subjects=False)]
    assert kept == ["t", "lone", "x", "d"]
    asked = [f.id for f in apply_priors("the tests of make_box", fused, chunks.get, test_factor=1.0)]
    assert asked == ["t", "lone", "x", "d"]


def test_requests_naming_test_kinds_keep_tests_and_module_preambles_rank_lower() -> None:
    chunks = {
        "t": _with_text("t", "tests/test_box.py", "tests.test_box.test_make", "def test_make(): ...", kind="test"),
        "m": _with_text("m", "pkg/box.py", "pkg.box", "import os\nLIMIT = 3\n", signature=None),
        "d": _with_text("d", "pkg/box.py", "pkg.box.make_box", "def make_box(n): ..."),
        "z": _with_text("z", "pkg/far.py", "pkg.far.unrelated", "def unrelated(): ..."),
    }
    scored = {"bm25": [("t", 3.0), ("m", 2.95), ("d", 2.9), ("z", 1.0)],
              "dense": [("t", 0.9), ("m", 0.89), ("d", 0.88), ("z", 0.5)]}
    common = {"configured": {"bm25": 1.0, "dense": 1.0}, "rrf_k": 60.0, "chunk_of": chunks.get}
    plain = [f.id for f in fuse("make a box", scored, DEFAULT_POLICY, **common)]
    assert plain[0] == "d" and plain.index("m") < plain.index("t")
    evidence = [f.id for f in fuse("make a box", scored, DEFAULT_POLICY, kinds=("code", "test"), **common)]
    assert evidence[0] == "t"


def test_claim_pins_bring_constructors_and_what_a_pinned_method_delegates_to() -> None:
    box = _with_text("box", "xr/shapes.py", "xr.shapes.Box", "class Box:\n    pass\n", signature="class Box")
    init = _with_text("init", "xr/shapes.py", "xr.shapes.Box.__init__", "def __init__(self, size): ...",
                      parent="xr.shapes.Box")
    get = _with_text("get", "xr/session.py", "xr.session.Session.get",
                     "def get(self, url):\n    return self.request('GET', url)\n", parent="xr.session.Session")
    req = _with_text("req", "xr/session.py", "xr.session.Session.request", "def request(self, m, url): ...",
                     parent="xr.session.Session")
    items = _with_text("items", "xr/pages.py", "xr.pages.Pager.request", "def request(self): ...",
                       parent="xr.pages.Pager")
    chunks = {c.id: c for c in (box, init, get, req, items)}
    table = SymbolTable(chunks.values())
    fused = [Fused(cid, 1.0 - i * 0.1, {}) for i, cid in enumerate(["items", "req", "init", "box", "get"])]
    out, moved = claim_pins("`Box(size=2)` makes a box of that size", fused, table, ("code",), chunk_of=chunks.get)
    assert [f.id for f in out][:2] == ["box", "init"] and moved >= {"box", "init"}
    out, moved = claim_pins("If the server fails, `Session.get` gives up after three tries", fused, table,
                            ("code",), chunk_of=chunks.get)
    # The callee through ``self`` in the caller's class, not a namesake elsewhere.
    assert [f.id for f in out][:2] == ["get", "req"] and "items" not in moved
    none, _ = claim_pins("If the server fails, `Session.get` gives up after three tries", fused, table,
                         ("code",), chunk_of=chunks.get, callees=0)
    assert [f.id for f in none][:2] == ["get", "items"]


def test_claim_pins_bring_the_test_that_uses_what_a_code_block_names_together() -> None:
    ent = _with_text("ent", "xr/entity.py", "xr.entity.Entity", "class Entity: ...", signature="class Entity")
    long_form = _with_text("long", "tests/test_utils.py", "tests.test_utils.test_long_form",
                           "def test_long_form():\n    e = Entity('a')\n    e.add(Mesh(Box(1)))\n", kind="test")
    other = _with_text("other", "tests/test_mesh.py", "tests.test_mesh.test_mesh", "def test_mesh():\n    Mesh(1)\n",
                       kind="test")
    chunks = {c.id: c for c in (ent, long_form, other)}
    table = SymbolTable(chunks.values())
    fused = [Fused("other", 0.9, {}), Fused("long", 0.5, {}), Fused("ent", 0.4, {})]
    out, _ = claim_pins("e = Entity('a')\ne.add(Mesh(Box(1)))", fused, table, ("code", "test"), chunk_of=chunks.get)
    assert [f.id for f in out][:2] == ["ent", "long"]


def test_keyword_calls_read_the_outer_calls_of_a_flattened_block() -> None:
    text = 'b = Builder(padding=0.01, name="x(y)") spawn("p", Shape(radius=0.3)) f(a == b)'
    assert keyword_calls(text) == (("Builder", frozenset({"padding", "name"})), ("Shape", frozenset({"radius"})))
    assert keyword_calls(text, outermost=True) == (("Builder", frozenset({"padding", "name"})),)
    assert makes_same_call("assert not ok(Builder(name='a', padding=1, extra=2))",
                           (("x.Builder", frozenset({"padding"})),))
    assert not makes_same_call("Builder(margin=1)", (("Builder", frozenset({"padding"})),))
    shown = shown_objects('>>> h = Headers({"A": "b"}) >>> h["a"] \'b\' >>> h {\'a\': \'b\'}')
    assert shown == [("Headers", "__repr__")]
    assert shown_objects('u = Uri("x") print(u)') == [("Uri", "__str__")]
    assert shown_objects(">>> h = Headers() >>> h.update(a=1) >>> len(h) 1") == []
    assert shown_objects(">>> h = Headers() >>> h + other 3 >>> h in seen True") == []


def test_claim_pins_order_a_blocks_keyword_calls_first_and_bring_what_the_claim_shows() -> None:
    scene = _with_text("scene", "xr/scene.py", "xr.scene.Scene", "class Scene: ...", signature="class Scene")
    plane = _with_text("plane", "xr/utils.py", "xr.utils.make_plane", "def make_plane(scene): ...")
    builder = _with_text("builder", "xr/builder.py", "xr.builder.Builder", "class Builder: ...", signature="class Builder")
    init = _with_text("init", "xr/builder.py", "xr.builder.Builder.__init__", "def __init__(self, margin=0.0): ...",
                      parent="xr.builder.Builder")
    use = _with_text("use", "tests/test_b.py", "tests.test_b.test_padding",
                     "def test_padding():\n    assert Builder(padding=1).pad\n", kind="test")
    co = _with_text("co", "tests/test_all.py", "tests.test_all.test_all",
                    "def test_all():\n    Scene('a'); make_plane(s); Builder(); other()\n", kind="test")
    chunks = {c.id: c for c in (scene, plane, builder, init, use, co)}
    table = SymbolTable(chunks.values())
    fused = [Fused(cid, 1.0 - i * 0.1, {}) for i, cid in enumerate(["co", "plane", "scene", "use", "builder", "init"])]
    block = 's = Scene("p") make_plane(s) b = Builder(padding=0.01) b.build_all()'
    out, moved = claim_pins(block, fused, table, ("code", "test"), chunk_of=chunks.get)
    # The call passing keywords comes first (three pins at most); then the test making that very
    # call, before the co-user.
    assert [f.id for f in out][:4] == ["builder", "init", "scene", "use"] and "co" not in moved
    old, _ = claim_pins(block, fused, table, ("code", "test"), chunk_of=chunks.get, calls=False)
    assert [f.id for f in old][:4] == ["scene", "plane", "builder", "init"]
    head = _with_text("hd", "xr/headers.py", "xr.headers.Headers", "class Headers: ...", signature="class Headers")
    rep = _with_text("rep", "xr/headers.py", "xr.headers.Headers.__repr__", "def __repr__(self): ...",
                     parent="xr.headers.Headers")
    table = SymbolTable([head, rep])
    out, moved = claim_pins(">>> h = Headers({'A': 'b'}) >>> h {'a': 'b'}", [Fused("hd", 1.0, {})], table,
                            ("code",), chunk_of={"hd": head, "rep": rep}.get)
    assert [f.id for f in out] == ["hd", "rep"] and moved == {"hd", "rep"}


def test_a_claim_stating_a_default_brings_the_constructor_that_sets_it() -> None:
    refill = _with_text("refill", "rl.py", "rl.Bucket._refill", "def _refill(self): ...", parent="rl.Bucket")
    init = _with_text("init", "rl.py", "rl.Bucket.__init__", "def __init__(self, rate=RATE): ...",
                      signature="def __init__(self, rate: float = RATE)", parent="rl.Bucket")
    other = _with_text("other", "rl.py", "rl.Bucket.acquire", "def acquire(self): ...", parent="rl.Bucket")
    chunks = {c.id: c for c in (refill, init, other)}
    table = SymbolTable(chunks.values())
    fused = [Fused("refill", 0.9, {}), Fused("other", 0.8, {}), Fused("init", 0.1, {})]
    out, moved = claim_pins("Out of the box the bucket refills one token every 100 ms.", fused, table, ("code",),
                            chunk_of=chunks.get)
    assert [f.id for f in out] == ["refill", "init", "other"] and moved == set()
    for sentence in ("The bucket refills one token every 100 ms.", "Return the default refill of the bucket now."):
        same, _ = claim_pins(sentence, fused, table, ("code",), chunk_of=chunks.get)
        assert same == fused  # no default stated, or no value


def test_a_top_test_brings_the_subject_the_channels_missed() -> None:
    km = _with_text("km", "pkg/cluster.py", "pkg.cluster.KMeans", "class KMeans: ...", signature="class KMeans")
    fit = _with_text("fit", "pkg/cluster.py", "pkg.cluster.KMeans.fit", "def fit(self): ...", parent="pkg.cluster.KMeans")
    test = _with_text("t", "pkg/tests/test_cluster.py", "pkg.tests.test_cluster.test_kmeans_converges",
                      "def test_kmeans_converges():\n    model = KMeans(3).fit(X)\n    assert_close(model)\n", kind="test")
    other = _with_text("o", "pkg/io.py", "pkg.io.load", "def load(): ...")
    chunks = {c.id: c for c in (km, fit, test, other)}
    table = SymbolTable(chunks.values())

    def find(name: str) -> list[Chunk]:
        return table.find(name, ("code",), exact_only=True)

    fused = [Fused("t", 1.0, {"bm25": 1}), Fused("o", 0.9, {"bm25": 2})]
    # The test's name spells KMeans, which it calls; `fit` is too short and `assert_close` is not spelled.
    order = [f.id for f in apply_priors("converge to stable centres", fused, chunks.get, test_factor=1.0, find=find)]
    assert order == ["km", "t", "o"]
    assert [f.id for f in apply_priors("converge to stable centres", fused, chunks.get, test_factor=1.0)] == ["t", "o"]
    asked = [f.id for f in apply_priors("tests that converge", fused, chunks.get, test_factor=1.0, find=find)]
    assert asked == ["t", "o"]  # asked for tests: ranked like anything else
    lone = _with_text("l", "tests/test_misc.py", "tests.test_misc.test_roundtrip", "def test_roundtrip():\n    load()\n",
                      kind="test")
    assert apply_priors("round trip", [Fused("l", 1.0, {})], {"l": lone}.get, find=find)[0].id == "l"


def test_test_as_a_word_for_data_does_not_ask_for_tests() -> None:
    assert wants_tests("the tests of make_box") and wants_tests("test that make builds a box")
    assert wants_tests("pytest fixture for the session")
    assert not wants_tests("Compute the score on the test set") and not wants_tests("predict the test samples")
    assert wants_tests("test samples are split before the tests run")
