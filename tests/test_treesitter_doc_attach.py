"""Which comment documents a declaration when a plain comment stands between the two
(`//@Immutable` in commons-lang3, lint and coverage directives in TypeScript)."""

from __future__ import annotations

import textwrap

import pytest

from caas_tui.ingest import chunk_file
from caas_tui.ingest.treesitter import outline
from caas_tui.models import SourceFile
from caas_tui.sources.entries import kind_of, language_of


def _src(rel: str, text: str) -> SourceFile:
    text = textwrap.dedent(text)
    language = language_of(rel)
    assert language is not None
    return SourceFile(rel, kind_of(rel, language, ()), language, text, 0.0, "", len(text))


CASES = [
    ("src/Util.java", """\
        package org.example;

        /**
         * Operations on strings.
         */
        //@Immutable
        public class Util {
            /**
             * Checks whether a text is blank.
             */
            // From another project, under its licence
            public static boolean isBlank(String s) { return s == null; }
        }
        """, {"org.example.Util": (3, 7), "org.example.Util.isBlank": (8, 12)}),  # a class: its header
    ("src/math.ts", """\
        /** Adds two numbers. */
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        export function add(a: any, b: any) { return a + b; }

        /** Subtracts one number from another. */
        /* istanbul ignore next */
        export function sub(a: number, b: number) { return a - b; }
        """, {"math.add": (1, 3), "math.sub": (5, 7)}),
    ("src/main/kotlin/Shelf.kt", """\
        package shop

        /** Counts the items on a shelf. */
        // TODO: cache
        fun count(items: List<String>): Int = items.size
        """, {"shop.count": (3, 5)}),
    ("src/lib.rs", """\
        /// Doubles a number.
        // see the benchmarks
        pub fn double(x: i32) -> i32 { x * 2 }
        """, {"double": (1, 3)}),
]


@pytest.mark.parametrize(("rel", "text", "spans"), CASES, ids=[c[0] for c in CASES])
def test_a_plain_comment_between_doc_and_declaration_keeps_the_doc(
    rel: str, text: str, spans: dict[str, tuple[int, int]]
) -> None:
    src = _src(rel, text)
    out = outline(src)
    assert out is not None
    decls = {d.symbol: d for d in out.walk()}
    for symbol, (start, end) in spans.items():
        doc = decls[symbol].doc
        assert doc is not None, symbol
        assert "//" not in doc.text and "istanbul" not in doc.text  # the plain comment is not doc text
        assert doc.start == start
        code = [(c.start_line, c.end_line) for c in chunk_file(src) if c.kind == "code" and c.symbol == symbol]
        assert code == [(start, end)]
        assert any(c.kind == "api" and c.symbol == symbol for c in chunk_file(src))


def test_a_plain_comment_alone_is_no_doc_and_a_blank_line_still_separates() -> None:
    out = outline(_src("src/A.java", """\
        package p;

        /** Documents nothing: a blank line follows. */

        // a plain note
        public class A {
            // a plain note
            void f() {}
        }
        """))
    assert out is not None
    decls = {d.symbol: d for d in out.walk()}
    assert decls["p.A"].doc is None and decls["p.A.f"].doc is None


def test_go_doc_is_the_comment_group_right_above() -> None:
    out = outline(_src("pkg/a.go", """\
        package pkg

        // Sum adds the numbers.
        // nolint:gocyclo
        func Sum(xs []int) int { return 0 }
        """))
    assert out is not None
    doc = next(d for d in out.walk() if d.name == "Sum").doc
    assert doc is not None and doc.text.startswith("Sum adds the numbers.") and "nolint" in doc.text


def test_kotlin_top_level_annotation_with_arguments_above_a_modifier_keeps_doc_and_span() -> None:
    # tree-sitter-kotlin reads `@Suppress("X")` + newline + `public fun` at the top level as an
    # annotated expression beside the function, not as the function's modifier
    src = _src("src/main/kotlin/Deferred.kt", """\
        package shop

        /**
         * Creates a deferred value.
         */
        @Suppress("FunctionName")
        public fun <T> Deferred(parent: Job? = null): Deferred<T> = DeferredImpl(parent)

        /** Cancels it. */
        @JvmName("cancel")
        internal suspend fun cancelIt() {}
        """)
    out = outline(src)
    assert out is not None
    decls = {d.symbol: d for d in out.walk()}
    assert set(decls) == {"shop.Deferred", "shop.cancelIt"}
    made, cancel = decls["shop.Deferred"], decls["shop.cancelIt"]
    assert made.doc is not None and made.doc.text == "Creates a deferred value."
    assert (made.start, made.end) == (3, 7) and [p.name for p in made.params] == ["parent"]
    assert cancel.doc is not None and (cancel.start, cancel.end) == (9, 11)
    assert "Suppress" not in made.signature
