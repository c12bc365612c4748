"""The static reviewer on TS/JS, Java, Kotlin, C#, Go and Rust: calls in tagged code blocks
and in prose against the project's declarations (overloads, optional / default / variadic
parameters, named arguments), and doc comments against their own signatures. Ends with
the polyglot fixture project reviewed end to end against its planted mismatches."""

from __future__ import annotations

import dataclasses
import json
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.ingest.treesitter import outline
from caas_tui.models import Claim, SourceFile, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.extract import extract_claims
from caas_tui.review.runner import review_doc, reviewable_paths
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.languages.tssig import arity_text, call_fits, params_of
from caas_tui.sources.entries import language_of

from .conftest import write

POLYGLOT = Path(__file__).parent / "fixtures" / "polyglot"


# -- parameters as a caller sees them --------------------------------------------------------
def _decl(language: str, path: str, text: str, name: str):  # noqa: ANN202 - a Decl
    src = SourceFile(path, "code", language, text, 0.0, "", len(text))
    found = outline(src)
    assert found is not None
    return next(d for d in found.walk() if d.name == name)


@pytest.mark.parametrize(
    ("language", "path", "text", "name", "fits", "misfits"),
    [
        ("typescript", "a.ts", "export function f(a: number, b?: string, c = 3, ...rest: number[]): void {}\n", "f",
         [(1, ()), (2, ()), (7, ())], [(0, ())]),
        ("javascript", "a.js", "function g(x, y = 2) { return x + y; }\n", "g", [(1, ()), (2, ())], [(0, ()), (3, ())]),
        ("java", "A.java", "class A { void f(int a, String... more) {} }\n", "f", [(1, ()), (4, ())], [(0, ())]),
        ("kotlin", "a.kt", 'fun f(a: Int, b: String = "x", vararg c: Int) {}\n', "f",
         [(1, ()), (0, ("a",)), (1, ("b",)), (5, ())], [(0, ()), (1, ("z",))]),
        ("csharp", "A.cs", 'class A { public void F(int a, string b = "x", params int[] c) {} }\n', "F",
         [(1, ()), (1, ("b",)), (6, ())], [(0, ()), (1, ("bb",))]),
        ("go", "a.go", "package p\nfunc F(a, b int, c ...string) {}\n", "F", [(2, ()), (9, ())], [(1, ())]),
        ("rust", "a.rs", "struct S;\nimpl S { pub fn put(&mut self, sku: &str, units: u32) -> bool { true } }\n", "put",
         [(2, ())], [(1, ()), (3, ())]),
    ],
)
def test_call_fits_per_language(
    language: str, path: str, text: str, name: str,
    fits: list[tuple[int, tuple[str, ...]]], misfits: list[tuple[int, tuple[str, ...]]],
) -> None:
    params = params_of(_decl(language, path, text, name), language)
    for positional, named in fits:
        assert call_fits(params, positional, named, language) is None, (positional, named)
    for positional, named in misfits:
        assert call_fits(params, positional, named, language) is not None, (positional, named)


def test_rust_self_and_ts_this_are_not_arguments() -> None:
    rust = params_of(_decl("rust", "a.rs", "struct S;\nimpl S { fn f(&self, x: u8) {} }\n", "f"), "rust")
    assert [p.name for p in rust] == ["x"]
    ts = params_of(_decl("typescript", "a.ts", "function h(this: Window, e: Event): void {}\n", "h"), "typescript")
    assert [p.name for p in ts] == ["e"]


# -- doc comments become claims -------------------------------------------------------------
def test_doc_comment_claims_per_language() -> None:
    cs = '''namespace N {
    public class L {
        /// <summary>Posts a movement.</summary>
        /// <param name="sku">The SKU.</param>
        /// <returns>The balance.</returns>
        public int Post(string sku) { return 1; }
    }
}
'''
    claims = extract_claims("src/L.cs", cs)
    assert [(c.kind, c.text, c.start_line, c.section) for c in claims] == [
        ("prose", "Posts a movement.", 3, "N.L.Post"),
        ("field", ":param sku: The SKU.", 4, "N.L.Post"),
        ("field", ":returns: The balance.", 5, "N.L.Post"),
    ]
    js = "/**\n * Adds.\n * @param {number} [b=2] - the second\n *   addend\n * @typeParam T - ignored\n */\nfunction add(a, b) {}\n"
    fields = [c for c in extract_claims("lib/add.js", js) if c.kind == "field"]
    assert [(c.text, c.start_line, c.end_line) for c in fields] == [(":param number b: the second addend", 3, 4)]
    go = "package p\n\n// Add adds.\nfunc Add(a int) int { return a }\n"
    assert [(c.kind, c.text) for c in extract_claims("p/add.go", go)] == [("prose", "Add adds.")]


