"""Dependency chains: the neighbourhood of one symbol in the graph, as a tree of hops.

``chain(graph, root_symbol, depth)`` is pure (no index, no I/O) so the CLI, the
TUI's chain view and the MCP ``related`` tool all show the same thing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from caas_tui.graph import Node, SymbolGraph

DEFAULT_DEPTH = 2
MAX_HOPS = 200
# Sections (docs, upstream pages, docstrings) are leaves: "documented next to X"
# is not a dependency of X, and a long page would drag in everything it mentions.
_LEAF_KINDS = frozenset({"doc", "upstream", "api"})
# Children are listed in this order of edge, surest first within an edge.
EDGE_ORDER: tuple[str, ...] = (
    "calls", "called_by", "uses", "used_by", "inherits", "overrides", "tests", "documents", "mentions_upstream", "imports",
)
_RANK = {name: i for i, name in enumerate(EDGE_ORDER)}


@dataclass(frozen=True, slots=True)
class Hop:
    """One edge walked from ``from_`` (already in the tree) to ``to`` (new in the tree).

    ``edge`` is read from ``from_``'s side (``calls``, ``called_by``, ``tests``...);
    ``outgoing`` tells whether the stored edge points from ``from_`` to ``to``.
    ``path``/``start_line``/``end_line`` locate ``to``.
    """

    from_: str
    to: str
    edge: str
    path: str
    start_line: int
    end_line: int
    depth: int
    confidence: float
    outgoing: bool
    label: str
    kind: str  # to's kind: module | class | function | method | doc | upstream | api

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.from_, "to": self.to, "edge": self.edge, "path": self.path,
            "start_line": self.start_line, "end_line": self.end_line, "depth": self.depth,
            "confidence": self.confidence, "direction": "out" if self.outgoing else "in",
            "kind": self.kind, "label": self.label,
        }


@dataclass(frozen=True, slots=True)
class Chain:
    root: str  # the node id (or, if nothing matched, the name asked for)
    root_node: Node | None  # None: the graph has no such symbol, and ``hops`` is empty
    hops: tuple[Hop, ...]
    depth: int
    truncated: bool  # more hops existed than ``max_hops``

    def children(self, node_id: str) -> list[Hop]:
        return [h for h in self.hops if h.from_ == node_id]

    def to_json(self) -> dict[str, Any]:
        node = self.root_node
        return {
            "root": self.root,
            "root_kind": node.kind if node else None,
            "path": node.path if node else None,
            "start_line": node.start_line if node else None,
            "end_line": node.end_line if node else None,
            "depth": self.depth,
            "truncated": self.truncated,
            "hops": [h.to_json() for h in self.hops],
        }


def resolve_root(graph: SymbolGraph, symbol: str) -> Node | None:
    """The node ``symbol`` names: an id, a qualified suffix or a short name (code first)."""
    found = graph.find(symbol)
    return found[0] if found else None


def chain(
    graph: SymbolGraph,
    root_symbol: str,
    depth: int = DEFAULT_DEPTH,
    *,
    max_hops: int = MAX_HOPS,
    edges: Collection[str] | None = None,
    min_confidence: float = 0.0,
) -> Chain:
    """Breadth-first neighbourhood of ``root_symbol`` up to ``depth`` hops.

    Every node appears once, at its shallowest depth (so cycles end there);
    ``edges`` limits the edge names followed (``calls``, ``called_by``, ...).
    Doc/upstream sections and docstrings are shown but not walked through, nor
    are modules other than the root (an import reaches everything in a module),
    nor a test reached from the code it tests (what else that test touches is
    not about the root).
    """
    root = resolve_root(graph, root_symbol)
    if root is None:
        return Chain(root_symbol, None, (), depth, False)
    hops: list[Hop] = []
    seen = {root.id}
    queue: deque[tuple[str, int, bool]] = deque([(root.id, 0, False)])
    truncated = False
    while queue and not truncated:
        node_id, level, leaf = queue.popleft()
        if level >= depth or leaf:
            continue
        node = graph.nodes[node_id]
        if node_id != root.id and (node.kind in _LEAF_KINDS or node.kind == "module"):
            continue
        for nb in sorted(graph.neighbours(node_id), key=lambda n: (_RANK.get(n.name, 99), -n.edge.confidence, n.other)):
            if nb.other in seen or nb.edge.confidence < min_confidence or (edges is not None and nb.name not in edges):
                continue
            if len(hops) >= max_hops:
                truncated = True
                break
            seen.add(nb.other)
            other = graph.nodes[nb.other]
            hops.append(
                Hop(node_id, other.id, nb.name, other.path, other.start_line, other.end_line, level + 1,
                    nb.edge.confidence, nb.outgoing, other.label, other.kind)
            )
            queue.append((other.id, level + 1, nb.name == "tests" and not nb.outgoing))
    return Chain(root.id, root, tuple(hops), depth, truncated)
