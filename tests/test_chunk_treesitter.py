"""Tree-sitter languages: exact symbols and spans, doc comments as api twins, test kinds,
and the degraded path when a grammar cannot load."""

from __future__ import annotations

import gc
import logging
import shutil
import textwrap
from pathlib import Path

import pytest

from caas_tui.ingest import chunk_file
from caas_tui.ingest.treesitter import analyse, grammars, outline
from caas_tui.models import Chunk, SourceFile
from caas_tui.retrieve.engine import Engine
from caas_tui.sources.entries import kind_of, language_of

POLYGLOT = Path(__file__).parent / "fixtures" / "polyglot"


def _src(rel: str, text: str | None = None) -> SourceFile:
    if text is None:
        text = (POLYGLOT / rel).read_text()
    language = language_of(rel)
    assert language is not None
    return SourceFile(rel, kind_of(rel, language, ()), language, text, 0.0, "", len(text))


def _spans(chunks: list[Chunk], kind: str = "code") -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for c in chunks:
        if c.kind == kind and c.symbol:
            out.setdefault(c.symbol, []).append((c.start_line, c.end_line))
    return out


def test_typescript_symbols_spans_and_docs() -> None:
    chunks = chunk_file(_src("ts/src/inventory.ts"))
    code = _spans(chunks)
    m = "ts.src.inventory"
    assert code[f"{m}.Category"] == [(3, 7)]
    assert code[f"{m}.Inventory"] == [(15, 21)]  # header: doc comment .. the field before the first member
    assert code[f"{m}.Inventory.constructor"] == [(23, 23)]
    assert code[f"{m}.Inventory.addItem"] == [(25, 35)]  # JSDoc included
    assert code[f"{m}.Inventory.removeItem"] == [(37, 38), (39, 39), (40, 42)]  # overloads
    assert code[f"{m}.Inventory.size"] == [(44, 46)]
    assert code[f"{m}.totalWeight"] == [(49, 51)]  # exported arrow function constant
    by_symbol = {c.symbol: c for c in chunks if c.kind == "code"}
    assert by_symbol[f"{m}.totalWeight"].signature == "const totalWeight = (items: Item[], gramsEach: number): number =>"
    assert by_symbol[f"{m}.Inventory.addItem"].parent == f"{m}.Inventory"
    api = {c.symbol: c for c in chunks if c.kind == "api"}
    add = api[f"{m}.Inventory.addItem"]
    assert (add.start_line, add.end_line) == (25, 29)
    assert add.text.startswith("addItem(item: T): number\nAdds an item")
    assert "@param item - the item to add" in add.text and "/**" not in add.text
    assert f"{m}.describe" not in api  # no doc comment, no api chunk
    out = outline(_src("ts/src/inventory.ts"))
    assert out is not None and out.imports[0].module == "./money" and out.imports[0].names == ("Money", "formatMoney")
    decl = next(d for d in out.walk() if d.symbol == f"{m}.totalWeight")
    assert [p.name for p in decl.params] == ["items", "gramsEach"] and decl.params[0].type == "Item[]"