# -- one small project per language, reviewed through the real engine -------------------------
PROJECT = {
    "ts/src/cart.ts": """
        /** A shopping cart. */
        export class Cart {
          constructor(owner: string, limit = 10) {}

          /**
           * Adds units of a SKU.
           * @param sku - the SKU
           * @param qty - how many
           * @returns the new total
           */
          add(sku: string, units?: number): number {
            return 1;
          }

          /**
           * Empties the cart.
           * @returns nothing useful
           */
          clear(): void {}

          /**
           * Renames the cart.
           * @param name - the new name
           */
          rename(name: string, reason: string): void {}
        }
        """,
    "java/src/Pump.java": """
        package com.acme;

        /** A pump. */
        public class Pump {
            /**
             * Starts the pump.
             * @param rate litres per minute
             * @return nothing
             */
            public void start(int rate) {}

            /** Starts at a rate with tags. */
            public void start(int rate, String... tags) {}

            /** Current rate. */
            public int rate() { return 1; }
        }
        """,
    "kotlin/src/Lamp.kt": """
        package com.acme

        /** A lamp. */
        class Lamp(val watts: Int = 60) {
            /**
             * Dims the lamp.
             * @param level 0 to 100
             * @return the new level
             */
            fun dim(level: Int, fade: Boolean = false): Int {
                return level / 2
            }

            /**
             * Switches the lamp off.
             * @return the lamp
             */
            fun off() {
                println("off")
            }
        }
        """,
    "csharp/Valve.cs": """
        namespace Acme.Flow
        {
            /// <summary>A valve.</summary>
            public class Valve
            {
                /// <summary>Opens the valve.</summary>
                /// <param name="percent">How far.</param>
                /// <param name="quick">Whether fast.</param>
                /// <returns>Nothing.</returns>
                public void Open(int percent, bool quick = false) {}

                /// <summary>Reads the flow.</summary>
                /// <param name="unit">The unit.</param>
                public double Flow(string units) { return 0; }
            }
        }
        """,
    "go/meter/meter.go": """
        package meter

        // Meter counts.
        type Meter struct{ n int }

        // New makes a meter.
        func New(start int) *Meter { return &Meter{n: start} }

        // Tick adds values.
        func (m *Meter) Tick(values ...int) int { return m.n }
        """,
    "rust/src/lib.rs": """
        /// A gauge.
        pub struct Gauge { v: u32 }

        impl Gauge {
            /// Makes a gauge.
            pub fn new(v: u32) -> Self { Gauge { v } }

            /// Reads it.
            pub fn read(&self, scale: u32) -> u32 { self.v * scale }
        }

        impl Iterator for Gauge {
            type Item = u32;
            fn next(&mut self) -> Option<u32> { None }
        }
        """,
    "csharp/Ext.cs": """
        namespace Acme.Flow
        {
            public static class ValveExtensions
            {
                /// <summary>Closes a valve.</summary>
                public static void Shut(this Valve v, int delay) {}
            }
        }
        """,
    "go/meter/wrap.go": """
        package meter

        // Wrapped embeds a Meter.
        type Wrapped struct {
            *Meter
            label string
        }
        """,
    "docs/usage.md": """
        # Usage

        ```ts
        const cart = new Cart("me");
        cart.add("bolt");
        cart.add("bolt", 2, true);
        cart.remove("bolt");
        ```

        ```java
        Pump p = new Pump();
        p.start(5);
        p.start(5, "a", "b");
        p.stop();
        ```

        ```kotlin
        val lamp = Lamp(watts = 40)
        lamp.dim(3, fade = true)
        lamp.dim(level = 3, speed = 2)
        lamp.toString()
        ```

        ```csharp
        var v = new Valve();
        v.Open(5, quick: true);
        v.Open();
        v.Shut(3);
        v.Shut(3, 4);
        ```

        ```go
        m := meter.New(1)
        m.Tick(1, 2, 3)
        m.Reset()
        ```

        ```rust
        let g = Gauge::new(3);
        g.read(2);
        g.read();
        g.clone();
        ```

        ```ts
        import { other } from "lib";
        other.thing(1, 2, 3);
        ```

        Promoted and trait methods: `Wrapped.Tick(1)` and `Gauge.map(f)`.

        ```rust
        let broken = (((
        ```

        Call `Cart.add(sku, units)` to add; `Cart.remove(sku)` does not exist and `Meter.Tick(values)` is variadic.
        """,
}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    root = tmp_path_factory.mktemp("poly-small") / "proj"
    for rel, text in PROJECT.items():
        write(root, rel, text)
    eng = Engine.open(root, index_dir=tmp_path_factory.mktemp("poly-small-index"))
    try:
        yield eng
    finally:
        eng.close()


