"""Give the names in every fragment a meaning: the project-wide name resolution.

A tiny abstract interpreter over dotted expressions. A value is one of
``("def", qualname)`` (a module, class or function itself), ``("inst", class)``
(an instance of a project class), ``("super", class)`` (``super()`` inside
``class``) or ``("ext", dotted)`` (something from outside the project). Each
step multiplies a confidence: following an annotation is surer than following
an assignment, and ``self.method()`` may really dispatch to a subclass override.
Everything is dictionary lookups over fragments, so re-resolving the whole
project after one file changed is cheap.
"""

from __future__ import annotations

from collections.abc import Iterable

from caas_tui.graph.model import Fragment, PyDef, Typed

Value = tuple[str, str]
MAX_DEPTH = 8  # type chains longer than this are not worth following (and may be cycles)
DISPATCH = 0.95  # a method found through ``self``/an instance may be overridden below
PROPERTY = 0.8  # ``obj.attr.x`` where ``attr`` is a method: assumed to be a property
FIXTURE = 0.8  # an untyped test parameter named like a fixture holds what the fixture returns
_IMPLICIT_THIS = frozenset({"java", "kotlin", "csharp"})  # a bare name may be a member of the enclosing class


class Project:
    """Definitions of every Python fragment, indexed for resolution."""

    def __init__(self, fragments: Iterable[Fragment]) -> None:
        self.fragments: list[Fragment] = [f for f in fragments if f.module is not None]
        self.defs: dict[str, tuple[PyDef, Fragment]] = {}
        self.modules: dict[str, Fragment] = {}
        self.members: dict[str, dict[str, str]] = {}
        self.by_short: dict[str, list[str]] = {}
        self.fixtures: dict[str, dict[str, str]] = {}
        # Each file's own top-level scope (its first def): in Java, Go or Kotlin several
        # files share one package, so the package's registered def is only one of them.
        self.file_scope: dict[str, PyDef] = {}
        for frag in sorted(self.fragments, key=lambda f: f.path):
            assert frag.module is not None
            self.modules.setdefault(frag.module, frag)
            if frag.defs and frag.defs[0].kind == "module":
                self.file_scope[frag.path] = frag.defs[0]
            for d in frag.defs:
                if d.qualname in self.defs:
                    continue  # a property setter or a conditional redefinition: first wins
                self.defs[d.qualname] = (d, frag)
                if d.kind != "module":
                    owner, _, short = d.qualname.rpartition(".")
                    self.members.setdefault(owner, {}).setdefault(short, d.qualname)
                    self.by_short.setdefault(short, []).append(d.qualname)
                if d.fixture:
                    self.fixtures.setdefault(frag.module, {}).setdefault(d.short, d.qualname)
        self.roots = {m.split(".", 1)[0] for m in self.modules}
        self._mro: dict[str, list[str]] = {}
        # Memos (by def identity): the same names are looked up again and again in one scope.
        self._scopes: dict[int, tuple[dict[str, Typed], dict[str, str], list[str]]] = {}
        self._resolved: dict[tuple[int, str], tuple[Value | None, float]] = {}
        # ``state_manager`` / ``scene`` in prose -> the class a variable so named holds.
        self.classes_by_key: dict[str, list[str]] = {}
        for q, (d, _f) in self.defs.items():
            if d.kind == "class":
                self.classes_by_key.setdefault(d.short.replace("_", "").lower(), []).append(q)

    # -- queries -----------------------------------------------------------------------
    def is_test(self, qualname: str) -> bool:
        d, frag = self.defs[qualname]
        return frag.kind == "test" or frag.example or d.test

    def module_of(self, qualname: str) -> str:
        frag = self.defs[qualname][1]
        scope = self.file_scope.get(frag.path)
        if scope is not None and scope.qualname in self.defs:
            return scope.qualname
        return frag.module or qualname

    def mro(self, cls: str) -> list[str]:
        """``cls`` then its project bases, depth-first left to right (close enough to C3 for lookups)."""
        if cls in self._mro:
            return self._mro[cls]
        self._mro[cls] = [cls]  # guards against inheritance cycles while computing
        out = [cls]
        entry = self.defs.get(cls)
        if entry is not None:
            d, frag = entry
            for base in d.bases:
                val, _ = self.resolve(base, d, frag)
                if val and val[0] == "def" and self.kind(val[1]) == "class":
                    out.extend(b for b in self.mro(val[1]) if b not in out)
        self._mro[cls] = out
        return out

    def bases(self, cls: str) -> list[tuple[str, float]]:
        d, frag = self.defs[cls]
        out: list[tuple[str, float]] = []
        for base in d.bases:
            val, conf = self.resolve(base, d, frag)
            if val and val[0] == "def" and self.kind(val[1]) == "class" and val[1] != cls:
                out.append((val[1], conf))
        return out

    def kind(self, qualname: str) -> str | None:
        entry = self.defs.get(qualname)
        return entry[0].kind if entry else None

    def member(self, cls: str, name: str, *, skip_self: bool = False) -> str | None:
        for k in self.mro(cls)[1 if skip_self else 0 :]:
            q = self.members.get(k, {}).get(name)
            if q is not None:
                return q
        return None

    def attr_type(self, cls: str, name: str) -> tuple[Typed, PyDef, Fragment] | None:
        for k in self.mro(cls):
            entry = self.defs.get(k)
            if entry is None:
                continue
            typed = next((t for t in entry[0].attrs if t.name == name), None)
            if typed is not None:
                return typed, entry[0], entry[1]
        return None

    # -- resolution -----------------------------------------------------------------------
    def scope(self, ctx: PyDef) -> tuple[dict[str, Typed], dict[str, str], list[str]]:
        """``ctx``'s typed names, import aliases (the last binding wins, as in Python) and star imports."""
        found = self._scopes.get(id(ctx))
        if found is None:
            imports = {alias: target for alias, target in ctx.imports if alias not in ("", "*")}
            stars = [target for alias, target in ctx.imports if alias == "*"]
            found = ({t.name: t for t in ctx.locals}, imports, stars)
            self._scopes[id(ctx)] = found
        return found

    def resolve(self, expr: str, ctx: PyDef, frag: Fragment, depth: int = 0) -> tuple[Value | None, float]:
        """What ``expr`` (as written inside ``ctx``) refers to, and how sure that is."""
        if depth == 0:
            key = (id(ctx), expr)
            memo = self._resolved.get(key)
            if memo is None:
                memo = self._resolved[key] = self._resolve(expr, ctx, frag, 0)
            return memo
        return self._resolve(expr, ctx, frag, depth)

    def _resolve(self, expr: str, ctx: PyDef, frag: Fragment, depth: int) -> tuple[Value | None, float]:
        if depth > MAX_DEPTH:
            return None, 0.0
        tokens = expr.split(".")
        head = tokens[0]
        val, conf = self._head(head.removesuffix("()"), ctx, frag, depth)
        if val is not None and head.endswith("()"):
            val, conf = self._times(self.call(val, depth), conf)
        for i, tok in enumerate(tokens[1:], 2):
            if val is None:
                break
            more = i < len(tokens) and not tok.endswith("()")
            val, conf = self._times(self.attr(val, tok.removesuffix("()"), depth, more=more), conf)
            if val is not None and tok.endswith("()"):
                val, conf = self._times(self.call(val, depth), conf)
        return (val, conf) if val is not None else (None, 0.0)

    @staticmethod
    def _times(result: tuple[Value | None, float], conf: float) -> tuple[Value | None, float]:
        return result[0], result[1] * conf

    def _head(self, name: str, ctx: PyDef, frag: Fragment, depth: int) -> tuple[Value | None, float]:
        if name == "?":
            return None, 0.0
        if ctx.cls is not None:
            if name == "self":
                return ("inst", ctx.cls), 1.0
            if name == "cls":
                return ("def", ctx.cls), 1.0
            if name == "super":
                return ("super", ctx.cls), 1.0
        typed_names, imports, stars = self.scope(ctx)
        typed = typed_names.get(name)
        if typed is not None and typed.type_expr.split(".", 1)[0].removesuffix("()") != name:
            val, conf = self.resolve(typed.type_expr, ctx, frag, depth + 1)
            if val is not None:
                return val, conf * typed.confidence
        target = imports.get(name)
        if target is not None:
            return self.qualified(target, depth + 1)
        if name in ctx.params and frag.kind == "test":
            found = self._fixture(name, frag, depth)
            if found[0] is not None:
                return found
        if frag.language != "python" and ctx.kind != "module":
            enclosing = self._enclosing(name, ctx, frag.language)
            if enclosing is not None:
                return ("def", enclosing), 1.0
        module = frag.module or ""
        if ctx.kind != "module":
            member = self.members.get(module, {}).get(name)
            if member is not None:
                return ("def", member), 1.0
            mdef = self.file_scope.get(frag.path)
            if mdef is not None and mdef is not ctx:
                return self._head(name, mdef, frag, depth + 1)
            return None, 0.0
        member = self.members.get(module, {}).get(name)
        if member is not None:
            return ("def", member), 1.0
        for star in stars:
            val, conf = self.qualified(f"{star}.{name}", depth + 1)
            if val is not None and val[0] == "def":
                return val, conf
        return None, 0.0

    def _enclosing(self, name: str, ctx: PyDef, language: str) -> str | None:
        """A bare name in a brace language: the enclosing types' members where the language
        reads them without ``this`` (Java, Kotlin, C#), then each enclosing namespace or
        module outwards (a C# namespace, a Rust ``mod``, a Java package)."""
        implicit_this = language in _IMPLICIT_THIS
        if implicit_this and ctx.cls is not None and self.kind(ctx.cls) == "class":
            q = self.member(ctx.cls, name)
            if q is not None:
                return q
        parts = ctx.qualname.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if not implicit_this and self.kind(prefix) == "class":
                continue
            q = self.members.get(prefix, {}).get(name)
            if q is not None:
                return q
        return None

    def _fixture(self, name: str, frag: Fragment, depth: int) -> tuple[Value | None, float]:
        """A pytest fixture visible from ``frag``: its own module, then conftest upwards."""
        module = frag.module or ""
        parts = module.split(".")
        candidates = [module] + [".".join([*parts[:i], "conftest"]) for i in range(len(parts) - 1, -1, -1)]
        for mod in candidates:
            q = self.fixtures.get(mod, {}).get(name)
            if q is not None:
                d, f = self.defs[q]
                if d.returns:
                    val, conf = self.resolve(d.returns, d, f, depth + 1)
                    return val, conf * FIXTURE
                return None, 0.0
        return None, 0.0

    def qualified(self, dotted: str, depth: int = 0) -> tuple[Value | None, float]:
        """An absolute dotted name: a project definition (through re-exports) or an external name."""
        if dotted in self.defs:
            return ("def", dotted), 1.0
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in self.modules:
                val: Value | None = ("def", prefix)
                conf = 1.0
                for name in parts[i:]:
                    if val is None:
                        break
                    val, conf = self._times(self.attr(val, name, depth + 1, more=False), conf)
                return (val, conf) if val is not None else (None, 0.0)
        if parts[0] in self.roots:
            return None, 0.0  # a project name we cannot find: say nothing rather than call it external
        return ("ext", dotted), 1.0

    def attr(self, val: Value, name: str, depth: int, *, more: bool) -> tuple[Value | None, float]:
        tag, target = val
        if tag == "ext":
            return ("ext", f"{target}.{name}"), 1.0
        kind = self.kind(target)
        if tag == "def" and kind == "module":
            q = self.members.get(target, {}).get(name)
            if q is not None:
                return ("def", q), 1.0
            if f"{target}.{name}" in self.modules:
                return ("def", f"{target}.{name}"), 1.0
            d, frag = self.defs[target]
            typed_names, imports, stars = self.scope(d)
            # A package re-exporting a name (``from .entity import Entity`` in ``__init__``).
            imported = imports.get(name)
            if imported is not None and depth < MAX_DEPTH:
                return self.qualified(imported, depth + 1)
            # ``from .shapes import *`` / ``export * from "./shapes"``: only a definition found
            # through the star counts (an external guess would shadow the module's own names).
            for star in stars if depth < MAX_DEPTH else ():
                found_star = self.qualified(f"{star}.{name}", depth + 1)
                if found_star[0] is not None and found_star[0][0] == "def":
                    return found_star
            typed = typed_names.get(name)
            if typed is not None:
                found, conf = self.resolve(typed.type_expr, d, frag, depth + 1)
                return found, conf * typed.confidence
            return None, 0.0
        if kind != "class":
            return None, 0.0
        q = self.member(target, name, skip_self=tag == "super")
        if q is not None:
            if tag == "def":
                return ("def", q), 1.0
            if more and self.kind(q) == "method":
                found, conf = self.call(("def", q), depth)
                return found, conf * PROPERTY * DISPATCH
            return ("def", q), DISPATCH
        found_attr = self.attr_type(target, name)
        if found_attr is not None:
            typed, owner, frag = found_attr
            found, conf = self.resolve(typed.type_expr, owner, frag, depth + 1)
            return found, conf * typed.confidence
        return None, 0.0

    def call(self, val: Value, depth: int) -> tuple[Value | None, float]:
        """The value of calling ``val``: a class builds an instance, a function returns its return type."""
        tag, target = val
        if tag in ("ext", "super"):
            return val, 1.0
        if tag != "def":
            return None, 0.0
        entry = self.defs.get(target)
        if entry is None:
            return None, 0.0
        d, frag = entry
        if d.kind == "class":
            return ("inst", target), 1.0
        if d.returns and depth < MAX_DEPTH:
            return self.resolve(d.returns, d, frag, depth + 1)
        return None, 0.0