def test_java_package_nested_overloads_annotations() -> None:
    chunks = chunk_file(_src("java/src/main/java/com/example/inventory/Warehouse.java"))
    code = _spans(chunks)
    p = "com.example.inventory"
    assert code[f"{p}.Warehouse"] == [(6, 10)]
    assert code[f"{p}.Warehouse.Warehouse"] == [(12, 14)]
    assert code[f"{p}.Warehouse.store"] == [(16, 26), (28, 31)]  # @Override inside the span
    assert code[f"{p}.Warehouse.Location"] == [(33, 34)]
    assert code[f"{p}.Warehouse.Location.aisle"] == [(35, 38)]
    assert code[f"{p}.Warehouse.Zone"] == [(41, 42)]
    assert code[f"{p}.Storage.store"] == [(47, 47)]
    assert code[f"{p}.StockLine"] == [(50, 51)]
    sigs = {c.signature for c in chunks if c.symbol == f"{p}.Warehouse.store" and c.kind == "code"}
    assert sigs == {"public int store(String bin, int units)", "public int store(String bin)"}
    out = outline(_src("java/src/main/java/com/example/inventory/Warehouse.java"))
    assert out is not None
    kinds = {d.symbol: d.kind for d in out.walk()}
    assert kinds[f"{p}.Warehouse.Warehouse"] == "constructor" and kinds[f"{p}.StockLine"] == "record"
    assert kinds[f"{p}.Storage"] == "interface" and kinds[f"{p}.Warehouse.Zone"] == "enum"
    warehouse = next(d for d in out.decls if d.name == "Warehouse")
    assert warehouse.bases == ("Storage",)
    store = next(d for d in warehouse.members if d.name == "store")
    assert store.doc is not None and "@param bin the bin name" in store.doc.text
    assert [(q.name, q.type) for q in store.params] == [("bin", "String"), ("units", "int")]


def test_kotlin_extension_object_companion() -> None:
    chunks = chunk_file(_src("kotlin/src/main/kotlin/com/example/inventory/Shelf.kt"))
    code = _spans(chunks)
    p = "com.example.inventory"
    assert code[f"{p}.Shelf"][0] == (5, 10)
    assert code[f"{p}.Shelf.items"] == [(11, 12)]
    assert code[f"{p}.Shelf.put"] == [(14, 23)]
    assert code[f"{p}.Shelf.empty"] == [(26, 27)]  # companion members belong to the class
    assert code[f"{p}.ShelfRegistry.register"] == [(33, 35)]
    assert code[f"{p}.Shelf.freeSlots"] == [(38, 39)]  # extension function, qualified by its receiver
    out = outline(_src("kotlin/src/main/kotlin/com/example/inventory/Shelf.kt"))
    assert out is not None
    kinds = {d.symbol: d.kind for d in out.walk()}
    assert kinds[f"{p}.ShelfRegistry"] == "object" and kinds[f"{p}.Labelled"] == "interface"
    assert kinds[f"{p}.Shelf.items"] == "property"
    ext = next(d for d in out.decls if d.name == "freeSlots")
    assert ext.parent == f"{p}.Shelf" and ext.returns == "Int" and ext.signature == "fun Shelf.freeSlots(): Int"


def test_csharp_namespace_xml_docs_attributes() -> None:
    chunks = chunk_file(_src("csharp/Inventory/Ledger.cs"))
    code = _spans(chunks)
    ns = "Example.Inventory"
    assert code[f"{ns}.Ledger"] == [(6, 11)]
    assert code[f"{ns}.Ledger.Ledger"] == [(13, 18)]
    assert code[f"{ns}.Ledger.Site"] == [(20, 21)]
    assert code[f"{ns}.Ledger.Post"] == [(23, 32)]  # /// docs and [Obsolete] inside the span
    assert code[f"{ns}.Ledger.Entry"] == [(34, 35)]
    assert code[f"{ns}.Slot"] == [(38, 42)]
    api = {c.symbol: c for c in chunks if c.kind == "api"}
    post = api[f"{ns}.Ledger.Post"]
    assert (post.start_line, post.end_line) == (23, 26)
    assert post.text == (
        "public int Post(string sku, int delta)\nPosts a movement.\n@param sku The SKU moved.\n"
        "@param delta Units in (positive) or out (negative).\n@returns The running balance."
    )
    tests = chunk_file(_src("csharp/Inventory.Tests/LedgerTests.cs"))  # file-scoped namespace
    assert {c.kind for c in tests} == {"test"}
    assert "Example.Inventory.Tests.LedgerTests.PostReturnsDelta" in _spans(tests, "test")


