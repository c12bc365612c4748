"""``related``: a symbol's neighbours across files.

From the chain graph when it knows the symbol (resolved calls, bases, tests, doc
mentions, with confidences). Python the graph does not cover (an ``upstream/``
module, say) falls back to name search: callers are code chunks that call the
short name, docs are sections that mention it, callees and bases are read from the
definition's own source. That is weaker, so the result says ``source: "search"``.
"""

from __future__ import annotations

import ast
import re
import textwrap

from caas_tui.mcp_server.results import Neighbour, RelatedResult
from caas_tui.models import Chunk
from caas_tui.retrieve.chain import Hop
from caas_tui.retrieve.engine import Engine

MAX_HOPS = 200
# Stored edges point from the user to the used; read backwards they need another name.
_INCOMING = {
    "imports": "imported_by", "inherits": "inherited_by", "overrides": "overridden_by", "tests": "tested_by",
    "documents": "documented_by", "mentions_upstream": "mentioned_in_upstream",
}
_SEARCH_CONFIDENCE = 0.5  # a name match, not a resolved reference
_SEARCH_K = 30


class UnknownSymbol(LookupError):
    pass


def related(engine: Engine, symbol: str, depth: int) -> tuple[RelatedResult, list[str]]:
    """The neighbourhood of ``symbol`` and notes to show with it (ambiguity, hop cap)."""
    nodes = engine.graph.find(symbol)
    if nodes:
        return _from_graph(engine, nodes[0].id, depth, [n.id for n in nodes[1:]])
    defs = [c for c in engine.find_symbol(symbol) if c.symbol and c.language == "python"]
    if defs:
        others = sorted({c.symbol for c in defs[1:] if c.symbol and c.symbol != defs[0].symbol})
        return _from_search(engine, defs[0]), _ambiguity(defs[0].symbol or symbol, others)
    raise UnknownSymbol(symbol)


def _ambiguity(chosen: str, others: list[str]) -> list[str]:
    if not others:
        return []
    more = f" and {len(others) - 5} more" if len(others) > 5 else ""
    return [f"the name is ambiguous: showing {chosen}; also {', '.join(others[:5])}{more} (ask with a qualified name)"]


def _from_graph(engine: Engine, node_id: str, depth: int, others: list[str]) -> tuple[RelatedResult, list[str]]:
    chain = engine.related(node_id, depth, max_hops=MAX_HOPS)
    node = chain.root_node
    notes = _ambiguity(node_id, others)
    if chain.truncated:
        notes.append(f"the graph walk stopped at {MAX_HOPS} hops; use depth=1")
    result = RelatedResult(
        symbol=chain.root,
        kind=node.kind if node else None,
        path=node.path if node else None,
        start_line=node.start_line if node else None,
        end_line=node.end_line if node else None,
        source="graph",
        neighbours=[_neighbour(h) for h in chain.hops],
        truncated=chain.truncated,
    )
    return result, notes


def _neighbour(hop: Hop) -> Neighbour:
    relation = hop.edge if hop.outgoing else _INCOMING.get(hop.edge, hop.edge)
    return Neighbour(
        relation=relation, symbol=hop.to, kind=hop.kind, path=hop.path, start_line=hop.start_line,
        end_line=hop.end_line, depth=hop.depth, via=hop.from_, confidence=round(hop.confidence, 3),
    )


def _from_search(engine: Engine, target: Chunk) -> RelatedResult:
    assert target.symbol is not None
    short = target.short_symbol or target.symbol
    found: dict[tuple[str, str], Neighbour] = {}

    def add(relation: str, chunk: Chunk, confidence: float) -> None:
        name = chunk.symbol or f"{chunk.path}:{chunk.start_line}"
        key = (relation, name)
        if name != target.symbol and key not in found:
            found[key] = Neighbour(
                relation=relation, symbol=name, kind=chunk.kind, path=chunk.path, start_line=chunk.start_line,
                end_line=chunk.end_line, depth=1, via=target.symbol or short, confidence=confidence,
            )

    call = re.compile(rf"(?<![\w]){re.escape(short)}\s*\(")
    for hit in engine.search(short, _SEARCH_K, mode="bm25", kinds=("code", "test")):
        if call.search(hit.chunk.text):
            add("tested_by" if hit.chunk.kind == "test" else "called_by", hit.chunk, _SEARCH_CONFIDENCE)
    word = re.compile(rf"(?<![\w]){re.escape(short)}(?![\w])")
    for hit in engine.search(short, _SEARCH_K, mode="bm25", kinds=("doc", "upstream")):
        if word.search(hit.chunk.text):
            relation = "documented_by" if hit.chunk.kind == "doc" else "mentioned_in_upstream"
            add(relation, hit.chunk, _SEARCH_CONFIDENCE)
    for relation, name in _uses(target.text):
        defs = engine.find_symbol(name, kinds=("code", "upstream"))
        if len(defs) == 1:  # an ambiguous short name says nothing about which one is meant
            add(relation, defs[0], _SEARCH_CONFIDENCE)
    return RelatedResult(
        symbol=target.symbol, kind=target.kind, path=target.path, start_line=target.start_line,
        end_line=target.end_line, source="search", neighbours=list(found.values()),
    )


def _uses(text: str) -> list[tuple[str, str]]:
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
