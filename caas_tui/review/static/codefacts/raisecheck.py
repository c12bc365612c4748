"""Which exceptions a function can raise: its own ``raise`` statements plus those of
the project functions it calls (followed a few levels, over-approximating calls on
unknown objects by every project function of that name).

A stated exception is contradicted only when it is a class we can place (a project
exception, or a builtin one with nothing implicit around) that nothing in reach
raises: precision over recall.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import attribute_class, parameter_class
from caas_tui.review.static.codefacts.implicitcalls import properties_read
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes, raise_facts
from caas_tui.review.static.model.resolve import Def

_MAX_DEPTH = 6
# Builtins that raise nothing a doc would promise (or only TypeError on misuse).
_QUIET_CALLS = frozenset(
    {"len", "isinstance", "issubclass", "str", "repr", "list", "dict", "set", "tuple", "frozenset", "sorted",
     "any", "all", "enumerate", "zip", "range", "hasattr", "type", "super", "id", "hash", "print", "bool",
     "callable", "reversed", "map", "filter", "min", "max", "sum", "abs", "round", "format", "vars", "iter"}
)
# Methods of builtin types that raise nothing a doc would promise, on a parameter annotated
# as that type (``items: dict[str, int]`` then ``items.items()``); not ``pop``, ``index``,
# ``remove`` or ``format``, which raise on a missing key, item or field.
_QUIET_METHODS = {
    "dict": frozenset({"items", "keys", "values", "get", "copy", "setdefault"}),
    "list": frozenset({"append", "extend", "insert", "copy", "count", "reverse"}),
    "set": frozenset({"add", "discard", "copy", "union", "intersection", "difference", "issubset", "issuperset"}),
    "frozenset": frozenset({"copy", "union", "intersection", "difference", "issubset", "issuperset"}),
    "str": frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "split", "rsplit",
                      "replace", "casefold", "title", "isdigit", "isalpha", "splitlines"}),
    "bytes": frozenset({"strip", "startswith", "endswith", "split", "replace", "hex"}),
}
_QUIET_METHODS["Mapping"] = _QUIET_METHODS["MutableMapping"] = _QUIET_METHODS["Dict"] = _QUIET_METHODS["dict"]
_QUIET_METHODS["List"] = _QUIET_METHODS["list"]
_LOOKUP = frozenset({"KeyError", "IndexError", "LookupError"})
# Raised by the interpreter itself (bad arguments, arithmetic, attribute access): never
# "not raised" just because no ``raise`` statement names them.
IMPLICIT = frozenset(
    {"TypeError", "AttributeError", "ArithmeticError", "ZeroDivisionError", "OverflowError", "FloatingPointError",
     "RecursionError", "MemoryError", "AssertionError", "StopIteration", "StopAsyncIteration", "UnicodeError",
     "UnicodeDecodeError", "UnicodeEncodeError", "NameError", "UnboundLocalError", "SystemError", "Exception",
     "BaseException", "KeyboardInterrupt", "GeneratorExit", "NotImplementedError"}
)


@dataclass
class Reach:
    raised: dict[str, Def] = field(default_factory=dict)  # qualname -> exception class
    opaque: bool = False  # bare ``raise``, ``raise err``, too deep to follow, or a callable passed in
    # opaque for a reason other than calling a callable the caller passed in (a clock, a hook):
    # a raise or a call target in the project that cannot be placed
    unplaced: bool = False
    external_calls: bool = False  # calls we can't see into (may raise builtins)
    subscripts: bool = False
    evidence: list[Def] = field(default_factory=list)  # functions that raise
    # Raised through calls that resolve exactly: ``obj.method()`` on an untyped object is
    # followed into every project method of that name, which can say "nothing raises X"
    # but not "X is raised".
    certain: set[str] = field(default_factory=set)
    own: set[str] = field(default_factory=set)  # raised by the function's own ``raise`` statements


def reach(ctx: ReviewContext, fn: Def) -> Reach:
    out = Reach()
    seen: set[tuple[int, bool]] = set()

    def visit(f: Def, depth: int, exact: bool = True) -> None:
        if f.node is None or f.module is None or (id(f.node), exact) in seen or (id(f.node), True) in seen:
            return
        seen.add((id(f.node), exact))
        if depth > _MAX_DEPTH:
            out.opaque = out.unplaced = True
            return
        facts = raise_facts(f)
        out.opaque |= facts.opaque
        out.unplaced |= facts.opaque
        out.subscripts |= facts.subscripts and _looks_up(f)
        for name in facts.names:
            res = ctx.resolver.resolve_in(f.module, name)
            if res.found and res.target is not None and res.target.kind in ("class", "external"):
                out.raised.setdefault(res.target.qualname, res.target)
                if exact:
                    out.certain.add(res.target.qualname)
                if depth == 0:
                    out.own.add(res.target.qualname)
                if f not in out.evidence:
                    out.evidence.append(f)
            else:
                out.opaque = out.unplaced = True
        local = _local_names(f)
        loaded = _loaded_names(f)
        if loaded is None:
            out.opaque = out.unplaced = True  # ``handlers[name](x)``, ``getattr(obj, n)()``: which code runs is not known
            loaded = set()
        for call in facts.calls:
            if _quiet_method(f, call):
                continue
            head = call.split(".", 1)[0]
            if call in local or head in loaded or _held_in_attribute(ctx, f, call):
                # a callable held in a variable, an argument or an attribute, or a module loaded
                # at run time, may raise anything
                out.opaque = True
                out.unplaced |= head in loaded
                continue
            targets = call_targets(ctx, f, call)
            sure = exact and _resolves_exactly(ctx, f, call)
            for target in targets:
                if target is None:
                    out.external_calls = True
                elif target.kind == "function":
                    visit(target, depth + 1, sure)
                elif target.kind == "class":
                    for hook in ("__init__", "__post_init__"):  # a dataclass validates in ``__post_init__``
                        init = ctx.resolver.member(target, hook)
                        if init.found and init.target is not None and init.target.kind == "function":
                            visit(init.target, depth + 1, sure)
        for prop in properties_read(ctx, f):
            visit(prop, depth + 1, exact)  # ``self.area`` runs the property's getter

    visit(fn, 0)
    for made in _returned_callables(ctx, fn):
        visit(made, 1)  # a factory's docs speak of what it builds ("a validator that raises ...")
    return out


def _returned_callables(ctx: ReviewContext, fn: Def) -> list[Def]:
    """What ``fn`` hands back to be called later: a nested function it returns, or the
    ``__call__`` of a project class it instantiates and returns."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.module is None:
        return []
    nested = {n.name: n for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not node}
    out: list[Def] = []
    for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None):
        value = ret.value
        if isinstance(value, ast.Name) and value.id in nested:
            out.append(Def("function", f"{fn.qualname}.<locals>.{value.id}", fn.module, nested[value.id], fn.owner))
        elif isinstance(value, ast.Call):
            name = dotted(value.func)
            res = ctx.resolver.resolve_in(fn.module, name) if name else None
            if res is not None and res.found and res.target is not None and res.target.kind == "class" \
                    and res.target.is_project:
                call = ctx.resolver.member(res.target, "__call__")
                if call.found and call.target is not None and call.target.kind == "function":
                    out.append(call.target)
    return out


