"""``caas-tui chain``: the dependency neighbourhood of a symbol, as a tree or JSON."""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from caas_tui.cli.common import add_root, notify, open_engine
from caas_tui.errors import CaasError
from caas_tui.graph.edges import WALK_NAMES, is_backward_name
from caas_tui.retrieve.chain import DEFAULT_DEPTH, MAX_HOPS, Chain
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.related import UnknownSymbol

_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")  # a symbol name, not a query

_EDGE_STYLE = {
    "calls": "cyan", "called_by": "cyan", "imports": "blue", "inherits": "magenta", "overrides": "magenta",
    "tests": "green", "documents": "yellow", "mentions_upstream": "red",
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "chain",
        help="show what a symbol calls, is called by, tests and docs around it (a symbol name or a search query)",
    )
    add_root(p)
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, metavar="N", help=f"hops from the root (default {DEFAULT_DEPTH})")
    p.add_argument("--max-hops", type=int, default=MAX_HOPS, metavar="N", help=f"stop after N hops (default {MAX_HOPS})")
    p.add_argument("--edge", action="append", choices=WALK_NAMES, default=None, help="only follow this edge (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a tree")
    p.add_argument("target", metavar="SYMBOL_OR_QUERY", help="qualified or short symbol name, else a search query")


def resolve_target(engine: Engine, target: str) -> tuple[str | None, str]:
    """A graph node id for ``target`` and how it was found (``symbol`` | ``search``)."""
    found = engine.graph.find(target)
    if found:
        if len(found) > 1:
            others = ", ".join(n.id for n in found[1:4]) + (" ..." if len(found) > 4 else "")
            notify(f"{target!r} is ambiguous; using {found[0].id} (also: {others})")
        return found[0].id, "symbol"
    if _NAME.fullmatch(target):
        # A name nothing defines is a typo or a symbol since removed: a tree of whatever a
        # search finds for it would be unrelated.
        near = nearest_names(engine, target)
        hint = f"; nearest: {', '.join(near)}" if near else ""
        raise UnknownSymbol(f"{target!r}: no symbol of that name{hint}")
    for hit in engine.search(target, 10, kinds=("code", "test", "api")):
        symbol = hit.chunk.symbol
        if symbol and symbol in engine.graph.nodes:
            return symbol, "search"
    return None, "search"


def nearest_names(engine: Engine, target: str, n: int = 5) -> list[str]:
    """Graph symbols whose full or last-part name is closest to ``target``."""
    ids = list(engine.graph.nodes)
    by_short: dict[str, list[str]] = {}
    for node_id in ids:
        by_short.setdefault(node_id.rsplit(".", 1)[-1], []).append(node_id)
    tail = target.rsplit(".", 1)[-1]
    out = difflib.get_close_matches(target, ids, n=n, cutoff=0.6)
    for short in difflib.get_close_matches(tail, list(by_short), n=n, cutoff=0.6):
        out += [i for i in sorted(by_short[short]) if i not in out]
    return out[:n]


def _edge_text(edge: str, outgoing: bool) -> str:
    """``<- tests``: the child points at its parent (a test of it, a doc about it)."""
    return edge if outgoing or is_backward_name(edge) else f"<- {edge}"


def _label(edge: str | None, node_id: str, label: str, kind: str, path: str, start: int, end: int, conf: float | None) -> Text:
    text = Text()
    if edge:
        text.append(edge, style=_EDGE_STYLE.get(edge.removeprefix("<- "), ""))
        text.append(" ")
    text.append(label if kind in ("doc", "upstream", "api") else node_id, style="bold")
    text.append(f"  {kind}  ", style="dim")
    text.append(f"{path}:{start}-{end}")
    if conf is not None and conf < 1.0:
        text.append(f"  ({conf:.2f})", style="dim")
    return text


def render_tree(result: Chain) -> Tree:
    node = result.root_node
    assert node is not None
    tree = Tree(_label(None, node.id, node.label, node.kind, node.path, node.start_line, node.end_line, None))
    branches = {node.id: tree}
    for hop in result.hops:  # breadth-first: a hop's parent is always placed before it
        parent = branches[hop.from_]
        branches[hop.to] = parent.add(
            _label(_edge_text(hop.edge, hop.outgoing), hop.to, hop.label, hop.kind, hop.path, hop.start_line, hop.end_line, hop.confidence)
        )
    return tree


def run(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise CaasError("--depth must be at least 1")
    if args.max_hops < 1:
        raise CaasError("--max-hops must be at least 1")
    engine = open_engine(args)
    try:
        root, how = resolve_target(engine, args.target)
        if root is None:
            raise CaasError(f"{args.target!r}: no symbol of that name, and no code matches it as a query")
        result = engine.related(root, args.depth, max_hops=args.max_hops, edges=args.edge)
        if args.json:
            payload = {**result.to_json(), "query": args.target, "resolved_by": how}
            sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        else:
            console = Console(highlight=False)
            if how == "search":
                console.print(Text(f"{args.target!r} is not a symbol; showing the top code hit's symbol {root}", style="dim"))
            console.print(render_tree(result))
            if not result.hops:
                console.print(Text("no edges: nothing in the project calls, tests or documents it, nor does it use anything", style="dim"))
            if result.truncated:
                console.print(Text(f"truncated at {args.max_hops} hops; use --depth, --edge or --max-hops to narrow or widen", style="yellow"))
        sys.stdout.flush()
    finally:
        engine.close()
    return 0
