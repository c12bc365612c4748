"""Tree-sitter languages -> a ``Fragment``: the same unresolved facts ``pyfacts`` gives Python.

Declarations come from the ``Outline`` (qualified symbols are the chunks' symbols, so
graph nodes and chunks meet by name), calls and typed names from ``uses``, each
attributed to the innermost declaration holding its line. Imports are rewritten to
the dotted names the resolver understands (``./money`` from ``src/inventory.ts`` ->
``src.money``, ``crate::geo::Point`` -> ``geo.Point``). Kinds fold into the graph's
five (an interface, struct or trait is a ``class``; a property a ``variable``), so the
chain, ``--expand`` and ``related`` walk them like Python's.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from caas_tui.graph.defbuilder import DefBuilder
from caas_tui.graph.docfacts import mentions, section_node
from caas_tui.graph.model import Fragment, Ref, Section, Typed
from caas_tui.ingest.treesitter import Decl, Import, Outline, analyse
from caas_tui.ingest.treesitter.naming import js_module_name
from caas_tui.ingest.treesitter.uses import FileUses, type_value
from caas_tui.models import SourceFile

DECLARED = 0.9  # ``Warehouse<String> w``, a typed parameter: as sure as a Python annotation
ASSIGNED = 0.85  # ``const inv = new Inventory()``
RECEIVER = 1.0  # Go ``func (s *Stock)``: ``s`` is a Stock
_KINDS = {"function": "function", "method": "method", "constructor": "method", "property": "variable", "module": "module"}
_GO_RECEIVER = re.compile(r"^func\s*\(\s*(\w+)\s+[*&]?\s*[\w.]+")
_JAVA_IMPORT = re.compile(r"^import\s+(?:static\s+)?([\w.]+?)(\.\*)?\s*;?\s*$", re.S)
_KOTLIN_IMPORT = re.compile(r"^import\s+([\w.`]+?)(\.\*)?(?:\s+as\s+(\w+))?\s*;?\s*$", re.S)
_USING = re.compile(r"^(?:global\s+)?using\s+(static\s+)?(?:(\w+)\s*=\s*)?([\w.]+)\s*;", re.S)
_GO_IMPORT = re.compile(r'^\s*(?:([\w.]+)\s+)?"([^"]+)"')
_TS_NAMED = re.compile(r"\{([^}]*)\}", re.S)
_TS_STAR = re.compile(r"\*\s+as\s+(\w+)")
_TS_DEFAULT = re.compile(r"^import\s+(?:type\s+)?([A-Za-z_$][\w$]*)\s*(?:,|from\b)")
_RUST_ROOTS = frozenset({"std", "core", "alloc"})


def treesitter_fragment(src: SourceFile) -> Fragment | None:
    """None when the file cannot be parsed (its grammar is missing): it then says nothing."""
    found = analyse(src)
    if found is None:
        return None
    outline, uses = found
    module = _module(outline)
    n_lines = max(1, src.text.count("\n") + 1)
    facts = _Facts(src, outline, module, n_lines)
    facts.declare(outline.decls)
    facts.attribute(uses)
    facts.imports(outline.imports)
    defs = [d.freeze() for d in facts.defs]
    dirs = src.path.split("/")[:-1]
    # ``com/example/...`` is a Java package path, not an examples folder.
    example = "examples" in dirs or dirs[:1] == ["example"]
    return Fragment(
        path=src.path, kind=src.kind, sha256=src.sha256, module=module, example=example,
        defs=tuple(defs), sections=tuple(facts.sections), language=src.language,
    )


def _module(outline: Outline) -> str:
    """The dotted prefix of the file's top-level symbols (its package or module path)."""
    if outline.scope:
        return outline.scope
    top = [d for d in outline.decls if d.kind != "module"]
    if top and not any(d.kind == "module" for d in outline.decls):
        # C# file-scoped namespace: the extractor prefixes symbols without a package line.
        first = top[0]
        prefix = first.symbol[: -len(first.name) - 1] if first.symbol.endswith("." + first.name) else ""
        if prefix and all(d.symbol.startswith(prefix + ".") for d in top):
            return prefix
    return ""