def _looks_up(f: Def) -> bool:
    """A ``x[k]`` load in the body that is not part of an annotation (``dict[str, int]`` in
    ``self._items: dict[str, int] = {}`` or a parameter's type looks nothing up)."""
    node = f.node
    if node is None:
        return False
    typing: set[int] = set()
    for n in own_nodes(node):
        ann = n.annotation if isinstance(n, (ast.AnnAssign, ast.arg)) else None
        if ann is not None:
            typing.update(id(x) for x in ast.walk(ann))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for part in (node.returns, *(a.annotation for a in ast.walk(node.args) if isinstance(a, ast.arg))):
            if part is not None:
                typing.update(id(x) for x in ast.walk(part))
    return any(isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and id(n) not in typing
               for n in own_nodes(node))


_LOADERS = frozenset({"importlib.import_module", "import_module", "__import__", "getattr", "importlib.reload"})


def _loaded_names(f: Def) -> set[str] | None:
    """Names bound from a run-time loader (``mod = importlib.import_module(name)``); None when
    the body calls something that is not a name at all (``table[key](x)``, ``getattr(o, n)()``,
    ``import_module(n).run()``)."""
    node = f.node
    if node is None:
        return set()
    out: set[str] = set()
    for n in own_nodes(node):
        if isinstance(n, ast.Call):
            func = n.func.value if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Call) else n.func
            if isinstance(func, ast.Subscript) or (isinstance(func, ast.Call) and (
                    func is n.func or (dotted(func.func) or "") in _LOADERS)):
                return None
        elif isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Call) \
                and (dotted(n.value.func) or "") in _LOADERS:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def _held_in_attribute(ctx: ReviewContext, f: Def, call: str) -> bool:
    """``self.hook()`` where ``hook`` is data on the instance (a callable passed in), not a method."""
    parts = call.split(".")
    if len(parts) != 2 or parts[0] not in ("self", "cls") or f.owner is None:
        return False
    res = ctx.resolver.member(f.owner, parts[1])
    if not (res.found and res.target is not None and res.target.kind == "attribute"):
        return False
    # an instance of a known project class: its ``__call__`` is followed like any method
    return attribute_class(ctx, f.owner, parts[1]) is None


