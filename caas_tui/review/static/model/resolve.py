"""Resolve dotted names to project definitions: modules, classes (with inherited
members through bases in other files), functions, methods and attributes.

Three outcomes matter: ``found``; ``missing`` (the owner module/class is fully known
and lacks the member: the only outcome that may become a finding); and ``unknown``
(anything dynamic, external or ambiguous: never judged).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import sys
from dataclasses import dataclass, field

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.model.modgetattr import may_bind
from caas_tui.review.static.model.project import ImportRef, ModuleSource, Project, scope_bindings, walk_nodes

# Stdlib modules safe to import for looking up base-class members (no side effects).
_SAFE_STDLIB = frozenset(
    {"enum", "abc", "typing", "collections", "collections.abc", "dataclasses", "numbers", "pathlib", "json",
     "os", "os.path", "re", "functools", "itertools", "datetime", "decimal", "fractions", "string", "io",
     "threading", "logging", "contextlib", "math", "types", "uuid", "queue", "weakref", "copy", "operator"}
)
# External bases whose class attributes list every member an instance has.
_COMPLETE_BASES = frozenset(
    {"object", "dict", "list", "set", "frozenset", "tuple", "str", "int", "float", "bytes", "bool", "complex",
     "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "abc.ABC", "typing.Generic",
     "typing.Protocol", "typing.NamedTuple"}
)
_TRANSPARENT_CLASS_DECORATORS = frozenset(
    {"dataclass", "dataclasses.dataclass", "total_ordering", "functools.total_ordering", "final", "typing.final",
     "runtime_checkable", "typing.runtime_checkable", "unique", "enum.unique"}
)


@dataclass(frozen=True, eq=False)
class Def:
    kind: str  # module | class | function | attribute | external
    qualname: str
    module: ModuleSource | None = field(default=None, repr=False)
    node: ast.AST | None = field(default=None, repr=False)
    owner: Def | None = field(default=None, repr=False)  # the class a method/attribute was found on
    value: object = field(default=None, repr=False)  # the live object for builtins / safe stdlib names

    @property
    def short(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]

    @property
    def is_project(self) -> bool:
        return self.kind != "external" and self.module is not None

    @property
    def label(self) -> str:
        """How a rationale names it: ``Class.member`` for a class's member, else the short name."""
        return f"{self.owner.short}.{self.short}" if self.owner is not None and self.owner.kind == "class" else self.short


@dataclass(frozen=True)
class Resolution:
    status: str  # found | missing | unknown
    target: Def | None = None
    owner: Def | None = None  # for missing: the module/class lacking ``member``
    member: str | None = None
    ambiguous: bool = False  # several definitions match: existence holds, details don't

    @property
    def found(self) -> bool:
        return self.status == "found"


UNKNOWN = Resolution("unknown")


def external_object(name: str) -> object | None:
    """The live object for a builtin or safe stdlib dotted name, else None."""
    parts = name.split(".")
    if len(parts) == 1 and hasattr(builtins, name):
        return getattr(builtins, name)
    for i in range(len(parts), 0, -1):
        mod = ".".join(parts[:i])
        if mod in _SAFE_STDLIB or (mod in sys.modules and mod.split(".")[0] in sys.stdlib_module_names):
            try:
                obj: object = importlib.import_module(mod)
                for attr in parts[i:]:
                    obj = getattr(obj, attr)
                return obj
            except (ImportError, AttributeError):
                return None
    return None


def _canonical_external(obj: object) -> str | None:
    if isinstance(obj, type):
        mod = obj.__module__
        return obj.__qualname__ if mod == "builtins" else f"{mod}.{obj.__qualname__}"
    return None


