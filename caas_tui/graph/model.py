"""The graph's value types: per-file facts (unresolved) and the resolved nodes and edges.

A ``Fragment`` records what one file says, in its own words (``s.run`` stays
``s.run``); meaning is given later by ``resolve.build_graph`` across all files.
Keeping the two apart is what makes a refresh cheap: an edited file is re-read,
every other fragment is reused as is, and only the (dictionary-lookup) resolution
runs over the whole project again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

# Stored edge kinds (direction: from the user/mentioner to the thing used/mentioned) and
# their backward names are in ``caas_tui.graph.edges``. ``uses``: code reading a constant
# (``DEFAULT_TOLERANCE``: where defaults live) or naming a class without calling it
# (``isinstance(s, ManagedSystem)``, ``except SceneError``).

DEF_KINDS: tuple[str, ...] = ("module", "class", "function", "method", "variable")
SECTION_KINDS: tuple[str, ...] = ("doc", "upstream", "api")


# Ref, Typed and Mention are NamedTuples, not frozen dataclasses: a large project has
# hundreds of thousands of them, all rebuilt whenever the index is opened, and a
# tuple is several times cheaper to construct. They are just as immutable.
class Ref(NamedTuple):
    """A name used inside a definition, as written.

    ``expr`` is dotted; ``()`` marks the result of a call (``Foo().run``,
    ``super().close``) so the type of a constructed object can be followed.
    """

    expr: str
    line: int
    call: bool  # called (``f()``), not only referenced (``isinstance(x, F)``)


class Typed(NamedTuple):
    """``name`` holds an instance of the class named by ``type_expr``."""

    name: str
    type_expr: str
    confidence: float  # annotation 0.9, constructor assignment 0.85, ...


@dataclass(frozen=True, slots=True)
class PyDef:
    """A module, class, function or method, with the facts needed to resolve its uses."""

    qualname: str
    kind: str  # one of DEF_KINDS (``variable``: a module or class constant)
    start_line: int
    end_line: int
    cls: str | None = None  # owning class qualname, for methods
    bases: tuple[str, ...] = ()  # classes: base expressions as written
    attrs: tuple[Typed, ...] = ()  # classes: instance/class attributes of a known type
    locals: tuple[Typed, ...] = ()  # params and local variables of a known type
    params: tuple[str, ...] = ()  # un-annotated parameter names (pytest fixtures)
    returns: str | None = None  # return annotation, or the class a ``return X(...)`` builds
    fixture: bool = False
    imports: tuple[tuple[str, str], ...] = ()  # (alias, absolute target) bound in this scope
    refs: tuple[Ref, ...] = ()
    test: bool = False  # a test by itself in a code file (Rust ``#[test]``)

    @property
    def short(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


class Mention(NamedTuple):
    """A name a piece of prose points at. ``how``: role | code | dotted."""

    name: str
    line: int
    how: str


@dataclass(frozen=True, slots=True)
class Section:
    """A doc/upstream section or a docstring, and the names it mentions."""

    node: str  # ``path#symbol`` (with ``:n`` for a repeated symbol)
    kind: str  # doc | upstream | api
    symbol: str  # heading path, or the documented qualname for ``api``
    start_line: int
    end_line: int
    mentions: tuple[Mention, ...] = ()


@dataclass(frozen=True, slots=True)
class Fragment:
    """Everything the graph knows about one file."""

    path: str
    kind: str  # code | test | doc | upstream (the file's kind)
    sha256: str
    module: str | None = None  # Python module; package/namespace/module path for tree-sitter languages
    is_package: bool = False  # ``__init__.py``: relative imports start here, not at the parent
    example: bool = False  # under ``examples/``: its uses of the project count as ``tests``
    defs: tuple[PyDef, ...] = ()
    sections: tuple[Section, ...] = ()
    language: str = "python"  # of code and tests: which scoping rules resolve its names

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path, "kind": self.kind, "sha256": self.sha256, "module": self.module,
            "is_package": self.is_package, "example": self.example, "language": self.language,
            "defs": [_def_json(d) for d in self.defs],
            "sections": [
                [s.node, s.kind, s.symbol, s.start_line, s.end_line, [[m.name, m.line, m.how] for m in s.mentions]]
                for s in self.sections
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fragment:
        return cls(
            path=str(data["path"]), kind=str(data["kind"]), sha256=str(data["sha256"]),
            module=data.get("module"), is_package=bool(data.get("is_package")),
            example=bool(data.get("example")), language=str(data.get("language", "python")),
            defs=tuple(_def_from(d) for d in data.get("defs", [])),
            sections=tuple(
                Section(str(n), str(k), str(sym), int(a), int(b), tuple(Mention(x, y, z) for x, y, z in ms))
                for n, k, sym, a, b, ms in data.get("sections", [])
            ),
        )


# Compact, positional JSON: graph.jsonl holds a line per file, all read on every
# index open, so its size is worth keeping down.
def _def_json(d: PyDef) -> dict[str, Any]:
    out: dict[str, Any] = {"q": d.qualname, "k": d.kind, "l": [d.start_line, d.end_line]}
    if d.cls:
        out["c"] = d.cls
    if d.bases:
        out["b"] = list(d.bases)
    if d.attrs:
        out["a"] = [[t.name, t.type_expr, t.confidence] for t in d.attrs]
    if d.locals:
        out["v"] = [[t.name, t.type_expr, t.confidence] for t in d.locals]
    if d.params:
        out["p"] = list(d.params)
    if d.returns:
        out["r"] = d.returns
    if d.fixture:
        out["f"] = 1
    if d.imports:
        out["i"] = [list(i) for i in d.imports]
    if d.refs:
        out["x"] = [[r.expr, r.line, int(r.call)] for r in d.refs]
    if d.test:
        out["t"] = 1
    return out


def _def_from(d: dict[str, Any]) -> PyDef:
    return PyDef(
        qualname=str(d["q"]), kind=str(d["k"]), start_line=int(d["l"][0]), end_line=int(d["l"][1]),
        cls=d.get("c"), bases=tuple(d.get("b", ())),
        attrs=tuple(Typed(n, t, c) for n, t, c in d.get("a", ())),
        locals=tuple(Typed(n, t, c) for n, t, c in d.get("v", ())),
        params=tuple(d.get("p", ())), returns=d.get("r"), fixture=bool(d.get("f")),
        imports=tuple((str(a), str(t)) for a, t in d.get("i", ())),
        refs=tuple(Ref(e, ln, c == 1) for e, ln, c in d.get("x", ())), test=bool(d.get("t")),
    )


@dataclass(frozen=True, slots=True)
class Node:
    """A graph vertex: a Python definition (id = qualname) or a section (id = ``path#symbol``)."""

    id: str
    kind: str  # module | class | function | method | variable | doc | upstream | api
    path: str
    start_line: int
    end_line: int
    label: str  # qualname or heading path
    file_kind: str  # code | test | doc | upstream


@dataclass(frozen=True, slots=True)
class Edge:
    src: str
    dst: str
    kind: str  # one of EDGE_KINDS
    confidence: float  # 0..1: how sure the resolution is, not how important the edge is
    path: str  # where the edge is stated (the call site's file)
    line: int
