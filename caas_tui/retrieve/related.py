"""A symbol's neighbours across files: the symbol graph's, else a name search's.

From the chain graph when it knows the symbol (resolved calls, bases, tests, doc
mentions, with confidences). Python the graph does not cover (an ``upstream/``
module, say) falls back to name search: callers are code chunks that call the short
name, docs are sections that mention it, callees and bases are read from the
definition's own source. That is weaker, so every entry says where it came from
(``source``: ``graph`` or ``search``). Front ends only render a ``Related``.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from typing import Literal

from caas_tui.errors import CaasError
from caas_tui.graph.edges import relation
from caas_tui.models import Chunk
from caas_tui.retrieve.chain import MAX_HOPS, Hop
from caas_tui.retrieve.engine import Engine

Source = Literal["graph", "search"]
SEARCH_CONFIDENCE = 0.5  # a name match, not a resolved reference
_SEARCH_K = 30


class UnknownSymbol(CaasError, LookupError):
    """Nothing defines the name: neither the graph nor the index knows it."""


@dataclass(frozen=True, slots=True)
class RelatedEntry:
    """One neighbour, reached from ``via`` along ``edge`` (a walk name, read from ``via``)."""

    relation: str  # read from ``via``'s side: calls, called_by, tested_by, documented_by, ...
    edge: str  # the walk name: calls, called_by, tests, documents, ...
    outgoing: bool  # the stored edge points from ``via`` to this neighbour
    symbol: str  # qualified name, or a doc section's id
    label: str  # what to call it on screen (a section's heading path, a symbol)
    kind: str
    path: str
    start_line: int
    end_line: int
    depth: int
    via: str
    confidence: float
    source: Source


@dataclass(frozen=True, slots=True)
class Related:
    symbol: str  # the node the name resolved to
    label: str  # what to call it on screen
    kind: str | None
    path: str | None
    start_line: int | None
    end_line: int | None
    source: Source
    entries: tuple[RelatedEntry, ...]
    truncated: bool = False  # the graph walk stopped at ``max_hops``
    alternatives: tuple[str, ...] = ()  # other definitions the name could mean

    def children(self, via: str) -> list[RelatedEntry]:
        return [e for e in self.entries if e.via == via]


def related(engine: Engine, symbol: str, depth: int, *, max_hops: int = MAX_HOPS) -> Related:
    """The neighbourhood of ``symbol``: the graph's walk to ``depth`` hops, else direct
    neighbours by name search. Raises ``UnknownSymbol`` if nothing defines it."""
    found = graph_related(engine, symbol, depth, max_hops=max_hops)
    if found is not None:
        return found
    defs = [c for c in engine.find_symbol(symbol) if c.symbol and c.language == "python"]
    if not defs:
        raise UnknownSymbol(f"unknown symbol {symbol!r}")
    others = sorted({c.symbol for c in defs[1:] if c.symbol and c.symbol != defs[0].symbol})
    return search_related(engine, defs[0], tuple(others))


def graph_related(engine: Engine, symbol: str, depth: int, *, max_hops: int = MAX_HOPS) -> Related | None:
    """The graph's neighbourhood of ``symbol``, or ``None`` when the graph does not know it."""
    nodes = engine.graph.find(symbol)
    if not nodes:
        return None
    chain = engine.related(nodes[0].id, depth, max_hops=max_hops)
    node = chain.root_node
    return Related(
        symbol=chain.root,
        label=node.label if node else chain.root,
        kind=node.kind if node else None,
        path=node.path if node else None,
        start_line=node.start_line if node else None,
        end_line=node.end_line if node else None,
        source="graph",
        entries=tuple(_entry(h) for h in chain.hops),
        truncated=chain.truncated,
        alternatives=tuple(n.id for n in nodes[1:]),
    )


def _entry(hop: Hop) -> RelatedEntry:
    return RelatedEntry(
        relation=relation(hop.edge, hop.outgoing), edge=hop.edge, outgoing=hop.outgoing, symbol=hop.to,
        label=hop.label, kind=hop.kind, path=hop.path, start_line=hop.start_line, end_line=hop.end_line,
        depth=hop.depth, via=hop.from_, confidence=round(hop.confidence, 3), source="graph",
    )


# A search finding, read from the target's side: (relation, walk name, outgoing).
_CALLED_BY = ("called_by", "called_by", False)
_TESTED_BY = ("tested_by", "tests", False)
_DOCUMENTED_BY = ("documented_by", "documents", False)
_UPSTREAM = ("mentioned_in_upstream", "mentions_upstream", False)
_USES = {"calls": ("calls", "calls", True), "inherits": ("inherits", "inherits", True)}


def search_related(engine: Engine, target: Chunk, alternatives: tuple[str, ...] = ()) -> Related:
    """Direct neighbours of the definition ``target`` found by name search."""
    assert target.symbol is not None
    via = target.symbol
    short = target.short_symbol or target.symbol
    found: dict[tuple[str, str], RelatedEntry] = {}

    def add(how: tuple[str, str, bool], chunk: Chunk) -> None:
        name = chunk.symbol or f"{chunk.path}:{chunk.start_line}"
        key = (how[0], name)
        if name != target.symbol and key not in found:
            found[key] = RelatedEntry(
                relation=how[0], edge=how[1], outgoing=how[2], symbol=name, label=chunk.symbol or name,
                kind=chunk.kind, path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line, depth=1,
                via=via, confidence=SEARCH_CONFIDENCE, source="search",
            )

    call = re.compile(rf"(?<![\w]){re.escape(short)}\s*\(")
    for hit in engine.search(short, _SEARCH_K, mode="bm25", kinds=("code", "test")):
        if call.search(hit.chunk.text):
            add(_TESTED_BY if hit.chunk.kind == "test" else _CALLED_BY, hit.chunk)
    word = re.compile(rf"(?<![\w]){re.escape(short)}(?![\w])")
    for hit in engine.search(short, _SEARCH_K, mode="bm25", kinds=("doc", "upstream")):
        if word.search(hit.chunk.text):
            add(_DOCUMENTED_BY if hit.chunk.kind == "doc" else _UPSTREAM, hit.chunk)
    for used, name in uses(target.text):
        defs = engine.find_symbol(name, kinds=("code", "upstream"))
        if len(defs) == 1:  # an ambiguous short name says nothing about which one is meant
            add(_USES[used], defs[0])
    return Related(
        symbol=target.symbol, label=target.symbol, kind=target.kind, path=target.path, start_line=target.start_line,
        end_line=target.end_line, source="search", entries=tuple(found.values()), alternatives=alternatives,
    )


def uses(text: str) -> list[tuple[str, str]]:
    """``(calls|inherits, name)`` for the calls and bases written in a definition."""
    source = textwrap.dedent(text)
    # A class chunk is its header only when the methods are chunks of their own.
    for attempt in (source, source.rstrip() + "\n    pass\n"):
        try:
            tree = ast.parse(attempt)
            break
        except (SyntaxError, ValueError):
            continue
    else:
        return []
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            out.extend(("inherits", n) for b in node.bases if (n := _name(b)))
        elif isinstance(node, ast.Call) and (n := _name(node.func)):
            out.append(("calls", n))
    return list(dict.fromkeys(out))


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