def _review(engine: Engine, path: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, path, StaticReviewer()).pairs()


def _block(pairs: list[tuple[Claim, Verdict]], first_line: str) -> Verdict:
    return next(v for c, v in pairs if c.kind == "code" and c.text.splitlines()[0] == first_line)


def test_code_blocks_per_language(small: Engine) -> None:
    pairs = _review(small, "docs/usage.md")
    ts = _block(pairs, 'const cart = new Cart("me");')
    assert ts.verdict == "contradicted"
    assert "no member `remove`" in ts.rationale and "takes at most 2 arguments, not 3" in ts.rationale
    java = _block(pairs, "Pump p = new Pump();")
    assert java.verdict == "contradicted" and "`Pump` has no member `stop`" in java.rationale
    assert "call to `Pump.start` fits its signature" in java.checks  # varargs overload takes 3
    kotlin = _block(pairs, "val lamp = Lamp(watts = 40)")
    assert kotlin.verdict == "contradicted"
    assert "no parameter named `speed`" in kotlin.rationale and "toString" not in kotlin.rationale
    cs = _block(pairs, "var v = new Valve();")
    assert cs.verdict == "contradicted" and "needs at least 1 argument, not 0" in cs.rationale
    # an extension method, called without its ``this`` parameter: ``Shut(3)`` fits, ``Shut(3, 4)`` does not
    assert "`Valve.Shut` takes at most 1 argument, not 2" in cs.rationale and "no member" not in cs.rationale
    go = _block(pairs, "m := meter.New(1)")
    assert go.verdict == "contradicted" and "`Meter` has no member `Reset`" in go.rationale
    assert "call to `Meter.Tick` fits its signature" in go.checks
    rust = _block(pairs, "let g = Gauge::new(3);")
    assert rust.verdict == "contradicted" and "`Gauge.read` needs at least 1 argument, not 0" in rust.rationale
    assert "clone" not in rust.rationale  # a derivable trait method is not reported missing
    unknown = _block(pairs, 'import { other } from "lib";')
    assert unknown.verdict == "unverified"  # a library the project does not declare: nothing to judge


def test_prose_inline_calls(small: Engine) -> None:
    pairs = _review(small, "docs/usage.md")
    prose = next(v for c, v in pairs if c.text.startswith("Call `Cart.add"))
    assert prose.verdict == "contradicted"
    assert "`Cart` has no member `remove`" in prose.rationale
    assert "call to `Cart.add` fits its signature" in prose.checks
    assert "call to `Meter.Tick` fits its signature" in prose.checks


def test_members_from_outside_the_type_are_not_flagged(small: Engine) -> None:
    pairs = _review(small, "docs/usage.md")
    promoted = next(v for c, v in pairs if c.text.startswith("Promoted and trait methods"))
    assert promoted.verdict == "unverified", promoted.rationale  # Go embedding, an external Rust trait
    broken = _block(pairs, "let broken = (((")
    assert broken.verdict == "unverified" and "failed" not in broken.rationale


def _fields(engine: Engine, path: str) -> dict[str, Verdict]:
    return {c.text: v for c, v in _review(engine, path) if c.kind == "field"}


