"""The edge vocabulary: every stored edge kind, its name walked backwards, and how
readers name and label it from either end. The one table behind the graph walk, the
CLI's ``--edge`` choices, the MCP ``related`` relations and the chain view's groups."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EdgeName:
    kind: str  # as stored: points from the user to the used (a test to what it tests)
    walked_back: str  # the graph's name for the edge walked from its target (``calls`` -> ``called_by``)
    inverse: str  # the relation read from the target's side (``tested_by``)
    label: str  # display label read from the source's side
    inverse_label: str  # display label read from the target's side


EDGES: tuple[EdgeName, ...] = (
    EdgeName("calls", "called_by", "called_by", "calls", "called by"),
    EdgeName("imports", "imports", "imported_by", "imports", "imported by"),
    EdgeName("inherits", "inherits", "inherited_by", "inherits", "subclass"),
    EdgeName("overrides", "overrides", "overridden_by", "overrides", "overridden by"),
    EdgeName("tests", "tests", "tested_by", "tests", "tested by"),
    EdgeName("documents", "documents", "documented_by", "documents", "documented in"),
    EdgeName("mentions_upstream", "mentions_upstream", "mentioned_in_upstream", "upstream doc", "mentioned by"),
    EdgeName("uses", "used_by", "used_by", "uses", "used by"),
)

EDGE_KINDS: tuple[str, ...] = tuple(e.kind for e in EDGES)
# Names of an edge walked backwards, where the kind reads badly reversed.
REVERSE_NAMES: dict[str, str] = {e.kind: e.walked_back for e in EDGES if e.walked_back != e.kind}
# Every name a walk can follow (the kinds, then the backward names): ``--edge`` choices.
WALK_NAMES: tuple[str, ...] = tuple(dict.fromkeys([*EDGE_KINDS, *REVERSE_NAMES.values()]))

_BY_NAME: dict[str, EdgeName] = {**{e.walked_back: e for e in EDGES}, **{e.kind: e for e in EDGES}}


def edge_named(name: str) -> EdgeName | None:
    """The edge a walk name (a kind or a backward name) belongs to."""
    return _BY_NAME.get(name)


def relation(name: str, outgoing: bool) -> str:
    """The relation of a walked edge read from where the walk stands (``tests`` backwards: ``tested_by``)."""
    edge = _BY_NAME.get(name)
    if edge is None:
        return name
    return edge.kind if outgoing else edge.inverse


def relation_label(name: str, outgoing: bool) -> str:
    """Its display label (``tested by``), for groups and trees."""
    edge = _BY_NAME.get(name)
    if edge is None:
        return name
    return edge.label if outgoing else edge.inverse_label


def is_backward_name(name: str) -> bool:
    """``called_by``: a name that already says the edge is read backwards."""
    return name in REVERSE_NAMES.values()