def test_go_receivers_and_doc_comments() -> None:
    chunks = chunk_file(_src("go/inventory/stock.go"))
    code = _spans(chunks)
    assert code["inventory.Stock"] == [(12, 16)]
    assert code["inventory.NewStock"] == [(23, 26)]
    assert code["inventory.Stock.Add"] == [(28, 32)]  # func (s *Stock) Add
    assert code["inventory.Stock.Take"] == [(34, 41)]  # value receiver
    assert code["inventory.Stock.String"] == [(43, 45)]
    api = {c.symbol: c for c in chunks if c.kind == "api"}
    assert api["inventory.Stock.Add"].text == (
        "func (s *Stock) Add(units int) int\nAdd puts units into the stock and returns the new total."
    )
    assert api["inventory"].text == "Package inventory tracks stock levels."
    assert "inventory.Stock.String" not in api
    out = outline(_src("go/inventory/stock.go"))
    assert out is not None and [i.module for i in out.imports] == ["errors", "fmt"]
    kinds = {d.symbol: d.kind for d in out.walk()}
    assert kinds["inventory.Stock"] == "struct" and kinds["inventory.Counter"] == "interface"


def test_rust_impls_traits_attributes_and_tests() -> None:
    chunks = chunk_file(_src("rust/src/lib.rs"))
    code = _spans(chunks)
    assert code["Bin"] == [(5, 10), (18, 18), (31, 31)]  # struct (with #[derive]), impl Bin, impl Container for Bin
    assert code["Bin.new"] == [(19, 22)]
    assert code["Bin.put"] == [(24, 28)]
    assert code["Bin.len"] == [(32, 34)]  # trait impl method, qualified by the impl type
    assert code["Container.len"] == [(14, 15)]
    assert _spans(chunks, "test")["tests.put_counts_units"] == [(47, 51)]  # #[test] in #[cfg(test)] mod
    api = {c.symbol: c for c in chunks if c.kind == "api"}
    assert api["Bin.put"].text.endswith("Puts units in; returns false when over capacity.")
    assert any(c.kind == "api" and c.text == "Bins and containers for the inventory." for c in chunks)  # //!
    out = outline(_src("rust/src/lib.rs"))
    assert out is not None
    impls = [d for d in out.decls if d.kind == "impl"]
    assert [(d.signature, d.bases) for d in impls] == [("impl Bin", ()), ("impl Container for Bin", ("Container",))]
    put = next(m for m in impls[0].members if m.name == "put")
    assert [q.name for q in put.params] == ["self", "sku", "units"] and put.returns == "bool"


def test_javascript_require_class_arrow() -> None:
    chunks = chunk_file(_src("js/lib/pricing.js"))
    code = _spans(chunks)
    m = "js.lib.pricing"
    assert code[f"{m}.applyDiscount"] == [(3, 11)]
    assert code[f"{m}.PriceList.priceOf"] == [(19, 22)]
    assert code[f"{m}.sumPrices"] == [(25, 26)]
    out = outline(_src("js/lib/pricing.js"))
    assert out is not None and out.imports[0].module == "./math" and out.imports[0].names == ("round",)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/a.test.ts", "test"), ("src/a.spec.ts", "test"), ("lib/a.test.js", "test"), ("src/a.ts", "code"),
        ("src/FooTest.java", "test"), ("src/Foo.java", "code"), ("src/FooTest.kt", "test"), ("a/FooTests.cs", "test"),
        ("a/FooTest.cs", "test"), ("a/Foo.cs", "code"), ("pkg/a_test.go", "test"), ("pkg/a.go", "code"),
        ("tests/it.rs", "test"), ("src/lib.rs", "code"), ("docs/a.md", "doc"), ("src/test/java/A.java", "test"),
    ],
)
def test_kinds_by_convention(path: str, kind: str) -> None:
    language = language_of(path)
    assert language is not None
    assert kind_of(path, language, ()) == kind


def test_languages_by_extension() -> None:
    expected = {
        "a.ts": "typescript", "a.tsx": "typescript", "a.js": "javascript", "a.jsx": "javascript",
        "a.mjs": "javascript", "a.cjs": "javascript", "A.java": "java", "a.kt": "kotlin", "a.kts": "kotlin",
        "a.cs": "csharp", "a.go": "go", "a.rs": "rust",
    }
    assert {p: language_of(p) for p in expected} == expected