def test_ts_doc_comments(small: Engine) -> None:
    f = _fields(small, "ts/src/cart.ts")
    assert f[":param sku: the SKU"].verdict == "incomplete"  # the comment's first @param carries the gap
    assert "`units` has no @param" in f[":param sku: the SKU"].rationale
    qty = f[":param qty: how many"]
    assert qty.verdict == "contradicted" and "`add` has no parameter `qty`" in qty.rationale
    assert f[":returns: nothing useful"].verdict == "contradicted"
    assert "returns nothing (void)" in f[":returns: nothing useful"].rationale
    rename = f[":param name: the new name"]
    assert rename.verdict == "incomplete" and "`reason` has no @param" in rename.rationale


def test_java_kotlin_csharp_doc_comments(small: Engine) -> None:
    java = _fields(small, "java/src/Pump.java")
    assert java[":param rate: litres per minute"].verdict == "consistent"
    assert java[":returns: nothing"].verdict == "contradicted"
    kotlin = _fields(small, "kotlin/src/Lamp.kt")
    assert kotlin[":param level: 0 to 100"].verdict == "incomplete"  # fade has no @param
    assert kotlin[":returns: the new level"].verdict != "contradicted"
    assert kotlin[":returns: the lamp"].verdict == "contradicted"  # block body, no return type: Unit
    cs = _fields(small, "csharp/Valve.cs")
    assert cs[":param percent: How far."].verdict == "consistent"
    assert cs[":returns: Nothing."].verdict == "contradicted"
    unit = cs[":param unit: The unit."]
    assert unit.verdict == "contradicted" and "did you mean `units`?" in unit.rationale
    assert unit.fix is not None and 'name="units"' in unit.fix.replacement


def test_source_files_are_reviewable(small: Engine) -> None:
    paths = reviewable_paths(small)
    assert {"ts/src/cart.ts", "java/src/Pump.java", "kotlin/src/Lamp.kt", "csharp/Valve.cs", "go/meter/meter.go",
            "rust/src/lib.rs", "docs/usage.md"} <= set(paths)


