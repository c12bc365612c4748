"""Graph-expanded retrieval: bring the graph neighbours of the top hits into the results.

A doc claim about ``Scene.destroy`` is checked against more than the chunk that
matched the words: the code ``destroy`` calls, the tests that exercise it, the
base method it overrides, the docstring above it. Those share few words with
the query, so neither channel finds them; the graph does.

Scoring (general rules, no per-project tuning): a neighbour reached from a seed
hit with fused score ``s`` over edges of confidence ``c1, c2`` scores
``s * c1 * 0.5`` at one hop and ``s * c1 * 0.5 * c2 * 0.5`` at two. A chunk the
channels already found keeps its own score plus that bonus (two independent
signals agree), and nothing brought in or lifted by a seed ever scores above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from caas_tui.graph import SymbolGraph
from caas_tui.models import Chunk, Hit

EXPAND_TOP = 5  # seeds: the hits whose neighbours are brought in
EXPAND_DEPTH = 2
HOP_DISCOUNT = 0.5
# ``imports`` is left out: it says a module depends on another, not on which part,
# and would pull in module preambles (import lists) as "evidence".
EXPAND_EDGES = frozenset({"calls", "called_by", "inherits", "overrides", "tests", "documents", "mentions_upstream"})
_PASS_THROUGH = frozenset({"class", "function", "method"})  # sections and modules are not walked through
_BELOW = 1e-9  # how far under its seed a neighbour is capped


class NodeChunks:
    """Graph node <-> indexed chunk, by path, symbol and lines."""

    def __init__(self, graph: SymbolGraph, chunks: Iterable[Chunk]) -> None:
        self._to_chunk: dict[str, str] = {}
        self._to_nodes: dict[str, list[str]] = {}
        sections = {(n.path, n.start_line, n.end_line): n.id for n in graph.nodes.values() if n.kind in ("doc", "upstream", "api")}
        for chunk in sorted(chunks, key=lambda c: (c.path, c.start_line)):
            node_id: str | None = None
            if chunk.kind in ("code", "test") and chunk.symbol:
                node = graph.nodes.get(chunk.symbol)
                node_id = node.id if node is not None and node.path == chunk.path else None
            else:
                node_id = sections.get((chunk.path, chunk.start_line, chunk.end_line))
                if node_id is None and chunk.kind == "api":
                    node_id = f"{chunk.path}#{chunk.symbol}" if f"{chunk.path}#{chunk.symbol}" in graph.nodes else None
            if node_id is None:
                continue
            self._to_nodes.setdefault(chunk.id, []).append(node_id)
            # A definition's first chunk stands for it (a class header, a function's first window).
            self._to_chunk.setdefault(node_id, chunk.id)

    def chunk_for(self, node_id: str) -> str | None:
        return self._to_chunk.get(node_id)

    def nodes_for(self, chunk_id: str) -> list[str]:
        return list(self._to_nodes.get(chunk_id, ()))


@dataclass(frozen=True, slots=True)
class _Reached:
    score: float
    via: str
    cap: float  # the seed's score


def neighbour_scores(
    seeds: Iterable[Hit],
    graph: SymbolGraph,
    links: NodeChunks,
    *,
    depth: int = EXPAND_DEPTH,
    discount: float = HOP_DISCOUNT,
) -> dict[str, _Reached]:
    """Best discounted score (and why) for every chunk within ``depth`` hops of a seed."""
    best: dict[str, _Reached] = {}
    for seed in seeds:
        start = links.nodes_for(seed.chunk.id)
        seen = set(start)
        frontier = [(n, seed.score, "") for n in start]
        for level in range(1, depth + 1):
            nxt: list[tuple[str, float, str]] = []
            for node_id, score, via in frontier:
                if level > 1 and graph.nodes[node_id].kind not in _PASS_THROUGH:
                    continue
                for nb in graph.neighbours(node_id):
                    if nb.name not in EXPAND_EDGES or nb.other in seen:
                        continue
                    seen.add(nb.other)
                    reached = score * nb.edge.confidence * discount
                    step = f"{nb.name} <- {graph.nodes[node_id].label}"
                    why = f"{step} <- {via}" if via else step
                    nxt.append((nb.other, reached, why))
                    cid = links.chunk_for(nb.other)
                    if cid is not None and cid != seed.chunk.id and (cid not in best or reached > best[cid].score):
                        best[cid] = _Reached(reached, why, seed.score)
            frontier = nxt
    return best


def expand_hits(
    candidates: list[Hit],
    k: int,
    graph: SymbolGraph,
    links: NodeChunks,
    chunks: Mapping[str, Chunk],
    *,
    allow: Callable[[Chunk], bool] | None = None,
    top: int = EXPAND_TOP,
    depth: int = EXPAND_DEPTH,
    discount: float = HOP_DISCOUNT,
    boost: bool = True,
) -> list[Hit]:
    """The best ``k`` of ``candidates`` (ranked hits, best first) and the graph neighbours of the top ``top``.

    ``boost=False`` only adds chunks the channels did not find; by default a found
    chunk that is also a neighbour gets the bonus too. ``allow`` applies the
    search's own filters (kinds, path glob) to neighbours.
    """
    if not candidates or k <= 0:
        return []
    reached = neighbour_scores(candidates[:top], graph, links, depth=depth, discount=discount)
    scored: list[tuple[float, int, Hit]] = []
    known = {h.chunk.id for h in candidates}
    for order, hit in enumerate(candidates):
        r = reached.get(hit.chunk.id)
        if r is not None and boost and hit.score < r.cap:
            lifted = min(hit.score + r.score, r.cap - _BELOW)
            if lifted > hit.score:
                hit = replace(hit, score=lifted, via=hit.via or r.via)
        scored.append((hit.score, order, hit))
    extra = len(candidates)
    for cid, r in sorted(reached.items(), key=lambda item: -item[1].score):
        chunk = chunks.get(cid)
        if cid in known or chunk is None or (allow is not None and not allow(chunk)):
            continue
        extra += 1
        scored.append((min(r.score, r.cap - _BELOW), extra, Hit(chunk=chunk, rank=0, score=min(r.score, r.cap - _BELOW), via=r.via)))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [replace(hit, rank=i) for i, (_s, _o, hit) in enumerate(scored[:k], 1)]