@dataclass
class _Facts:
    src: SourceFile
    outline: Outline
    module: str
    n_lines: int
    defs: list[DefBuilder] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    _by_symbol: dict[str, DefBuilder] = field(default_factory=dict)
    _owner: list[int] = field(default_factory=list)  # line -> index into defs of its innermost def
    _spans: list[tuple[int, int, int]] = field(default_factory=list)
    _sections_seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The file's own scope comes first: ``build`` and ``resolve`` find it there. A file
        # without a package or module path is its own scope, named by its path.
        self.defs.append(DefBuilder(self.module or self.src.path, "module", 1, self.n_lines))
        doc = self.outline.module_doc
        if doc is not None and self.src.kind == "code" and doc.text:
            self._api(self.module or self.src.path, doc.raw, doc.start, doc.end)

    # -- declarations ------------------------------------------------------------------------
    def declare(self, decls: tuple[Decl, ...]) -> None:
        for d in decls:
            self._decl(d)

    def _decl(self, d: Decl) -> None:
        existing = self._by_symbol.get(d.symbol)
        if existing is not None:
            # ``impl Container for Bin`` or an overload: more bases, members and uses for the
            # one node of that name (chunks of overloads share the symbol too).
            existing.bases.extend(b for b in _bases(d) if b not in existing.bases)
            self._spans.append((d.start, d.end, self.defs.index(existing)))
        else:
            kind = _KINDS.get(d.kind, "class")
            cls = d.parent if kind in ("method", "variable") else None
            if kind == "function" and d.parent is not None:
                kind, cls = "method", d.parent
            item = DefBuilder(d.symbol, kind, d.start, d.end, cls=cls, bases=_bases(d), test=d.is_test)
            item.returns = _returns(d)
            for p in d.params:
                typed = type_value(p.type)
                if typed and p.name and p.name != "self":
                    item.locals[p.name] = Typed(p.name, typed, DECLARED)
            if self.outline.language == "go" and d.kind == "method" and d.parent:
                recv = _GO_RECEIVER.match(d.signature)
                if recv:
                    item.locals[recv.group(1)] = Typed(recv.group(1), f"{d.parent.rsplit('.', 1)[-1]}()", RECEIVER)
            self._by_symbol[d.symbol] = item
            self.defs.append(item)
            self._spans.append((d.start, d.end, len(self.defs) - 1))
        if d.doc is not None and self.src.kind == "code" and not d.is_test:
            self._api(d.symbol, d.doc.raw, d.doc.start, d.doc.end)
        for m in d.members:
            self._decl(m)

    def _api(self, symbol: str, raw: str, start: int, end: int) -> None:
        seen = self._sections_seen.get(symbol, 0)
        self._sections_seen[symbol] = seen + 1
        node = section_node(self.src.path, symbol, seen)
        self.sections.append(Section(node, "api", symbol, start, end, mentions(raw, start)))

    # -- uses ------------------------------------------------------------------------------------
    def _owners(self) -> list[int]:
        owner = [0] * (self.n_lines + 2)
        # Wider spans first, so a member's lines end up owned by the member.
        for start, end, i in sorted(self._spans, key=lambda s: -(s[1] - s[0])):
            for line in range(max(1, start), min(end, self.n_lines) + 1):
                owner[line] = i
        return owner

    def attribute(self, uses: FileUses) -> None:
        owner = self._owners()

        def at(line: int) -> DefBuilder:
            return self.defs[owner[line] if 0 < line < len(owner) else 0]

        for use in uses.uses:
            at(use.line).refs.append(Ref(use.expr, use.line, use.call))
        for b in uses.bindings:
            d = at(b.line)
            typed = Typed(b.name, b.value, DECLARED if b.declared else ASSIGNED)
            if b.name.startswith("self."):
                target = self._by_symbol.get(d.cls) if d.cls else None
                attr = b.name.split(".", 1)[1]
                if target is not None and attr not in target.attrs:
                    target.attrs[attr] = Typed(attr, b.value, typed.confidence)
            elif d.kind == "class":
                d.attrs.setdefault(b.name, typed)  # a field: ``private items = new Map()``
            elif b.name not in d.locals:
                d.locals[b.name] = typed

    # -- imports ---------------------------------------------------------------------------------
    def imports(self, imports: tuple[Import, ...]) -> None:
        lang = self.outline.language
        out = self.defs[0].imports
        for imp in imports:
            if lang in ("typescript", "javascript"):
                out.extend(_js_import(imp, self.src.path))
            elif lang == "java":
                m = _JAVA_IMPORT.match(imp.text.strip())
                if m:
                    out.append(("*", m.group(1)) if m.group(2) else (m.group(1).rsplit(".", 1)[-1], m.group(1)))
            elif lang == "kotlin":
                m = _KOTLIN_IMPORT.match(imp.text.strip())
                if m:
                    target = m.group(1).replace("`", "")
                    out.append(("*", target) if m.group(2) else (m.group(3) or target.rsplit(".", 1)[-1], target))
            elif lang == "csharp":
                m = _USING.match(imp.text.strip())
                if m:
                    out.append((m.group(2), m.group(3)) if m.group(2) else ("*", m.group(3)))
            elif lang == "go":
                out.extend(_go_import(imp))
            elif lang == "rust":
                out.extend(_rust_import(imp, self.module, self.src.path))


def _bases(d: Decl) -> list[str]:
    return [b.replace("::", ".") for b in d.bases]


def _returns(d: Decl) -> str | None:
    if d.kind in ("class", "interface", "enum", "struct", "record", "trait", "impl", "object", "type", "module"):
        return None
    if d.returns and d.returns.strip() == "Self" and d.parent:
        return f"{d.parent.rsplit('.', 1)[-1]}()"
    return type_value(d.returns)