def test_cli_reviews_a_source_file(small: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--root", str(small.root), "--json", "ts/src/cart.ts"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["doc"] == "ts/src/cart.ts"
    assert any(c["verdict"] == "contradicted" and "`qty`" in c["rationale"] for c in out["claims"])


# -- the fixture project, end to end -----------------------------------------------------------
@pytest.fixture(scope="module")
def fixture_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    root = tmp_path_factory.mktemp("polyglot-review") / "proj"
    shutil.copytree(POLYGLOT, root)
    eng = Engine.open(root, index_dir=tmp_path_factory.mktemp("polyglot-review-index"))
    try:
        yield eng
    finally:
        eng.close()


def test_fixture_planted_mismatches_found_and_nothing_else_flagged(fixture_engine: Engine) -> None:
    planted = tomllib.loads((POLYGLOT / "FINDINGS.toml").read_text())["finding"]
    root = fixture_engine.root
    flagged: set[tuple[str, str]] = set()
    found: dict[int, Verdict] = {}
    for path in reviewable_paths(fixture_engine):
        lines = (root / path).read_text().split("\n")
        for claim, verdict in _review(fixture_engine, path):
            span = "\n".join(lines[claim.start_line - 1 : claim.end_line])
            hits = [i for i, f in enumerate(planted) if f["doc"] == path and f["claim"] in span]
            for i in hits:
                found[i] = verdict
            if verdict.verdict in ("contradicted", "incomplete") and not hits:
                flagged.add((path, claim.text))
    for i, f in enumerate(planted):
        assert i in found, f"no claim holds {f['claim']!r}"
        assert found[i].verdict == f["verdict"], (f["claim"], found[i].rationale)
        # the symbol itself, or the type that lacks it
        assert any(e.symbol and (f["symbol"] == e.symbol or f["symbol"].startswith(e.symbol + "."))
                   for e in found[i].evidence), (f["claim"], found[i].evidence)
    assert flagged == set()
    # Every language of the fixture had a code file reviewed as a doc.
    assert {language_of(p) for p in reviewable_paths(fixture_engine)} >= {
        "typescript", "javascript", "java", "kotlin", "csharp", "go", "rust", "markdown"}


def test_fixture_consistent_claims_were_checked(fixture_engine: Engine) -> None:
    pairs = _review(fixture_engine, "docs/guide.md")
    go = _block(pairs, 's := inventory.NewStock("bolt")')
    # Every call fits its signature; what the block does when run is not a static fact.
    assert go.verdict == "unverified" and "runs:unchecked" in go.coverage
    assert set(go.checks) >= {"call to `inventory.NewStock` fits its signature", "call to `Stock.Add` fits its signature"}
    # Prose that also asserts a return value is not green when only the call was checked.
    store = next(v for c, v in pairs if c.text.startswith("`Warehouse.store(bin, units)`"))
    assert store.verdict == "unverified" and "returns:unchecked" in store.coverage


_QUIRKS = [
    # (language, path, text, name, [(param, optional, variadic)], arity)
    ("typescript", "a.ts", "export function f(a: number, b?: string, c = 3, ...rest: number[]): void {}\n", "f",
     [("a", False, False), ("b", True, False), ("c", True, False), ("rest", False, True)], "1 or more"),
    ("typescript", "a.ts", "export class K {\n  constructor(private readonly n: number, public m?: string) {}\n}\n",
     "constructor", [("n", False, False), ("m", True, False)], "1 to 2"),
    ("javascript", "a.js", "function g(a, b = 2, ...rest) {}\n", "g",
     [("a", False, False), ("b", True, False), ("rest", False, True)], "1 or more"),
    ("csharp", "A.cs", 'class C { public int Sum(int a, string b = "x", params int[] xs) { return 0; } }\n', "Sum",
     [("a", False, False), ("b", True, False), ("xs", False, True)], "1 or more"),
    ("kotlin", "a.kt", "fun sum(a: Int, b: Int = 2, vararg xs: Int): Int = a\n", "sum",
     [("a", False, False), ("b", True, False), ("xs", False, True)], "1 or more"),
    ("kotlin", "a.kt", 'class K(val n: Int = 1, m: String) {\n  fun go(x: Int = 3, y: List<Int> = listOf(1, 2)) {}\n}\n',
     "go", [("x", True, False), ("y", True, False)], "0 to 2"),
    ("java", "A.java", "class A { int sum(int a, int... xs) { return 0; } }\n", "sum",
     [("a", False, False), ("xs", False, True)], "1 or more"),
    ("go", "a.go", "package p\nfunc Sum(a, b int, xs ...int) int { return 0 }\n", "Sum",
     [("a", False, False), ("b", False, False), ("xs", False, True)], "2 or more"),
]


@pytest.mark.parametrize(("language", "path", "text", "name", "expected", "arity"), _QUIRKS)
def test_parameter_quirks_in_the_outline_and_the_signature_agree(
    language: str, path: str, text: str, name: str, expected: list[tuple[str, bool, bool]], arity: str,
) -> None:
    """C# ``params``, Kotlin defaults and ``vararg``, TS ``?`` and rest parameters: the outline's
    ``Param``s (what the graph and the fallback read) say what the signature text says."""
    decl = _decl(language, path, text, name)
    assert [(p.name, p.optional, p.variadic) for p in decl.params] == expected
    assert [(p.name, p.optional, p.variadic) for p in params_of(decl, language)] == expected
    # Without a parameter list in the signature, the checks fall back on the outline's parameters.
    bare = dataclasses.replace(decl, signature=decl.name)
    fallback = params_of(bare, language)
    assert [(p.name, p.optional, p.variadic) for p in fallback] == expected
    assert arity_text(fallback) == arity_text(params_of(decl, language)) == arity


def test_kotlin_and_csharp_defaults_are_kept_as_written() -> None:
    kt = _decl("kotlin", "a.kt", 'fun f(a: Int, b: String = "x", vararg c: Int) {}\n', "f")
    assert [(p.name, p.type, p.default) for p in kt.params] == [("a", "Int", None), ("b", "String", '"x"'), ("c", "Int", None)]
    cs = _decl("csharp", "A.cs", 'class A { public void F(int a, string b = "x", params int[] c) {} }\n', "F")
    assert [(p.name, p.type, p.default) for p in cs.params] == [("a", "int", None), ("b", "string", '"x"'), ("c", "int[]", None)]
