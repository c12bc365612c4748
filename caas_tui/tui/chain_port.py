"""The chain of related code around a symbol, as a tree of openable spans.

Uses ``caas_tui.retrieve.chain`` over the engine's symbol graph when both exist; until
then (or for a name the graph doesn't know) falls back to symbol resolution plus
search, which finds the same kinds of neighbours less precisely.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from caas_tui.models import Chunk, Claim, Hit
from caas_tui.retrieve.engine import Engine

_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_TICKED = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)(?:\(\))?`")
_SKIP = frozenset({"print", "len", "range", "isinstance", "super", "dict", "list", "set", "tuple", "str",
                   "int", "float", "bool", "min", "max", "sorted", "getattr", "setattr", "hasattr", "type",
                   "enumerate", "zip", "any", "all", "sum", "abs", "repr", "iter", "next", "open", "round"})
GROUP_LIMIT = 8


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

    @classmethod
    def of_chunk(cls, role: str, chunk: Chunk) -> ChainItem:
        return cls(role, chunk.path, chunk.start_line, chunk.end_line, chunk.symbol, chunk.kind, chunk.language,
                   chunk.text)


def targets_for(claim: Claim | None, hit: Hit | None) -> list[str]:
    """The names to build chains for: a hit's own symbol, or the names a claim mentions."""
    if hit is not None:
        c = hit.chunk
        if c.language == "python" and c.symbol:
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
    for a re-exported ``pkg.Name``, its short name), else a search fallback."""
    roots: list[ChainItem] = []
    seen: set[tuple[str | None, int]] = set()
    misses: list[str] = []
    for name in names:
        item = graph_chain(engine, name, depth)
        if item is None and "." in name:
            item = graph_chain(engine, name.rsplit(".", 1)[-1], depth)
        if item is None:
            misses.append(name)
        elif (item.path, item.start_line) not in seen:
            seen.add((item.path, item.start_line))
            roots.append(item)
    if not roots:
        roots = [fallback_chain(engine, name) for name in misses]
    return roots


# Edge names read from the hop's origin: (outgoing, incoming).
_EDGE_LABELS: dict[str, tuple[str, str]] = {
    "calls": ("calls", "called by"),
    "called_by": ("calls", "called by"),
    "tests": ("tests", "tested by"),
    "documents": ("documents", "documented in"),
    "mentions_upstream": ("upstream doc", "mentioned by"),
    "inherits": ("inherits", "subclass"),
    "overrides": ("overrides", "overridden by"),
    "imports": ("imports", "imported by"),
}


def _language(path: str) -> str:
    if path.endswith((".py", ".pyi")):
        return "python"
    if path.endswith((".md", ".markdown")):
        return "markdown"
    if path.endswith((".rst", ".rest")):
        return "rst"
    return "text"


def _role(hop: Any, delegate: str | None = None) -> str:
    out, inc = _EDGE_LABELS.get(hop.edge, (hop.edge, hop.edge))
    role = out if hop.outgoing else inc
    if role == "tested by" and hop.path.startswith("examples/"):
        return "example"
    if role == "calls" and delegate is not None and hop.to.rsplit(".", 1)[-1] == delegate:
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


def graph_chain(engine: Engine, name: str, depth: int) -> ChainItem | None:
    """The symbol graph's chain (``Engine.related``) as a tree grouped by relation."""
    related = getattr(engine, "related", None)
    if related is None:
        return None
    found = related(name, depth)
    node = found.root_node
    if node is None:
        return None
    root = ChainItem("definition", node.path, node.start_line, node.end_line, node.label, node.kind,
                     _language(node.path))

    def grow(parent: ChainItem, node_id: str) -> None:
        groups: dict[str, ChainItem] = {}
        hops = found.children(node_id)
        delegate = delegate_of(engine, node_id) if any(h.edge == "calls" and h.outgoing for h in hops) else None
        for hop in hops:
            role = _role(hop, delegate)
            group = groups.setdefault(role, ChainItem(role))
            item = ChainItem(role, hop.path, hop.start_line, hop.end_line, hop.label, hop.kind, _language(hop.path))
            group.children.append(item)
            grow(item, hop.to)
        for role in sorted(groups, key=lambda r: _ROLE_ORDER.get(r, len(_ROLE_ORDER))):
            group = groups[role]
            group.label = f"{role} ({len(group.children)})"
            parent.children.append(group)

    grow(root, found.root)
    if found.truncated:
        root.children.append(ChainItem("… more hops than shown"))
    return root


_ROLE_ORDER = {r: i for i, r in enumerate(
    ["definition", "delegates to", "calls", "called by", "tested by", "tests", "example", "documented in", "documents",
     "upstream doc", "mentioned by", "inherits", "subclass", "overrides", "overridden by", "imports", "imported by"])}


def _add(group: ChainItem, chunks: Iterable[Chunk], seen: set[str], role: str) -> None:
    for chunk in chunks:
        if len(group.children) >= GROUP_LIMIT:
            break
        if chunk.id in seen:
            continue
        seen.add(chunk.id)
        group.children.append(ChainItem.of_chunk(role, chunk))


def fallback_chain(engine: Engine, name: str) -> ChainItem:
    """Definition, callers, callees, tests, examples, docs and upstream pages, by search."""
    defs = engine.find_symbol(name, kinds=("code",)) or engine.find_symbol(name, kinds=("code", "test", "upstream"))
    root = ChainItem(name, symbol=name)
    short = name.rsplit(".", 1)[-1]
    seen: set[str] = set()
    word = re.compile(rf"\b{re.escape(short)}\b")
    called = re.compile(rf"\b{re.escape(short)}\s*\(")

    def search(kinds: list[str], k: int = 25, glob: str | None = None) -> list[Chunk]:
        return [h.chunk for h in engine.search(short, k, mode="bm25", kinds=kinds, path_glob=glob)]

    definition = ChainItem("definition")
    _add(definition, defs[:3], seen, "definition")
    groups = [definition]
    if defs:
        target = defs[0]
        callees = ChainItem("calls")
        for callee in _CALL.findall(target.text):
            if callee in _SKIP or callee == short:
                continue
            _add(callees, engine.find_symbol(callee, kinds=("code",))[:1], seen, "calls")
        callers = ChainItem("called by")
        _add(callers, (c for c in search(["code"]) if called.search(c.text) and c.id != target.id
                       and not c.path.startswith("examples/")), seen, "called by")
        groups += [callers, callees]
    tests = ChainItem("tests")
    _add(tests, (c for c in search(["test"]) if word.search(c.text)), seen, "test")
    examples = ChainItem("examples")
    _add(examples, (c for c in search(["code", "test"], glob="examples/*") if word.search(c.text)), seen, "example")
    docs = ChainItem("docs")
    _add(docs, (c for c in search(["doc", "api"]) if word.search(c.text)), seen, "doc")
    upstream = ChainItem("upstream docs")
    _add(upstream, (h.chunk for h in engine.search(name.replace(".", " "), 5, kinds=["upstream"])), seen, "upstream")
    groups += [tests, examples, docs, upstream]
    root.children = [g for g in groups if g.children]
    for g in root.children:
        g.label = f"{g.label} ({len(g.children)})"
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