def test_failing_grammar_degrades_to_windows_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> object:
        raise ValueError("Incompatible Language version 99")

    grammars.reset()
    monkeypatch.setitem(grammars.LOADERS, "go", broken)
    try:
        with caplog.at_level(logging.WARNING):
            first = chunk_file(_src("go/inventory/stock.go"))
            second = chunk_file(_src("go/inventory/stock_test.go"))
        lines = [r.getMessage() for r in caplog.records if "grammar" in r.getMessage()]
        assert len(lines) == 1 and "'go'" in lines[0] and "text windows" in lines[0]
        assert first and all(c.symbol is None and c.kind == "code" for c in first)
        assert (first[0].start_line, first[-1].end_line) == (1, 45)
        assert second and all(c.kind == "test" for c in second)
        assert _spans(chunk_file(_src("rust/src/lib.rs")))["Bin.put"] == [(24, 28)]  # other languages unaffected
    finally:
        grammars.reset()


def test_error_heavy_file_still_chunks_what_parses() -> None:
    text = (
        "/** Fine. */\nexport function good(a: number): number {\n  return a;\n}\n\n"
        "class {{{ ))) broken ((( \n  =>=> ;;\n\n"
        "export function alsoGood(): void {}\n"
    )
    chunks = chunk_file(_src("src/broken.ts", text))
    code = _spans(chunks)
    assert code["broken.good"] == [(1, 4)]
    assert {ln for c in chunks for ln in range(c.start_line, c.end_line + 1)} >= {6, 7, 9}  # nothing lost
    out = outline(_src("src/broken.ts", text))
    assert out is not None and out.error_lines > 0


def test_long_type_split_by_member_and_long_member_windowed() -> None:
    methods = "".join(f"    public int m{i}() {{\n        return {i};\n    }}\n\n" for i in range(80))
    big = "        int x = 0;\n" * 200
    text = f"package p;\n\npublic class Big {{\n{methods}    void huge() {{\n{big}    }}\n}}\n"
    chunks = chunk_file(_src("Big.java", text))
    code = _spans(chunks)
    assert code["p.Big"] == [(3, 3)]
    assert code["p.Big.m0"] == [(4, 6)] and code["p.Big.m79"] == [(320, 322)]
    assert code["p.Big.huge"] == [(324, 423), (414, 513), (504, 525)]  # windows, one symbol


def test_ids_stable_across_edits_elsewhere() -> None:
    before = chunk_file(_src("go/inventory/stock.go"))
    text = (POLYGLOT / "go/inventory/stock.go").read_text().replace(
        "// Take removes one unit.", "// Helper is new.\nfunc Helper() {}\n\n// Take removes one unit."
    )
    after = chunk_file(_src("go/inventory/stock.go", text))
    ids = {(c.kind, c.symbol): c.id for c in before}
    moved = {(c.kind, c.symbol): c.id for c in after}
    for key in [("code", "inventory.Stock.Take"), ("api", "inventory.Stock.Take"), ("code", "inventory.Stock.String")]:
        assert ids[key] == moved[key]
    assert next(c for c in after if c.symbol == "inventory.Stock.Take").start_line == 37


