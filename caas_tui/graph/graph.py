"""The resolved symbol graph: nodes, typed edges with confidences, and lookups."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from caas_tui.graph.edges import REVERSE_NAMES
from caas_tui.graph.model import DEF_KINDS, Edge, Node


@dataclass(frozen=True, slots=True)
class Neighbour:
    """``other`` seen from a node across ``edge``.

    ``name`` is the edge kind read from the node's side: ``calls`` for an outgoing
    call, ``called_by`` for an incoming one; other kinds keep their name either
    way and ``outgoing`` tells the direction.
    """

    name: str
    other: str
    edge: Edge
    outgoing: bool


class SymbolGraph:
    """Immutable once built; rebuilt (cheaply, from fragments) after every refresh."""

    def __init__(self, nodes: Iterable[Node] = (), edges: Iterable[Edge] = ()) -> None:
        self.nodes: dict[str, Node] = {n.id: n for n in nodes}
        self.edges: tuple[Edge, ...] = tuple(e for e in edges if e.src in self.nodes and e.dst in self.nodes)
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}
        for e in self.edges:
            self._out.setdefault(e.src, []).append(e)
            self._in.setdefault(e.dst, []).append(e)
        self._by_short: dict[str, list[str]] = {}
        self._by_path: dict[str, list[Node]] = {}
        for node in self.nodes.values():
            self._by_path.setdefault(node.path, []).append(node)
            if node.kind in DEF_KINDS:
                self._by_short.setdefault(node.id.rsplit(".", 1)[-1], []).append(node.id)
        # Buckets are sorted when first asked for: a refresh rebuilds the graph, most
        # buckets are never looked at before the next one.
        self._sorted: set[str] = set()

    def _short(self, short: str) -> list[str]:
        ids = self._by_short.get(short, [])
        if short not in self._sorted:
            # A sorted copy, swapped in: list.sort empties the list while it runs, and
            # the TUI may read the graph from another thread.
            ids = self._by_short[short] = sorted(ids, key=lambda i: (self.nodes[i].file_kind != "code", i.count("."), i))
            self._sorted.add(short)
        return ids

    def __len__(self) -> int:
        return len(self.nodes)

    def out_edges(self, node_id: str) -> list[Edge]:
        return list(self._out.get(node_id, ()))

    def neighbours(self, node_id: str) -> list[Neighbour]:
        """Every node one edge away, either direction, surest first (deterministic)."""
        out = [Neighbour(e.kind, e.dst, e, True) for e in self._out.get(node_id, ())]
        out += [Neighbour(REVERSE_NAMES.get(e.kind, e.kind), e.src, e, False) for e in self._in.get(node_id, ())]
        out.sort(key=lambda n: (-n.edge.confidence, n.name, n.other))
        return out

    def find(self, name: str) -> list[Node]:
        """Nodes ``name`` can mean: a node id, a dotted suffix of a qualname, or a short name.

        Code before tests, shallower before nested, so the first is the likeliest meaning.
        """
        name = name.strip().strip("`").removesuffix("()")
        if not name:
            return []
        if name in self.nodes:
            return [self.nodes[name]]
        short = name.rsplit(".", 1)[-1]
        ids = self._short(short)
        if "." in name:
            ids = [i for i in ids if i.endswith("." + name)]
        return [self.nodes[i] for i in ids]

    def node_at(self, path: str, line: int) -> Node | None:
        """The innermost definition or section of ``path`` containing ``line``."""
        best: Node | None = None
        for node in self._by_path.get(path, ()):
            inside = node.start_line <= line <= node.end_line
            if inside and (best is None or node.end_line - node.start_line <= best.end_line - best.start_line):
                best = node
        return best

    def stats(self) -> dict[str, int]:
        counts: dict[str, int] = {"nodes": len(self.nodes), "edges": len(self.edges)}
        for e in self.edges:
            counts[e.kind] = counts.get(e.kind, 0) + 1
        return counts
