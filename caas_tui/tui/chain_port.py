"""The chain of related code around a symbol, as a tree of openable spans.

Renders ``caas_tui.retrieve.related``: the symbol graph's neighbourhood when the graph
knows the name, else the neighbours a name search finds (less precisely), grouped
by relation with the labels of ``caas_tui.graph.edges``.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field

from caas_tui.graph.edges import relation_label
from caas_tui.models import Claim, Hit
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.related import Related, RelatedEntry, UnknownSymbol, graph_related, related
from caas_tui.sources.entries import CODE_LANGUAGES

_TICKED = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)(?:\(\))?`")


@dataclass(slots=True)
class ChainItem:
    """One node of the chain tree: a group heading (no path) or a span of a file."""

    label: str
    path: str | None = None
    start_line: int = 0
    end_line: int = 0
    symbol: str | None = None
    kind: str | None = None
    language: str = "text"
    text: str | None = None  # known text (else read from disk when opened)
    children: list[ChainItem] = field(default_factory=list)


def targets_for(claim: Claim | None, hit: Hit | None) -> list[str]:
    """The names to build chains for: a hit's own symbol, or the names a claim mentions."""
    if hit is not None:
        c = hit.chunk
        if c.language in CODE_LANGUAGES and c.symbol:
            return [c.symbol]
        return _names(_TICKED.findall(c.text))[:3]
    if claim is not None:
        names = list(claim.symbols) or _TICKED.findall(claim.text) or list(claim.code_spans)
        return _names(names)[:3]
    return []


def _names(raw: Iterable[str]) -> list[str]:
    out: list[str] = []
    for name in raw:
        name = name.strip().strip("`").removesuffix("()")
        if name and re.fullmatch(r"[A-Za-z_][\w.]*", name) and name not in out:
            out.append(name)
    return out


def build_chains(engine: Engine, names: list[str], depth: int = 2) -> list[ChainItem]:
    """One root per distinct definition: the graph's chain when it knows the name (or,
    for a re-exported ``pkg.Name``, its short name), else the name search's neighbours."""
    roots: list[ChainItem] = []
    seen: set[tuple[str | None, int]] = set()
    misses: list[str] = []
    for name in names:
        found = graph_related(engine, name, depth)
        if found is None and "." in name:
            found = graph_related(engine, name.rsplit(".", 1)[-1], depth)
        if found is None:
            misses.append(name)
            continue
        item = graph_chain(engine, found)
        if (item.path, item.start_line) not in seen:
            seen.add((item.path, item.start_line))
            roots.append(item)
    if not roots:
        roots = [fallback_chain(engine, name, depth) for name in misses]
    return roots


def _language(path: str) -> str:
    if path.endswith((".py", ".pyi")):
        return "python"
    if path.endswith((".md", ".markdown")):
        return "markdown"
    if path.endswith((".rst", ".rest")):
        return "rst"
    return "text"


def _role(entry: RelatedEntry, delegate: str | None = None) -> str:
    role = relation_label(entry.edge, entry.outgoing)
    if role == "tested by" and entry.path.startswith("examples/"):
        return "example"
    if role == "calls" and delegate is not None and entry.symbol.rsplit(".", 1)[-1] == delegate:
        return "delegates to"
    return role


def delegate_of(engine: Engine, qualname: str) -> str | None:
    """The function name ``qualname`` hands its work to, if its body is one call (after any docstring)."""
    found = [c for c in engine.find_symbol(qualname, kinds=("code",)) if c.symbol == qualname]
    if not found:
        return None
    try:
        tree = ast.parse(textwrap.dedent(found[0].text))
    except SyntaxError:
        return None
    func = tree.body[0] if tree.body else None
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], (ast.Expr, ast.Return)):
        return None
    call = body[0].value
    if isinstance(call, ast.Await):
        call = call.value
    if not isinstance(call, ast.Call):
        return None
    target = call.func
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else None


def _grow(engine: Engine, found: Related, parent: ChainItem, node_id: str, *, graph: bool) -> None:
    """Hang ``node_id``'s neighbours under ``parent``, grouped by relation (and theirs under them)."""
    groups: dict[str, ChainItem] = {}
    entries = found.children(node_id)
    has_calls = any(e.edge == "calls" and e.outgoing for e in entries)
    delegate = delegate_of(engine, node_id) if graph and has_calls else None
    for entry in entries:
        role = _role(entry, delegate)
        group = groups.setdefault(role, ChainItem(role))
        item = ChainItem(role, entry.path, entry.start_line, entry.end_line, entry.label, entry.kind,
                         _language(entry.path))
        group.children.append(item)
        _grow(engine, found, item, entry.symbol, graph=graph)
    for role in sorted(groups, key=lambda r: _ROLE_ORDER.get(r, len(_ROLE_ORDER))):
        group = groups[role]
        group.label = f"{role} ({len(group.children)})"
        parent.children.append(group)


def graph_chain(engine: Engine, found: Related) -> ChainItem:
    """The symbol graph's neighbourhood as a tree grouped by relation."""
    assert found.path is not None and found.start_line is not None and found.end_line is not None
    root = ChainItem("definition", found.path, found.start_line, found.end_line, found.label, found.kind,
                     _language(found.path))
    _grow(engine, found, root, found.symbol, graph=True)
    if found.truncated:
        root.children.append(ChainItem("… more hops than shown"))
    return root


_ROLE_ORDER = {r: i for i, r in enumerate(
    ["definition", "delegates to", "calls", "called by", "tested by", "tests", "example", "documented in", "documents",
     "upstream doc", "mentioned by", "inherits", "subclass", "overrides", "overridden by", "imports", "imported by"])}


def fallback_chain(engine: Engine, name: str, depth: int = 2) -> ChainItem:
    """A name the graph doesn't know: its definition and the neighbours a name search finds."""
    root = ChainItem(name, symbol=name)
    try:
        found = related(engine, name, depth)
    except UnknownSymbol:
        return root
    definition = ChainItem("definition (1)")
    if found.path is not None and found.start_line is not None and found.end_line is not None:
        definition.children.append(ChainItem("definition", found.path, found.start_line, found.end_line,
                                             found.symbol, found.kind, _language(found.path)))
    root.children.append(definition)
    _grow(engine, found, root, found.symbol, graph=False)
    return root


def short_name(symbol: str | None, path: str) -> str:
    """``symbol`` without its module prefix (the path already says where it lives)."""
    if not symbol:
        return ""
    module = path.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
    for prefix in (module, module.removeprefix("src.")):
        if symbol.startswith(prefix + "."):
            return symbol[len(prefix) + 1 :]
    return symbol