def test_polyglot_project_indexes_end_to_end(tmp_path: Path) -> None:
    root = tmp_path / "polyglot"
    shutil.copytree(POLYGLOT, root)
    engine = Engine.open(root)
    try:
        hits = engine.search("Inventory.addItem", 5)
        assert hits[0].chunk.symbol == "ts.src.inventory.Inventory.addItem"
        assert hits[0].chunk.path == "ts/src/inventory.ts"
        assert engine.find_symbol("inventory.Stock.Add")[0].path == "go/inventory/stock.go"
        assert engine.find_symbol("Example.Inventory.Ledger.Post")[0].language == "csharp"
        words = engine.search("discounted price percentage", 10)
        assert any(h.chunk.symbol == "js.lib.pricing.applyDiscount" for h in words)
        languages = {c.language for c in engine.chunks()}
        assert {"typescript", "javascript", "java", "kotlin", "csharp", "go", "rust", "markdown"} <= languages
        kinds = {c.path: c.kind for c in engine.chunks() if c.path.endswith(("Test.kt", "_test.go", ".test.ts"))}
        assert set(kinds.values()) == {"test"} and len(kinds) == 3
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("path", "text", "modules"),
    [
        ("src/app.ts", """
            import { Money } from "./money";
            import type {
              Item,
              Stock,
            } from "./item";
            export { formatMoney as format } from "./money";
            export * from "./units";

            const LIMIT = 10;

            export function total(items: Item[]): number {
              return items.length * LIMIT;
            }
            """, ["./money", "./item", "./money", "./units"]),
        ("go/stock.go", """
            package inventory

            import (
            \t"errors"
            \t"fmt"
            )

            var ErrEmpty = errors.New("empty")

            func Show(n int) string { return fmt.Sprint(n) }
            """, ["errors", "fmt"]),
        ("src/A.java", """
            package com.example;

            import java.util.List;
            import java.util.Map;

            class A {
              int n(List<String> xs) { return xs.size(); }
            }
            """, ["java.util.List", "java.util.Map"]),
    ],
)
def test_import_and_reexport_statements_make_no_chunk(path: str, text: str, modules: list[str]) -> None:
    text = textwrap.dedent(text).lstrip("\n")
    src = _src(path, text)
    out = outline(src)
    assert out is not None and [i.module for i in out.imports] == modules
    lines = text.split("\n")
    chunked = {n for c in chunk_file(src) for n in range(c.start_line, c.end_line + 1)}
    for i, line in enumerate(lines, 1):
        statement = line.strip().startswith(("import", "export {", "export *", '"', ")", "Item,", "Stock,", "} from"))
        if statement:
            assert i not in chunked, (i, line)
        elif line.strip() not in ("", "}") and not line.startswith("package"):
            assert i in chunked, (i, line)  # everything else is still findable (``const LIMIT``, ``var ErrEmpty``)


def test_a_barrel_file_makes_no_chunk_and_keeps_its_reexports() -> None:
    text = 'export { Sprite } from "./sprite";\nexport * as geometry from "./geometry";\nexport * from "./path";\n'
    src = _src("src/shapes/index.ts", text)
    assert chunk_file(src) == []
    out = outline(src)
    assert out is not None and [(i.module, i.line) for i in out.imports] == [("./sprite", 1), ("./geometry", 2), ("./path", 3)]


def test_calls_are_found_the_same_after_the_grammars_are_reloaded() -> None:
    """Reloading grammars (``grammars.reset()``, as the degradation tests do) must not leave a
    compiled query of a freed grammar to a new one that lands at its address: calls then went
    missing in whichever graph or review test ran next."""
    snippets = {
        "typescript": ("a.ts", "function f() { g(); h.k(); }"),
        "java": ("A.java", "class A { void f() { g(); h.k(); } }"),
        "go": ("a.go", "package p\nfunc f() { g(); h.K() }"),
        "rust": ("a.rs", "fn f() { g(); h.k(); }"),
        "kotlin": ("a.kt", "fun f() { g(); h.k() }"),
        "csharp": ("A.cs", "class A { void F() { G(); h.K(); } }"),
    }

    def calls() -> dict[str, list[str]]:
        out = {}
        for language, (path, text) in snippets.items():
            found = analyse(SourceFile(path, "code", language, text, 0.0, "", len(text)))
            assert found is not None
            out[language] = [u.expr for u in found[1].uses]
        return out

    first = calls()
    assert first["typescript"] == ["g", "h.k"] and first["csharp"] == ["G", "h.K"]
    for _ in range(20):
        grammars.reset()
        gc.collect()
        assert calls() == first