def _js_module(spec: str, path: str) -> str:
    """An import specifier as a dotted module name: relative ones as the file they name."""
    if spec.startswith("."):
        return js_module_name(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
    return spec.lstrip("@").replace("/", ".")


def _js_import(imp: Import, path: str) -> list[tuple[str, str]]:
    mod = _js_module(imp.module, path)
    text = imp.text.strip()
    if text.startswith("export"):
        return _js_reexport(text, mod)
    if not text.startswith("import"):  # ``const { round } = require("./math")``
        return [(n, f"{mod}.{n}") for n in imp.names] or [("", mod)]
    out: list[tuple[str, str]] = []
    named = _TS_NAMED.search(text.split(" from ")[0]) if " from " in text else None
    if named:
        out.extend((alias, f"{mod}.{name}") for name, alias in _js_specifiers(named.group(1)))
    star = _TS_STAR.search(text)
    if star:
        out.append((star.group(1), mod))
    default = _TS_DEFAULT.match(text)
    if default and default.group(1) != "type":
        # A default export usually carries the name it is imported under.
        out.append((default.group(1), f"{mod}.{default.group(1)}"))
    return out or [("", mod)]


def _js_reexport(text: str, mod: str) -> list[tuple[str, str]]:
    """``export { a as b } from "./x"`` binds ``b`` in the barrel to ``x.a``; ``export * from
    "./x"`` makes every name of ``x`` one of the barrel's; ``export * as ns`` binds a module."""
    named = _TS_NAMED.search(text.split(" from ")[0])
    if named:
        return [(alias, f"{mod}.{name}") for name, alias in _js_specifiers(named.group(1))] or [("", mod)]
    star = _TS_STAR.search(text)
    return [(star.group(1), mod)] if star else [("*", mod)]


def _js_specifiers(inner: str) -> list[tuple[str, str]]:
    """``a, b as c, type D`` -> (a, a), (b, c), (D, D)."""
    out: list[tuple[str, str]] = []
    for part in inner.split(","):
        words = part.replace("type ", " ").split()
        if words:
            out.append((words[0], words[-1]) if "as" in words else (words[0], words[0]))
    return out


def _go_import(imp: Import) -> list[tuple[str, str]]:
    m = _GO_IMPORT.match(imp.text)
    path = m.group(2) if m else imp.module
    alias = m.group(1) if m and m.group(1) else None
    package = path.rsplit("/", 1)[-1]
    if alias == "_":
        return [("", package)]
    if alias == ".":
        return [("*", package)]
    # The package clause names a Go package; the import path's last part is that name by convention.
    return [(alias or package, package)]


def _rust_import(imp: Import, module: str, path: str) -> list[tuple[str, str]]:
    text = imp.text.strip().removeprefix("pub ").strip()
    text = re.sub(r"^pub\([^)]*\)\s*", "", text).removeprefix("use").strip().rstrip(";").strip()
    out: list[tuple[str, str]] = []
    for target, alias in _rust_paths(text):
        parts = target.split("::")
        head = parts[0]
        if head == "crate":
            parts = parts[1:]
        elif head == "self":
            parts = [*module.split("."), *parts[1:]] if module else parts[1:]
        elif head == "super":
            parent = module.split(".")[:-1] if module else []
            parts = [*parent, *parts[1:]]
        elif head not in _RUST_ROOTS and any(p in ("tests", "examples", "benches") for p in path.split("/")[:-1]):
            parts = parts[1:]  # an integration test names its own crate first
        dotted = ".".join(p for p in parts if p)
        if alias == "*":
            out.append(("*", dotted))
        elif dotted:
            out.append((alias or dotted.rsplit(".", 1)[-1], dotted))
    return out


def _rust_paths(text: str, prefix: str = "") -> list[tuple[str, str | None]]:
    """``a::{b, c as d, e::*}`` -> (a::b, None), (a::c, d), (a::e, *)."""
    text = text.strip()
    brace = text.find("{")
    if brace >= 0 and text.endswith("}"):
        head = text[:brace].rstrip(":").strip()
        inner = text[brace + 1 : -1]
        items, depth, cur = [], 0, ""
        for ch in inner:
            if ch == "," and depth == 0:
                items.append(cur)
                cur = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            cur += ch
        items.append(cur)
        base = f"{prefix}::{head}" if prefix and head else prefix or head
        out: list[tuple[str, str | None]] = []
        for item in items:
            if item.strip() == "self":
                out.append((base, None))
            elif item.strip():
                out.extend(_rust_paths(item, base))
        return out
    alias: str | None = None
    if " as " in text:
        text, alias = (x.strip() for x in text.split(" as ", 1))
    full = f"{prefix}::{text}" if prefix else text
    if full.endswith("::*"):
        return [(full[:-3], "*")]
    return [(full, alias)]


__all__ = ["treesitter_fragment"]
