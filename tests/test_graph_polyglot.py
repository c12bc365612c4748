"""The symbol graph on the tree-sitter languages: imports, bases, calls, tests and docs
per language, and the readers of the graph (chain, --expand, related, the chain view)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.graph import Fragment, SymbolGraph, build_graph, extract_fragment, load_fragments, save_fragments
from caas_tui.ingest import chunk_file
from caas_tui.ingest.treesitter import grammars
from caas_tui.models import SourceFile
from caas_tui.retrieve.chain import chain
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.related import related
from caas_tui.sources.entries import kind_of, language_of
from caas_tui.tui.chain_port import ChainItem, build_chains

from .conftest import write

POLYGLOT = Path(__file__).parent / "fixtures" / "polyglot"
TS = "ts.src"
JAVA = "com.example.inventory"
# Added to a copy of the fixture: a cross-file caller of a TS method, and the module
# ``inventory.ts`` imports from.
EXTRA = {
    "ts/src/restock.ts": """
        import { Inventory, Item } from "./inventory";

        /** Refills one SKU to a fixed level. */
        export function refill(inv: Inventory<Item>, sku: string): number {
          return inv.addItem({ sku, quantity: 10 });
        }
        """,
    "ts/src/money.ts": """
        /** An amount of money in cents. */
        export interface Money {
          cents: number;
        }

        /** Formats money as a string. */
        export function formatMoney(m: Money): string {
          return String(m.cents / 100);
        }
        """,
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("polyglot") / "proj"
    shutil.copytree(POLYGLOT, root)
    for rel, text in EXTRA.items():
        write(root, rel, text)
    return root


def _fragments(root: Path) -> list[Fragment]:
    out = []
    for f in sorted(root.rglob("*")):
        rel = f.relative_to(root).as_posix()
        language = language_of(rel)
        if not f.is_file() or language is None or rel.startswith("."):
            continue
        text = f.read_text()
        src = SourceFile(rel, kind_of(rel, language, ()), language, text, 0.0, rel, len(text))
        out.append(extract_fragment(src, chunk_file(src)))
    return out


@pytest.fixture(scope="module")
def graph(project: Path) -> SymbolGraph:
    return build_graph(_fragments(project))


@pytest.fixture(scope="module")
def engine(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    eng = Engine.open(project, index_dir=tmp_path_factory.mktemp("polyglot-index"))
    try:
        yield eng
    finally:
        eng.close()


def _edges(graph: SymbolGraph) -> dict[tuple[str, str, str], float]:
    return {(e.src, e.kind, e.dst): e.confidence for e in graph.edges}


def test_typescript_imports_calls_and_tests(graph: SymbolGraph) -> None:
    edges = _edges(graph)
    # Named import + a typed parameter: ``inv: Inventory<Item>`` then ``inv.addItem(...)``.
    call = edges[(f"{TS}.restock.refill", "calls", f"{TS}.inventory.Inventory.addItem")]
    assert 0.5 < call < 1.0  # through an instance: the method could be overridden below
    assert edges[(f"{TS}.inventory.describe", "calls", f"{TS}.money.formatMoney")] == 1.0  # imported function
    assert (f"{TS}.inventory", "imports", f"{TS}.money") in edges
    # ``describe``/``it`` blocks are not declarations: the test module itself tests what it calls.
    assert (f"{TS}.inventory.test", "tests", f"{TS}.inventory.Inventory.addItem") in edges
    assert (f"{TS}.inventory.test", "tests", f"{TS}.inventory.Inventory") in edges  # ``new Inventory(...)``
    # A name the test file does not import is not the project's ``describe``.
    assert not any(dst == f"{TS}.inventory.describe" for (src, _k, dst) in edges if src.startswith(f"{TS}.inventory.test"))


def test_java_kotlin_csharp_bases_members_and_tests(graph: SymbolGraph) -> None:
    edges = _edges(graph)
    assert (f"{JAVA}.Warehouse", "inherits", f"{JAVA}.Storage") in edges  # ``implements Storage``
    assert (f"{JAVA}.Warehouse.store", "overrides", f"{JAVA}.Storage.store") in edges
    assert (f"{JAVA}.WarehouseTest.storeAddsUnits", "tests", f"{JAVA}.Warehouse.store") in edges  # ``Warehouse<String> w``
    assert (f"{JAVA}.ShelfTest.putFillsSlots", "tests", f"{JAVA}.Shelf.put") in edges  # Kotlin ``val s = Shelf(1)``
    assert (f"{JAVA}.Shelf.empty", "calls", f"{JAVA}.Shelf") in edges  # companion object building its class
    # C#: a test in another namespace reaches ``Ledger`` through the enclosing namespace.
    assert ("Example.Inventory.Tests.LedgerTests.PostReturnsDelta", "tests", "Example.Inventory.Ledger.Post") in edges
    assert ("Example.Inventory.Ledger.Post", "calls", "Example.Inventory.Ledger.Entry") in edges  # ``new Entry(...)``
    kinds = {graph.nodes[i].kind for i in (f"{JAVA}.Storage", f"{JAVA}.Warehouse.Zone", "Example.Inventory.Slot")}
    assert kinds == {"class"}  # interfaces, enums and structs walk like classes


def test_go_and_rust_receivers_impls_and_tests(graph: SymbolGraph) -> None:
    edges = _edges(graph)
    # ``s := NewStock("a")`` returns ``*Stock``; ``s.Add(2)`` is Stock's method.
    assert ("inventory.TestAdd", "tests", "inventory.Stock.Add") in edges
    assert ("inventory.TestAdd", "tests", "inventory.NewStock") in edges
    assert graph.nodes["inventory.TestAdd"].path == "go/inventory/stock_test.go"
    # ``impl Container for Bin`` makes Bin implement the trait; ``self.len()`` is that impl's method.
    assert ("Bin", "inherits", "Container") in edges
    assert ("Bin.len", "overrides", "Container.len") in edges
    assert ("Bin.put", "calls", "Bin.len") in edges
    # ``#[test]`` inside ``mod tests`` is a test; ``Bin::new(3)`` in it tests ``Bin.new``.
    assert ("tests.put_counts_units", "tests", "Bin.new") in edges
    # An integration test names its crate first: ``use inventory::Bin``.
    assert ("rust.tests.integration.new_bin_is_empty", "tests", "Bin.new") in edges


def test_docs_and_doc_comments_name_symbols(graph: SymbolGraph) -> None:
    edges = _edges(graph)
    guide = {dst for (src, kind, dst) in edges if src.startswith("docs/guide.md#") and kind == "documents"}
    assert {f"{TS}.inventory.Inventory.addItem", "inventory.Stock.Add", "Bin.put", "inventory.NewStock",
            "Example.Inventory.Ledger.Post"} <= guide
    # Every doc comment documents its own declaration (overloads get one section each).
    assert ("go/inventory/stock.go#inventory.Stock.Add", "documents", "inventory.Stock.Add") in edges
    store_docs = [k for k in edges if k[2] == f"{JAVA}.Warehouse.store" and k[1] == "documents" and "Warehouse.java#" in k[0]]
    assert len(store_docs) == 2
    node = graph.nodes["go/inventory/stock.go#inventory.Stock.Add"]
    assert (node.kind, node.start_line, node.end_line) == ("api", 28, 28)


def test_link_tags_in_doc_comments_are_mentions(tmp_path: Path) -> None:
    write(tmp_path, "src/a.ts", """
        export class Cache {
          /** Drops everything. */
          clear(): void {}
        }

        /** Resets the world; see {@link Cache#clear} and {@link Cache}. */
        export function reset(c: Cache): void {}
        """)
    graph = build_graph(_fragments(tmp_path))
    edges = _edges(graph)
    assert ("src/a.ts#a.reset", "documents", "a.Cache.clear") in edges
    assert ("src/a.ts#a.reset", "documents", "a.Cache") in edges


def test_fragments_round_trip_and_degrade(tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frags = {f.path: f for f in _fragments(project)}
    save_fragments(tmp_path, frags)
    loaded = load_fragments(tmp_path)
    assert loaded == frags
    assert loaded["rust/src/lib.rs"].language == "rust"
    assert any(d.test for d in loaded["rust/src/lib.rs"].defs)

    def broken() -> object:
        raise OSError("no grammar")

    monkeypatch.setitem(grammars.LOADERS, "go", broken)
    grammars.reset()
    try:
        text = (project / "go/inventory/stock.go").read_text()
        src = SourceFile("go/inventory/stock.go", "code", "go", text, 0.0, "x", len(text))
        frag = extract_fragment(src, chunk_file(src))
        assert frag.defs == () and frag.module is None  # no symbols, no crash
    finally:
        monkeypatch.undo()
        grammars.reset()


def test_chain_of_ts_method_shows_caller_test_and_docs(project: Path, engine: Engine,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", "--root", str(project), "--index-dir", str(engine.store.directory), "--json",
                 "Inventory.addItem"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["root"] == f"{TS}.inventory.Inventory.addItem"
    hops = {(h["edge"], h["to"]) for h in payload["hops"]}
    assert ("called_by", f"{TS}.restock.refill") in hops
    assert ("tests", f"{TS}.inventory.test") in hops
    assert ("documents", "docs/guide.md#Inventory guide > TypeScript") in hops


def test_chain_of_java_class_and_go_method(graph: SymbolGraph) -> None:
    warehouse = chain(graph, "Warehouse", 1)
    assert warehouse.root == f"{JAVA}.Warehouse"
    assert ("inherits", f"{JAVA}.Storage") in {(h.edge, h.to) for h in warehouse.hops}
    add = chain(graph, "Stock.Add", 1)
    tests = [h for h in add.hops if h.edge == "tests"]
    assert [(h.to, h.path) for h in tests] == [("inventory.TestAdd", "go/inventory/stock_test.go")]


def test_expand_related_and_chain_view(engine: Engine) -> None:
    plain = engine.search("addItem", 2, kinds=["code"])
    assert plain and plain[0].chunk.symbol == f"{TS}.inventory.Inventory.addItem"
    expanded = engine.search("addItem", 2, kinds=["code", "test"], expand=True)
    added = {h.chunk.symbol: h for h in expanded if h.via}
    assert f"{TS}.restock.refill" in added
    assert added[f"{TS}.restock.refill"].via.startswith("called_by <- ")

    found = related(engine, "Stock.Add", 1)
    assert found.symbol == "inventory.Stock.Add" and found.source == "graph"
    rel = {(n.relation, n.symbol) for n in found.entries}
    assert ("tested_by", "inventory.TestAdd") in rel
    assert ("documented_by", "docs/guide.md#Inventory guide > Go") in rel

    roots = build_chains(engine, ["Warehouse"])
    assert roots and roots[0].path == "java/src/main/java/com/example/inventory/Warehouse.java"

    def walk(item: ChainItem) -> Iterator[ChainItem]:
        yield item
        for child in item.children:
            yield from walk(child)

    labels = {(i.label, i.symbol) for i in walk(roots[0])}
    assert any(label.startswith("inherits") for label, _s in labels)
    assert any(symbol == f"{JAVA}.Storage" for _l, symbol in labels)


def test_find_symbol_covers_every_code_language(engine: Engine) -> None:
    found = engine.find_symbol("Stock.Add")
    assert [(c.symbol, c.path) for c in found if c.kind == "code"] == [("inventory.Stock.Add", "go/inventory/stock.go")]
    assert {c.symbol for c in engine.find_symbol("Post")} == {"Example.Inventory.Ledger.Post"}
    assert {c.symbol for c in engine.find_symbol("Bin::put")} == {"Bin.put"}
    assert {c.symbol for c in engine.find_symbol("Warehouse.store")} == {f"{JAVA}.Warehouse.store"}


def test_names_imported_through_a_barrel_resolve_to_their_definition(tmp_path: Path) -> None:
    write(tmp_path, "src/shapes/sprite.ts", """
        export class Sprite {
          move(): void {}
        }

        export function spawn(): Sprite {
          return new Sprite();
        }
        """)
    write(tmp_path, "src/shapes/index.ts", """
        export { Sprite } from "./sprite";
        export { spawn as create, type Sprite as Shape } from "./sprite";
        export * from "./path";
        export * as geometry from "./geometry";
        """)
    write(tmp_path, "src/app.ts", """
        import { Sprite, create } from "./shapes";

        export function run(): void {
          const s = create();
          s.move();
          new Sprite();
        }
        """)
    frags = {f.path: f for f in _fragments(tmp_path)}
    barrel = frags["src/shapes/index.ts"].defs[0]
    assert set(barrel.imports) == {("Sprite", "shapes.sprite.Sprite"), ("create", "shapes.sprite.spawn"),
                                   ("Shape", "shapes.sprite.Sprite"), ("*", "shapes.path"), ("geometry", "shapes.geometry")}
    edges = _edges(build_graph(list(frags.values())))
    assert edges[("app.run", "calls", "shapes.sprite.spawn")] == 1.0  # renamed on the way: ``spawn as create``
    assert ("app.run", "calls", "shapes.sprite.Sprite") in edges  # ``new Sprite()``
    assert ("app.run", "calls", "shapes.sprite.Sprite.move") in edges  # ``create()`` returns a Sprite
    assert ("shapes", "imports", "shapes.sprite") in edges


def test_rust_macro_is_not_a_call_of_the_function_named_like_it(tmp_path: Path) -> None:
    write(tmp_path, "rust/src/lib.rs", """
        macro_rules! total {
            ($x:expr) => { $x };
        }

        pub fn total(n: u32) -> u32 {
            n
        }

        pub fn report(n: u32) -> u32 {
            total!(n)
        }

        pub fn checked(n: u32) -> u32 {
            println!("{}", total(n));
            n
        }

        #[cfg(test)]
        mod tests {
            use super::*;

            #[test]
            fn checked_keeps_n() {
                assert_eq!(checked(total(2)), 2);
            }
        }
        """)
    edges = _edges(build_graph(_fragments(tmp_path)))
    assert not any(src == "report" and dst == "total" for (src, _k, dst) in edges)  # ``total!`` is the macro
    assert ("checked", "calls", "total") in edges  # a call inside a macro's arguments still counts
    assert ("tests.checked_keeps_n", "tests", "checked") in edges  # ``assert_eq!(checked(...), 2)``
    assert ("tests.checked_keeps_n", "tests", "total") in edges


def test_a_name_behind_export_star_resolves_through_the_barrel(tmp_path: Path) -> None:
    write(tmp_path, "src/shapes/path.ts", """
        export function trace(): void {}
        """)
    write(tmp_path, "src/shapes/index.ts", """
        export * from "./path";
        """)
    write(tmp_path, "src/app.ts", """
        import { trace } from "./shapes";

        export function run(): void {
          trace();
        }
        """)
    edges = _edges(build_graph(_fragments(tmp_path)))
    assert ("app.run", "calls", "shapes.path.trace") in edges