def _quiet_method(f: Def, call: str) -> bool:
    """``param.method`` where ``param`` is annotated as a builtin type whose ``method`` raises nothing."""
    node = f.node
    parts = call.split(".")
    if len(parts) != 2 or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    ann = next((a.annotation for a in args if a.arg == parts[0]), None)
    if isinstance(ann, ast.Subscript):
        ann = ann.value
    base = (dotted(ann) or "").rsplit(".", 1)[-1] if ann is not None else ""
    if _assigned(node, parts[0]):
        return False  # rebound in the body: the annotation no longer says what it holds
    return parts[1] in _QUIET_METHODS.get(base, frozenset())


def _assigned(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in own_nodes(node))


def _local_names(f: Def) -> set[str]:
    """Parameters and names the function assigns (``self``/``cls`` aside)."""
    node = f.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    names = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)} - {"self", "cls"}
    for n in own_nodes(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
    return names


def _resolves_exactly(ctx: ReviewContext, f: Def, call: str) -> bool:
    """The call's target is known, not guessed from its method name."""
    parts = call.split(".")
    if len(parts) == 2 and parts[0] in ("self", "cls") and f.owner is not None:
        return ctx.resolver.member(f.owner, parts[1]).found
    if len(parts) == 2 and _typed_member(ctx, f, parts) is not None:
        return True
    return f.module is not None and ctx.resolver.resolve_in(f.module, call).found


def _typed_member(ctx: ReviewContext, f: Def, parts: list[str]) -> Def | None:
    """``param.method`` on a parameter annotated with a project class: that class's member."""
    cls = parameter_class(ctx, f, parts[0])
    res = ctx.resolver.member(cls, parts[1]) if cls is not None else None
    return res.target if res is not None and res.found and not res.ambiguous else None


def call_targets(ctx: ReviewContext, f: Def, call: str) -> list[Def | None]:
    """Definitions a call may reach (None: something outside the project)."""
    assert f.module is not None
    parts = call.split(".")
    if len(parts) == 1 and parts[0] in _QUIET_CALLS:
        return []
    if len(parts) == 2 and parts[0] in ("self", "cls") and f.owner is not None:
        res = ctx.resolver.member(f.owner, parts[1])
        if res.found and res.target is not None and res.target.kind == "attribute":
            cls = attribute_class(ctx, f.owner, parts[1])
            dunder = ctx.resolver.member(cls, "__call__") if cls is not None else None
            if dunder is not None and dunder.found and dunder.target is not None and dunder.target.kind == "function":
                return [dunder.target]
        if res.found and res.target is not None:
            return [res.target if res.target.kind in ("function", "class") else None]
    res = ctx.resolver.resolve_in(f.module, call)
    if res.found and res.target is not None:
        return [res.target] if res.target.is_project else [None]
    typed = _typed_member(ctx, f, parts) if len(parts) == 2 else None
    if typed is not None:
        return [typed if typed.kind in ("function", "class") else None]
    if len(parts) > 1:
        # ``obj.method()`` on an object we can't type: any project method of that name.
        named: list[Def | None] = [d for d in ctx.resolver.defs_named(parts[-1]) if d.kind == "function"]
        return named if named else [None]
    return [None]


def is_subclass(ctx: ReviewContext, cls: Def, of: Def) -> bool:
    """``cls`` is ``of`` or derives from it (through project and builtin bases)."""
    stack, seen = [cls], set()
    while stack:
        cur = stack.pop()
        if cur.qualname == of.qualname:
            return True
        if cur.kind == "external":
            if isinstance(cur.value, type) and isinstance(of.value, type) and issubclass(cur.value, of.value):
                return True
            continue
        if cur.kind != "class" or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        stack.extend(ctx.resolver.bases(cur)[0])
    return False


def stated_exception(ctx: ReviewContext, name: str, claim: Claim | None = None) -> Def | None:
    short = name.rsplit(".", 1)[-1]
    if "." not in name and isinstance(getattr(builtins, name, None), type):
        obj = getattr(builtins, name)
        if issubclass(obj, BaseException):
            return Def("external", name, value=obj)
    res = ctx.resolve(name, claim)
    if res.found and not res.ambiguous and res.target is not None and res.target.kind == "class":
        return res.target
    if claim is not None and not res.found:
        # a docstring's Raises entry often names what a callee raises, which its own module
        # never imports: the one project exception class of that name
        wide = ctx.resolver.resolve(name)
        target = wide.target if wide.found and not wide.ambiguous else None
        if target is not None and target.kind == "class" and target.is_project and is_subclass(ctx, target, _BASE):
            return target
    if short != name:
        return stated_exception(ctx, short, claim) if isinstance(getattr(builtins, short, None), type) else None
    return None


_BASE = Def("external", "BaseException", value=BaseException)


def judge(ctx: ReviewContext, fn: Def, exc: Def) -> tuple[bool | None, Reach]:
    """True: something in reach raises ``exc`` (or a subclass); False: nothing can;
    None: can't tell."""
    r = reach(ctx, fn)
    if any(is_subclass(ctx, raised, exc) for q, raised in r.raised.items() if q in r.certain):
        return True, r
    if any(is_subclass(ctx, raised, exc) for raised in r.raised.values()):
        return None, r  # only through a call guessed by its method name
    if r.opaque:
        return None, r
    if exc.is_project:
        return False, r
    # A builtin exception: only when everything in reach is visible (no calls out of the
    # project) and the exception is not one the interpreter raises on its own.
    if r.external_calls or (r.subscripts and exc.qualname in _LOOKUP):
        return None, r
    if not r.raised and (exc.qualname in IMPLICIT or not isinstance(exc.value, type) or open_ended(ctx, fn)):
        return None, r
    return False, r


def raised_itself(ctx: ReviewContext, r: Reach, exc: Def) -> bool:
    """``exc`` (or a subclass) is raised by the function's own body, not only deeper down."""
    return any(is_subclass(ctx, r.raised[q], exc) for q in r.own if q in r.raised)


def open_ended(ctx: ReviewContext, fn: Def) -> bool:
    """A stub (``...``, ``pass``) or a method subclasses override: the doc may speak of
    implementations this body is not."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body or all(isinstance(s, ast.Pass) for s in body):
        return True
    owner = fn.owner
    if owner is None or owner.kind != "class":
        return False
    return any(node.name in ctx.resolver.class_bindings(sub) for sub in ctx.subclasses(owner))


def clamps(fn: Def) -> bool:
    """``min``/``max`` in the body: the function bounds a value rather than rejecting it."""
    return any(c in ("min", "max") for c in raise_facts(fn).calls)


def bases_known(ctx: ReviewContext, cls: Def) -> bool:
    """Every base of ``cls`` up to ``object`` resolves (project classes or builtins)."""
    stack, seen = [cls], set()
    while stack:
        cur = stack.pop()
        if cur.kind == "external" or id(cur.node) in seen:
            continue
        if cur.kind != "class" or not isinstance(cur.node, ast.ClassDef):
            return False
        seen.add(id(cur.node))
        bases, unknown = ctx.resolver.bases(cur)
        if unknown:
            return False
        stack.extend(bases)
    return True
