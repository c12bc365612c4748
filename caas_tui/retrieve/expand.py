"""Graph-expanded retrieval: bring the graph neighbours of the top hits into the results.

A doc claim about ``Scene.destroy`` is checked against more than the chunk that
matched the words: the code ``destroy`` calls, the tests that exercise it, the
base method it overrides, the constants it reads. Those may share few words
with the query, so neither channel finds them; the graph does.

What is added (general rules, no per-project tuning): the first ``k`` hits stay
as they are, in their order, and up to ``k`` neighbours of the top 5 are added.
A neighbour reached from a seed hit with score ``s`` over edges of confidence
``c1, c2`` scores ``s * c1 * 0.5`` at one hop and ``s * c1 * 0.5 * c2 * 0.5`` at
two, never above the seed; the surest are added first. Neighbours are evidence
only (code, tests, upstream pages), and one whose lines a listed hit already
shows is skipped.

Why added rather than competing for the ``k`` places: fused RRF scores sit in a
narrow band (rank 1 and rank 10 differ by ~15%). Scored as above, a neighbour
never outranked a top-10 hit on the demo project, so competing made expansion a
no-op; adding the bonus to hits that were also neighbours piled them under the
top hit and cost single-file recall@5 (0.95 -> 0.68). See ``bench/chains.py``.
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
EVIDENCE_KINDS = frozenset({"code", "test", "upstream"})
EXPAND_EDGES = frozenset({"calls", "called_by", "inherits", "overrides", "tests", "documents", "mentions_upstream"})
_PASS_THROUGH = frozenset({"class", "function", "method"})  # sections and modules are not walked through
_BELOW = 1e-9  # how far under its seed a neighbour is capped


class NodeChunks:
    """Graph node <-> indexed chunk, by path, symbol and lines."""

    def __init__(self, graph: SymbolGraph, chunks: Iterable[Chunk]) -> None:
        self._to_chunk: dict[str, str] = {}
        self._to_nodes: dict[str, list[str]] = {}
        sections = {(n.path, n.start_line, n.end_line): n.id for n in graph.nodes.values() if n.kind in ("doc", "upstream", "api")}
        chunks_list = sorted(chunks, key=lambda c: (c.path, c.start_line))
        for chunk in chunks_list:
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
        # Constants have no chunk of their own: the innermost code chunk holding the line stands in.
        by_path: dict[str, list[Chunk]] = {}
        for chunk in chunks_list:
            if chunk.kind in ("code", "test"):
                by_path.setdefault(chunk.path, []).append(chunk)
        for node in graph.nodes.values():
            if node.kind == "variable" and node.id not in self._to_chunk:
                holders = [c for c in by_path.get(node.path, ()) if c.start_line <= node.start_line <= c.end_line]
                if holders:
                    best = min(holders, key=lambda c: c.end_line - c.start_line)
                    self._to_chunk[node.id] = best.id

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
        frontier = [(n, seed.score, "", False) for n in start]
        for level in range(1, depth + 1):
            nxt: list[tuple[str, float, str, bool]] = []
            for node_id, score, via, leaf in frontier:
                # Sections, modules and tests reached from the code they test are not walked
                # through: what else they mention or touch is not about the seed.
                if level > 1 and (leaf or graph.nodes[node_id].kind not in _PASS_THROUGH):
                    continue
                for nb in graph.neighbours(node_id):
                    if nb.name not in EXPAND_EDGES or nb.other in seen:
                        continue
                    seen.add(nb.other)
                    reached = score * nb.edge.confidence * discount
                    step = f"{nb.name} <- {graph.nodes[node_id].label}"
                    why = f"{step} <- {via}" if via else step
                    nxt.append((nb.other, reached, why, nb.name == "tests" and not nb.outgoing))
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
    extra: int | None = None,
) -> list[Hit]:
    """The first ``k`` of ``candidates`` (ranked hits, best first) plus up to ``extra``
    (default ``k``) graph neighbours of the first ``top``, merged by score.

    Neighbours are evidence only (code, tests, upstream pages: docs and docstrings
    are what gets checked, not proof), pass the search's own filters (``allow``),
    and are skipped when a listed hit already contains their lines. The first ``k``
    keep their order; a neighbour never ranks above the hit that brought it.
    """
    if not candidates or k <= 0:
        return []
    # The candidates' order is the engine's word (exact-symbol pins sit on top whatever
    # their fused score), so each is placed by the best score at or below it: order
    # kept, and a neighbour slots in where its own score falls.
    place = [h.score for h in candidates]
    for i in range(len(place) - 2, -1, -1):
        place[i] = max(place[i], place[i + 1])
    base = candidates[:k]
    seeds = [replace(h, score=place[i]) for i, h in enumerate(base[:top])]
    reached = neighbour_scores(seeds, graph, links, depth=depth, discount=discount)
    later = {h.chunk.id: h for h in candidates[k:]}
    listed = [h.chunk for h in base]
    scored: list[tuple[float, int, Hit]] = [(place[i], i, h) for i, h in enumerate(base)]
    budget = k if extra is None else extra
    for cid, r in sorted(reached.items(), key=lambda item: -item[1].score):  # ties: order found (seed, edge)
        if budget <= 0:
            break
        chunk = chunks.get(cid)
        if chunk is None or chunk.kind not in EVIDENCE_KINDS or (allow is not None and not allow(chunk)):
            continue
        if any(_within(chunk, other) for other in listed):
            continue
        found = later.get(cid)
        score = min(max(r.score, found.score if found else 0.0), r.cap - _BELOW)
        hit = replace(found, score=score, via=r.via) if found else Hit(chunk=chunk, rank=0, score=score, via=r.via)
        scored.append((score, len(scored), hit))
        listed.append(chunk)
        budget -= 1
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [replace(hit, rank=i) for i, (_s, _o, hit) in enumerate(scored, 1)]


def _within(inner: Chunk, outer: Chunk) -> bool:
    """``inner``'s lines are all in ``outer`` (same file): it would show nothing new."""
    return inner.path == outer.path and outer.start_line <= inner.start_line and inner.end_line <= outer.end_line
