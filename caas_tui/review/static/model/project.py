"""The project's Python modules as the static reviewer sees them: parsed once per
review run, with their top-level bindings and class bodies indexed.

Which modules exist comes from the index (code chunks); their text comes from the
files under the root (the same bytes the index hashed), read through the engine's
path guard.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from dataclasses import dataclass, field

from caas_tui.errors import CaasError
from caas_tui.ingest import module_name
from caas_tui.ingest.gcpause import collector_paused
from caas_tui.retrieve.engine import Engine
from caas_tui.review.textutil import read_text, span_sha256, split_lines

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True, slots=True)
class ImportRef:
    """``from module import name`` (name None: ``import module``)."""

    module: str
    name: str | None


@dataclass(slots=True)
class ModuleSource:
    name: str
    path: str
    lines: list[str] = field(repr=False)
    tree: ast.Module | None = field(repr=False)
    bindings: dict[str, ast.AST | ImportRef] = field(default_factory=dict, repr=False)
    star_imports: list[str] = field(default_factory=list, repr=False)
    is_package: bool = False
    _matching: dict[re.Pattern[str], list[int]] | None = field(default=None, init=False, repr=False, compare=False)

    def may_contain(self, pattern: re.Pattern[str], node: ast.AST) -> bool:
        """False only when no line ``node`` spans (decorators included) matches ``pattern``:
        a cheap test before walking the node. The per-pattern line numbers are found once."""
        if self._matching is None:
            self._matching = {}
        hits = self._matching.get(pattern)
        if hits is None:
            # The parser also ends a line at a lone ``\r``, which ``lines`` (split at ``\n``)
            # keeps inside one: line numbers would not match, so every line counts as a hit.
            if any("\r" in line[:-1] for line in self.lines):
                hits = list(range(1, len(self.lines) + 1))
            else:
                hits = [n for n, line in enumerate(self.lines, start=1) if pattern.search(line)]
            self._matching[pattern] = hits
        start, end = self.span(node)
        if not 1 <= start <= end <= len(self.lines):
            return True
        at = bisect.bisect_left(hits, start)
        return at < len(hits) and hits[at] <= end

    @property
    def dynamic(self) -> bool:
        """Names can appear at run time: a module ``__getattr__``, ``globals()`` writes,
        ``setattr`` on the module."""
        if "__getattr__" in self.bindings:
            return True
        text = "\n".join(self.lines)
        return "globals()" in text or "sys.modules[__name__]" in text or "vars()[" in text

    def segment(self, node: ast.AST) -> str:
        """Source text of ``node`` as written (``1e-3``, not ``0.001``). Sliced from the
        cached lines (``ast.get_source_segment`` re-splits the whole file on every call)."""
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if None in (start, end, col, end_col) or not 1 <= start <= end <= len(self.lines):  # type: ignore[operator]
            return ast.unparse(node)
        # col offsets count UTF-8 bytes
        raw = [line.encode("utf-8") for line in self.lines[start - 1 : end]]  # type: ignore[operator]
        if len(raw) == 1:
            return raw[0][col:end_col].decode("utf-8", "replace")
        parts = [raw[0][col:], *raw[1:-1], raw[-1][:end_col]]
        return b"\n".join(parts).decode("utf-8", "replace")

    def span(self, node: ast.AST) -> tuple[int, int]:
        decos = getattr(node, "decorator_list", None) or []
        start = min([getattr(node, "lineno", 1), *(d.lineno for d in decos)])
        return start, getattr(node, "end_lineno", None) or start

    def span_hash(self, start: int, end: int) -> str:
        return span_sha256(self.lines, start, end)


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes`` as a list, in its order, without its generator overhead
    (the checks walk every function body of the project)."""
    out: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def walk_nodes(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))``: the same nodes in the same (breadth-first) order."""
    out = [node]
    i = 0
    while i < len(out):
        out.extend(child_nodes(out[i]))
        i += 1
    return out


def _scope_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements of one scope, looking through ``if``/``try``/``with`` (no new scope)."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, (ast.If, ast.Try, ast.With)) or type(stmt).__name__ == "TryStar":
            for name in ("body", "orelse", "finalbody"):
                out.extend(_scope_statements(getattr(stmt, name, []) or []))
            for handler in getattr(stmt, "handlers", []):
                out.extend(_scope_statements(handler.body))
    return out


def assigned_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in assigned_names(elt)]
    return []


def scope_bindings(body: list[ast.stmt], package: str, star: list[str] | None = None) -> dict[str, ast.AST | ImportRef]:
    """Names bound by a module or class body -> the binding statement (last one wins)."""
    out: dict[str, ast.AST | ImportRef] = {}
    for stmt in _scope_statements(body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in out and any(
            isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") for d in stmt.decorator_list
        ):
            continue  # ``@x.setter``: the property is the getter defined above
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[stmt.name] = stmt
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                for name in assigned_names(target):
                    out[name] = stmt
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
            out.setdefault(stmt.target.id, stmt)
            if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                out[stmt.target.id] = stmt
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    out[alias.asname] = ImportRef(alias.name, None)
                else:
                    head = alias.name.split(".")[0]
                    out[head] = ImportRef(head, None)
        elif isinstance(stmt, ast.ImportFrom):
            base = absolute_module(stmt.module, stmt.level, package)
            if base is None:
                continue
            for alias in stmt.names:
                if alias.name == "*":
                    if star is not None:
                        star.append(base)
                else:
                    out[alias.asname or alias.name] = ImportRef(base, alias.name)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            for name in assigned_names(stmt.target):
                out[name] = stmt
    return out


def absolute_module(module: str | None, level: int, package: str) -> str | None:
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base) or None


class Project:
    """Project modules by qualified name, parsed lazily and cached."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.paths: dict[str, str] = {}
        # Qualified symbols of code chunks by short name. (Not ``engine.find_symbol``: a doc
        # heading with the same text as a class name shadows it there.)
        self.symbols_by_short: dict[str, set[str]] = {}
        tests: dict[str, str] = {}
        for chunk in engine.chunks():
            if chunk.language != "python" or not chunk.path.endswith((".py", ".pyi")):
                continue
            if chunk.kind == "code":
                self.paths.setdefault(module_name(chunk.path), chunk.path)
                if chunk.symbol:
                    self.symbols_by_short.setdefault(chunk.symbol.rsplit(".", 1)[-1], set()).add(chunk.symbol)
            elif chunk.kind == "test":
                tests.setdefault(module_name(chunk.path), chunk.path)
        self.packages = {name.split(".")[0] for name in self.paths}
        # A test-kind file inside a code package (``pkg/test_tools.py``) is still an importable
        # module whose names exist. It resolves, but stays out of the short-name table and of
        # ``all_modules`` so test helpers are never suggested or taken as subclasses.
        self.test_modules = {n for n in tests if n not in self.paths and n.split(".")[0] in self.packages}
        self.paths.update({n: tests[n] for n in self.test_modules})
        # "a.b" is a package if it has an __init__ or any submodule a.b.x is indexed.
        self.package_names = {".".join(n.split(".")[:i]) for n in self.paths for i in range(1, n.count(".") + 1)}
        self._cache: dict[str, ModuleSource | None] = {}
        self._literals: frozenset[str] | None = None

    def is_project(self, dotted: str) -> bool:
        return dotted.split(".")[0] in self.packages

    def has_module(self, name: str) -> bool:
        return name in self.paths or name in self.package_names

    def module(self, name: str) -> ModuleSource | None:
        if name in self._cache:
            return self._cache[name]
        src: ModuleSource | None = None
        path = self.paths.get(name)
        if path is not None:
            src = self._load(name, path)
        self._cache[name] = src
        return src

    def module_for_path(self, path: str) -> ModuleSource | None:
        return self.module(module_name(path))

    def _load(self, name: str, path: str) -> ModuleSource | None:
        try:
            text = read_text(self.engine.resolve_path(path))
        except CaasError:
            return None
        is_pkg = path.rsplit("/", 1)[-1].startswith("__init__.")
        lines = split_lines(text)
        try:
            with warnings.catch_warnings(), collector_paused():
                warnings.simplefilter("ignore")
                tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ModuleSource(name, path, lines, None, is_package=is_pkg)
        package = name if is_pkg else name.rpartition(".")[0]
        star: list[str] = []
        bindings = scope_bindings(tree.body, package, star)
        return ModuleSource(name, path, lines, tree, bindings, star, is_pkg)

    def submodules(self, name: str) -> set[str]:
        prefix = name + "."
        return {n[len(prefix):].split(".")[0] for n in (*self.paths, *self.package_names) if n.startswith(prefix)}

    def string_literals(self) -> frozenset[str]:
        """Every identifier-like string constant in the project's code (``'pyramid.includes'``,
        ``'reload_templates'``): keys the code reads, which a doc may name like symbols."""
        if self._literals is None:
            found: set[str] = set()
            for src in self.all_modules():
                assert src.tree is not None
                exports = {id(part) for value in _export_lists(src.tree) for part in ast.walk(value)}  # ``__all__``: symbols
                for node in ast.walk(src.tree):
                    if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 200 \
                            and id(node) not in exports and re.fullmatch(r"[A-Za-z_][\w.]*", node.value):
                        found.add(node.value)
            self._literals = frozenset(found)
        return self._literals

    def all_modules(self) -> list[ModuleSource]:
        out = []
        for name in sorted(self.paths):
            if name in self.test_modules:
                continue
            src = self.module(name)
            if src is not None and src.tree is not None:
                out.append(src)
        return out


def _export_lists(tree: ast.Module) -> list[ast.expr]:
    """The values assigned to (or added to) a module's ``__all__``."""
    out: list[ast.expr] = []
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else \
            [stmt.target] if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) else []
        value = getattr(stmt, "value", None)
        if value is not None and any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            out.append(value)
    return out