class Resolver:
    def __init__(self, project: Project) -> None:
        self.project = project
        self._class_bindings: dict[int, dict[str, ast.AST | ImportRef]] = {}
        self._opaque_cache: dict[int, bool] = {}
        self._meta_cache: dict[int, frozenset[str] | None] = {}

    # -- entry points ---------------------------------------------------------------------
    def module_def(self, name: str) -> Def:
        return Def("module", name, self.project.module(name))

    def resolve(self, name: str) -> Resolution:
        """A doc's dotted name: a module path first, else a class by its short name."""
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            mod = ".".join(parts[:i])
            if self.project.has_module(mod):
                return self.walk(self.module_def(mod), parts[i:])
        results = [self.walk(cls, parts[1:]) for cls in self.classes_named(parts[0])] if len(parts) > 1 else []
        if len(parts) == 1:
            defs = self.defs_named(parts[0])
            if not defs:
                return UNKNOWN
            return Resolution("found", defs[0], ambiguous=len(defs) > 1)
        found = [r for r in results if r.found]
        if found:
            distinct = len({id(r.target.node) for r in found if r.target})
            return found[0] if distinct == 1 else Resolution("found", found[0].target, ambiguous=True)
        if results and all(r.status == "missing" for r in results):
            return results[0]
        return UNKNOWN

    def classes_named(self, short: str) -> list[Def]:
        return [d for d in self.defs_named(short) if d.kind == "class"]

    def defs_named(self, short: str) -> list[Def]:
        """Project definitions whose short name is ``short`` (one per definition)."""
        out: list[Def] = []
        seen: set[int] = set()
        for symbol in sorted(self.project.symbols_by_short.get(short, ())):
            parts = symbol.split(".")
            res = UNKNOWN
            for i in range(len(parts) - 1, 0, -1):
                if self.project.has_module(".".join(parts[:i])):
                    res = self.walk(self.module_def(".".join(parts[:i])), parts[i:])
                    break
            if res.found and res.target and res.target.node is not None and id(res.target.node) not in seen:
                seen.add(id(res.target.node))
                out.append(res.target)
        return out

    def exported(self, short: str) -> Def | None:
        """The one class or function a top-level project package binds as ``short``
        (``pre_load`` for ``marshmallow.pre_load``): what a guide means by the bare name."""
        found: dict[int, Def] = {}
        for pkg in sorted(self.project.packages):
            if not self.project.has_module(pkg):
                continue
            res = self._module_member(pkg, short, set())
            target = res.target
            if res.found and target is not None and target.is_project and target.kind in ("class", "function"):
                found[id(target.node)] = target
        return next(iter(found.values())) if len(found) == 1 else None

    def walk(self, start: Def, parts: list[str]) -> Resolution:
        cur = start
        for part in parts:
            res = self.member(cur, part)
            if not res.found or res.target is None:
                return res
            cur = res.target
        return Resolution("found", cur)

    def resolve_in(self, module: ModuleSource, name: str) -> Resolution:
        """``name`` as code inside ``module`` sees it (its imports, then builtins)."""
        parts = name.split(".")
        head = parts[0]
        if head in module.bindings or module.star_imports:
            res = self._module_member(module.name, head, set())
            if res.found and res.target:
                return self.walk(res.target, parts[1:])
            if res.status == "unknown":
                return res
        obj = external_object(name)
        if obj is not None:
            return Resolution("found", Def("external", _canonical_external(obj) or name, value=obj))
        return UNKNOWN

    # -- members --------------------------------------------------------------------------
    def member(self, owner: Def, name: str) -> Resolution:
        if owner.kind == "module":
            return self._module_member(owner.qualname, name, set())
        if owner.kind == "class":
            return self._class_member(owner, name, set())
        if owner.kind == "external" and owner.value is not None and hasattr(owner.value, name):
            obj = getattr(owner.value, name)
            return Resolution("found", Def("external", f"{owner.qualname}.{name}", value=obj))
        return UNKNOWN

    def _module_member(self, mod: str, name: str, seen: set[str]) -> Resolution:
        key = f"{mod}:{name}"
        if key in seen:
            return UNKNOWN
        seen.add(key)
        owner = self.module_def(mod)
        src = owner.module
        sub = f"{mod}.{name}"
        binding = src.bindings.get(name) if src is not None else None
        if binding is None and self.project.has_module(sub):
            return Resolution("found", self.module_def(sub))
        if src is None:
            # A namespace package holds only submodules; an unreadable module: unknown.
            return UNKNOWN if mod in self.project.paths else Resolution("missing", owner=owner, member=name)
        if src.tree is None:
            return UNKNOWN
        if isinstance(binding, ImportRef):
            return self._follow(binding, seen)
        if binding is not None:
            return Resolution("found", self._def_for(binding, f"{mod}.{name}", src, None))
        unknown = may_bind(src, name)
        for star in src.star_imports:
            if self.project.has_module(star):
                res = self._module_member(star, name, seen)
                if res.found:
                    return res
                unknown |= res.status == "unknown"
            else:
                unknown = True
        return UNKNOWN if unknown else Resolution("missing", owner=owner, member=name)

    def _follow(self, ref: ImportRef, seen: set[str]) -> Resolution:
        full = ref.module if ref.name is None else f"{ref.module}.{ref.name}"
        if self.project.has_module(full):
            return Resolution("found", self.module_def(full))
        if ref.name is not None and self.project.has_module(ref.module):
            res = self._module_member(ref.module, ref.name, seen)
            # A broken import is the code's problem, not the doc's: never "missing" through one.
            return res if res.found else UNKNOWN
        obj = external_object(full)
        if obj is not None:
            return Resolution("found", Def("external", _canonical_external(obj) or full, value=obj))
        return Resolution("found", Def("external", full))

    def _def_for(self, node: ast.AST, qual: str, src: ModuleSource, owner: Def | None) -> Def:
        if isinstance(node, ast.ClassDef):
            return Def("class", qual, src, node, owner)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return Def("function", qual, src, node, owner)
        return Def("attribute", qual, src, node, owner)

    def class_bindings(self, cls: Def) -> dict[str, ast.AST | ImportRef]:
        node = cls.node
        assert isinstance(node, ast.ClassDef) and cls.module is not None
        cached = self._class_bindings.get(id(node))
        if cached is not None:
            return cached
        src = cls.module
        package = src.name if src.is_package else src.name.rpartition(".")[0]
        found = scope_bindings(node.body, package)
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in stmt.targets):
                for elt in getattr(stmt.value, "elts", []):
                    if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                        found.setdefault(elt.value, stmt)
        for fn in (s for s in walk_nodes(node) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))):
            if not fn.args.args:
                continue
            me = fn.args.args[0].arg
            for sub in walk_nodes(fn):
                targets = list(sub.targets) if isinstance(sub, ast.Assign) else [getattr(sub, "target", None)]
                if not isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    continue
                while targets:  # ``self.x, self.y = ...`` binds both
                    t = targets.pop()
                    if isinstance(t, (ast.Tuple, ast.List)):
                        targets.extend(t.elts)
                    elif isinstance(t, ast.Starred):
                        targets.append(t.value)
                    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                        found.setdefault(t.attr, sub)
        self._class_bindings[id(node)] = found
        return found

    def bases(self, cls: Def) -> tuple[list[Def], bool]:
        """Resolved base classes and whether any base could not be resolved."""
        node = cls.node
        assert isinstance(node, ast.ClassDef) and cls.module is not None
        out: list[Def] = []
        unknown = False
        for base in node.bases:
            expr = base.value if isinstance(base, ast.Subscript) else base
            name = dotted(expr)
            if name is None:
                unknown = True
                continue
            res = self.resolve_in(cls.module, name)
            if res.found and res.target is not None:
                out.append(res.target)
            else:
                unknown = True
        return out, unknown

    def _opaque(self, cls: Def) -> bool:
        """Class decorators or a metaclass we don't know can add members."""
        node = cls.node
        assert isinstance(node, ast.ClassDef)
        if id(node) not in self._opaque_cache:
            self._opaque_cache[id(node)] = self._compute_opaque(cls)
        return self._opaque_cache[id(node)]

    def _compute_opaque(self, cls: Def) -> bool:
        node = cls.node
        assert isinstance(node, ast.ClassDef)
        for deco in node.decorator_list:
            name = dotted(deco.func if isinstance(deco, ast.Call) else deco)
            if name not in _TRANSPARENT_CLASS_DECORATORS:
                return True
        if self._meta_added(cls) is None:
            return True
        # ``setattr(self, name, ...)`` / ``self.__dict__.update(...)`` add attributes nobody wrote down.
        for sub in walk_nodes(node):
            if isinstance(sub, ast.Call) and dotted(sub.func) == "setattr":
                return True
            if isinstance(sub, ast.Attribute) and sub.attr == "__dict__":
                return True
        return False

    def _meta_added(self, cls: Def) -> frozenset[str] | None:
        """Names ``cls``'s metaclass may add (every attribute it stores on anything, and its
        own members); empty without a metaclass; None when it can't be read: not the
        project's, derived from more than ``type``/``ABCMeta``, or adding by ``setattr``."""
        node = cls.node
        assert isinstance(node, ast.ClassDef) and cls.module is not None
        if id(node) in self._meta_cache:
            return self._meta_cache[id(node)]
        added: set[str] = set()
        readable = True
        for k in node.keywords:
            name = dotted(k.value) if k.arg == "metaclass" else None
            if k.arg != "metaclass" or name in ("ABCMeta", "abc.ABCMeta"):
                continue
            res = self.resolve_in(cls.module, name) if name else UNKNOWN
            meta = res.target if res.found else None
            if meta is None or meta.kind != "class" or not meta.is_project or not isinstance(meta.node, ast.ClassDef) \
                    or meta.node.keywords or any(dotted(b) not in ("type", "ABCMeta", "abc.ABCMeta") for b in meta.node.bases):
                readable = False
                break
            added |= set(self.class_bindings(meta))
            for sub in ast.walk(meta.node):
                if isinstance(sub, ast.Call) and dotted(sub.func) == "setattr" or \
                        isinstance(sub, ast.Attribute) and sub.attr == "__dict__":
                    readable = False
                elif isinstance(sub, ast.Attribute) and not isinstance(sub.ctx, ast.Load):
                    added.add(sub.attr)
        out = frozenset(added) if readable else None
        self._meta_cache[id(node)] = out
        return out

    def _class_member(self, cls: Def, name: str, seen: set[int]) -> Resolution:
        if id(cls.node) in seen:
            return UNKNOWN
        seen.add(id(cls.node))
        own = self.class_bindings(cls)
        binding = own.get(name)
        if isinstance(binding, ImportRef):
            return UNKNOWN
        if binding is not None and cls.module is not None:
            return Resolution("found", self._def_for(binding, f"{cls.qualname}.{name}", cls.module, cls))
        bases, unknown = self.bases(cls)
        for base in bases:
            if base.kind == "class":
                res = self._class_member(base, name, seen)
                if res.found:
                    return res
                unknown |= res.status == "unknown"
            elif base.kind == "external" and isinstance(base.value, type):
                if hasattr(base.value, name):
                    return Resolution("found", Def("external", f"{base.qualname}.{name}", value=getattr(base.value, name)))
                canon = base.qualname
                complete = canon in _COMPLETE_BASES or issubclass(base.value, BaseException) and base.value.__module__ == "builtins"
                unknown |= not complete
            else:
                unknown = True
        if name.startswith("__") and name.endswith("__"):
            if hasattr(object, name):
                return Resolution("found", Def("external", f"object.{name}", value=getattr(object, name)))
            return UNKNOWN  # dunders come from protocols and the data model
        if unknown or "__getattr__" in own or "__getattribute__" in own or self._opaque(cls) \
                or name in (self._meta_added(cls) or ()):
            return UNKNOWN
        return Resolution("missing", owner=cls, member=name)

    def member_names(self, owner: Def) -> set[str]:
        """Every name ``owner`` is known to have (for "did you mean")."""
        if owner.kind == "module":
            src = owner.module
            bound = set(src.bindings) if src is not None else set()
            return bound | self.project.submodules(owner.qualname)
        if owner.kind != "class":
            return set()
        names: set[str] = set()
        stack, seen = [owner], set()
        while stack:
            cls = stack.pop()
            if id(cls.node) in seen or cls.kind != "class":
                continue
            seen.add(id(cls.node))
            names |= set(self.class_bindings(cls))
            stack.extend(self.bases(cls)[0])
        return names
