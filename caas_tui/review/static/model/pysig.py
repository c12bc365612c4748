"""Facts about a function read from its ``ast``: parameters, defaults (following
module constants, across files), the return annotation, raised exceptions and the
string prefixes it puts in front of a parameter.
"""

from __future__ import annotations

import ast
import codecs
import weakref
from dataclasses import dataclass

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.model.project import ModuleSource, child_nodes
from caas_tui.review.static.model.resolve import Def, Resolver
from caas_tui.review.static.model.valuecalls import value_call

# Decorators that leave the call signature as written.
TRANSPARENT_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "property", "abstractmethod", "abc.abstractmethod", "cached_property",
     "functools.cached_property", "cache", "functools.cache", "lru_cache", "functools.lru_cache", "override",
     "typing.override", "final", "typing.final", "wraps", "functools.wraps", "deprecated", "setter", "getter",
     "contextmanager", "contextlib.contextmanager", "total_ordering"}
)
_MISSING = object()


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: str  # posonly | pos | kwonly | var | varkw
    default: ast.expr | None = None
    annotation: ast.expr | None = None

    @property
    def required(self) -> bool:
        return self.default is None and self.kind in ("posonly", "pos", "kwonly")


@dataclass(frozen=True)
class Signature:
    fn: Def
    params: tuple[Param, ...]
    returns: ast.expr | None
    decorators: tuple[str, ...]
    reliable: bool  # False when an unknown decorator may rewrite the signature
    overloaded: bool = False

    def named(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    @property
    def has_var(self) -> bool:
        return any(p.kind == "var" for p in self.params)

    @property
    def has_varkw(self) -> bool:
        return any(p.kind == "varkw" for p in self.params)

    @property
    def positional(self) -> list[Param]:
        return [p for p in self.params if p.kind in ("posonly", "pos")]

    @property
    def is_method(self) -> bool:
        return self.fn.owner is not None and self.fn.owner.kind == "class"

    @property
    def kind(self) -> str:
        if "staticmethod" in self.decorators:
            return "static"
        if "classmethod" in self.decorators:
            return "class"
        return "method" if self.is_method else "function"

    def bound(self) -> Signature:
        """As called on an instance (or a class, for a classmethod): first parameter dropped."""
        if self.kind in ("method", "class") and self.params and self.params[0].kind in ("posonly", "pos"):
            return Signature(self.fn, self.params[1:], self.returns, self.decorators, self.reliable, self.overloaded)
        return self

    def user_params(self) -> list[Param]:
        return list(self.bound().params)


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    name = dotted(target) or ""
    # ``@x.setter`` / ``@x.getter`` keep the signature; match them by their last part.
    last = name.rsplit(".", 1)[-1]
    return last if last in ("setter", "getter", "deleter") else name


def signature(fn: Def) -> Signature | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    a = node.args
    params: list[Param] = []
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        params.append(Param(arg.arg, "posonly" if i < len(a.posonlyargs) else "pos", default, arg.annotation))
    if a.vararg is not None:
        params.append(Param(a.vararg.arg, "var", None, a.vararg.annotation))
    for arg, kd in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        params.append(Param(arg.arg, "kwonly", kd, arg.annotation))
    if a.kwarg is not None:
        params.append(Param(a.kwarg.arg, "varkw", None, a.kwarg.annotation))
    decorators = tuple(_decorator_name(d) for d in node.decorator_list)
    reliable = all(d in TRANSPARENT_DECORATORS for d in decorators)
    overloaded = "overload" in decorators or "typing.overload" in decorators or _has_overloads(fn)
    return Signature(fn, tuple(params), node.returns, decorators, reliable and not overloaded, overloaded)


def _has_overloads(fn: Def) -> bool:
    """Another def of the same name in the same body (``@overload`` stubs) makes the last one ambiguous."""
    src = fn.module
    if src is None or src.tree is None or not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    scope = fn.owner.node if fn.owner is not None and isinstance(fn.owner.node, ast.ClassDef) else src.tree
    body = getattr(scope, "body", [])
    same = [s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == fn.node.name]
    return len(same) > 1 and not any(_decorator_name(d).endswith(("setter", "getter", "deleter")) for s in same for d in s.decorator_list)


# -- values -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Value:
    value: object
    source: str  # how the defining code writes it (``1e-3``)
    via: tuple[Def, ...] = ()  # constants followed to get here (evidence)


def evaluate(expr: ast.expr, fn_module: Def | None, resolver: Resolver, depth: int = 0) -> Value | None:
    """A default expression's value: a literal, or a module constant (followed across files)."""
    src = fn_module.module if fn_module is not None else None
    try:
        return Value(ast.literal_eval(expr), src.segment(expr) if src else ast.unparse(expr))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if src is not None and isinstance(expr, ast.Call):
        made = value_call(expr, lambda name: _qualified(src, name, resolver))
        return Value(made[0], src.segment(expr)) if made is not None else None
    if src is not None and depth <= 5 and isinstance(expr, (ast.JoinedStr, ast.BinOp)):
        text = _const_str(expr, fn_module, resolver, depth)
        return Value(text, src.segment(expr)) if text is not None else None
    name = dotted(expr)
    if name is None or src is None or depth > 5:
        return None
    res = resolver.resolve_in(src, name)
    target = res.target
    if not res.found or target is None or target.kind != "attribute" or target.module is None:
        return None
    if target.owner is not None and is_enum(target.owner, resolver):
        return None  # ``Units.METRIC`` is a member, not its value ``"metric"``
    stmt = target.node
    value_node = getattr(stmt, "value", None)
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value_node is None:
        return None
    if isinstance(stmt, ast.Assign) and not all(isinstance(t, ast.Name) for t in stmt.targets):
        return None
    inner = evaluate(value_node, Def("module", target.module.name, target.module), resolver, depth + 1)
    if inner is None:
        return None
    return Value(inner.value, inner.source, (target, *inner.via))


def _qualified(src: ModuleSource, name: str, resolver: Resolver) -> str | None:
    """The full name of a callee as the module binds it: ``decimal.Decimal`` for ``Decimal``."""
    if name in ("dict", "list", "set", "tuple", "frozenset") and name not in src.bindings:
        return name
    res = resolver.resolve_in(src, name)
    return res.target.qualname if res.found and res.target is not None and res.target.kind == "external" else None


_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"})


def is_enum(cls: Def, resolver: Resolver, depth: int = 0) -> bool:
    """A class deriving (through the project's classes) from one of :mod:`enum`'s bases."""
    if cls.kind != "class" or not isinstance(cls.node, ast.ClassDef) or depth > 8:
        return cls.kind == "external" and cls.short in _ENUM_BASES
    if any((dotted(b) or "").rsplit(".", 1)[-1] in _ENUM_BASES for b in cls.node.bases):
        return True
    return any(is_enum(b, resolver, depth + 1) for b in resolver.bases(cls)[0])


def _const_str(expr: ast.expr, mod: Def | None, resolver: Resolver, depth: int) -> str | None:
    """``f"{SCHEME}://"`` or ``SCHEME + "://"`` built only from string constants."""
    if isinstance(expr, ast.Constant):
        return expr.value if isinstance(expr.value, str) else None
    if isinstance(expr, ast.JoinedStr):
        parts: list[str] = []
        for value in expr.values:
            if isinstance(value, ast.FormattedValue):
                if value.conversion != -1 or value.format_spec is not None:
                    return None
                inner = evaluate(value.value, mod, resolver, depth + 1)
                if inner is None or not isinstance(inner.value, str):
                    return None
                parts.append(inner.value)
            else:
                text = _const_str(value, mod, resolver, depth)
                if text is None:
                    return None
                parts.append(text)
        return "".join(parts)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left = _const_str(expr.left, mod, resolver, depth)
        right = _const_str(expr.right, mod, resolver, depth)
        return left + right if left is not None and right is not None else None
    evaluated = evaluate(expr, mod, resolver, depth + 1)
    return evaluated.value if evaluated is not None and isinstance(evaluated.value, str) else None


def _unescaped(text: str) -> str:
    try:
        return codecs.decode(text, "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return text


def same_value(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str) and ("\\" in a or "\\" in b):
        # A doc may spell ``"\n"`` with its escapes escaped once more (``"\\n"``).
        return a == b or _unescaped(a) == b or a == _unescaped(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return type(a) is type(b) and a == b or (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and list(a) == list(b))


# -- raises -------------------------------------------------------------------------------
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# Every check asks for the same function bodies again (23k walks of one stdlib review); the
# answer lives as long as the node, so a file read again (new tree) is walked afresh.
_PROPERTY_GETTERS = frozenset({"property", "cached_property", "functools.cached_property"})


def is_property(d: Def, *, accessors: bool = False) -> bool:
    """``d`` is a property's getter (``@property``, ``@cached_property``); with ``accessors``
    also its ``.setter``/``.getter``/``.deleter``: code that runs on attribute access."""
    if not isinstance(d.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for dec in d.node.decorator_list:
        name = dotted(dec) or ""
        if name in _PROPERTY_GETTERS or (accessors and name.rsplit(".", 1)[-1] in ("setter", "getter", "deleter")):
            return True
    return False


_OWN: weakref.WeakKeyDictionary[ast.AST, tuple[ast.AST, ...]] = weakref.WeakKeyDictionary()


def parent_map(node: ast.AST) -> dict[int, ast.AST]:
    """Each node under ``node`` (by ``id``) -> its parent: how far up a statement's guards go."""
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(node):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    return parents


def own_nodes(node: ast.AST) -> tuple[ast.AST, ...]:
    """Nodes of a function body, not descending into nested defs or lambdas."""
    cached = _OWN.get(node)
    if cached is None:
        cached = _OWN[node] = tuple(_walk_own(node))
    return cached


def _walk_own(node: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    stack = child_nodes(node)
    pop, push, extend, keep = stack.pop, stack.append, stack.extend, out.append
    node_type = ast.AST
    while stack:
        cur = pop()
        if isinstance(cur, _NESTED):
            continue
        keep(cur)
        # ``child_nodes`` inlined: this loop runs once per node of every function body.
        for name in cur._fields:
            value = getattr(cur, name, None)
            if isinstance(value, node_type):
                push(value)
            elif isinstance(value, list):
                extend([item for item in value if isinstance(item, node_type)])
    return out


@dataclass(frozen=True)
class RaiseFacts:
    names: tuple[str, ...]  # exception names as written in ``raise`` statements
    opaque: bool  # a bare ``raise``/``raise err`` or a call we can't see into
    calls: tuple[str, ...]  # dotted names of calls made (for following into callees)
    subscripts: bool  # ``x[k]`` may raise KeyError/IndexError implicitly


def raise_facts(fn: Def) -> RaiseFacts:
    names: list[str] = []
    opaque = False
    calls: list[str] = []
    subscripts = False
    nodes = own_nodes(fn.node) if fn.node is not None else []
    # ``raise Error(...)`` constructs the exception: that call raises nothing else.
    constructing = {id(n.exc) for n in nodes if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call)}
    for node in nodes:
        if isinstance(node, ast.Raise):
            exc = node.exc
            if exc is None:
                opaque = True
                continue
            target = exc.func if isinstance(exc, ast.Call) else exc
            name = dotted(target)
            if name and (name[0].isupper() or "." in name):
                names.append(name)
            else:
                opaque = True
        elif isinstance(node, ast.Call) and id(node) not in constructing:
            name = dotted(node.func)
            if name:
                calls.append(name)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            subscripts = True
    return RaiseFacts(tuple(names), opaque, tuple(calls), subscripts)


# -- ``None`` meaning "use the usual value" ---------------------------------------------------
def _names_param(node: ast.AST, param: str) -> bool:
    return isinstance(node, ast.Name) and node.id == param


def _is_none_test(test: ast.expr, param: str) -> bool:
    """``param is None`` / ``param is not None`` / ``not param``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
        sides = (test.left, test.comparators[0])
        return any(_names_param(s, param) for s in sides) and any(isinstance(s, ast.Constant) and s.value is None for s in sides)
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and _names_param(test.operand, param)


def none_fallback(fn: Def, param: str) -> tuple[bool, ast.expr | None]:
    """Whether the body swaps a ``None`` argument for another value, and that value's
    expression when it is one plain assignment (``if tab is None: tab = 8``)."""
    if fn.node is None:
        return False, None
    nodes = own_nodes(fn.node)
    for node in nodes:
        if isinstance(node, ast.If) and _is_none_test(node.test, param):
            negated = isinstance(node.test, ast.Compare) and isinstance(node.test.ops[0], ast.IsNot)
            branch = node.orelse if negated else node.body
            for stmt in branch:
                if isinstance(stmt, ast.Assign) and any(_names_param(t, param) for t in stmt.targets):
                    return True, stmt.value
            return True, None
        if isinstance(node, ast.IfExp) and _is_none_test(node.test, param):
            negated = isinstance(node.test, ast.Compare) and isinstance(node.test.ops[0], ast.IsNot)
            return True, node.orelse if negated else node.body
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and _names_param(node.values[0], param):
            return True, node.values[1] if len(node.values) == 2 else None
    for node in nodes:
        if isinstance(node, ast.Call) and any(_names_param(a, param) for a in [*node.args, *(k.value for k in node.keywords)]):
            return True, None  # handed on: the callee may well substitute its own default
        if isinstance(node, ast.Assign) and _names_param(node.value, param) and any(isinstance(t, ast.Attribute) for t in node.targets):
            return True, None  # stored (``self.x = x``): substituted wherever it is used
        if isinstance(node, ast.Compare) and any(_names_param(s, param) for s in (node.left, *node.comparators)) and any(
            isinstance(s, ast.Constant) and s.value is None for s in (node.left, *node.comparators)
        ):
            return True, None  # ``x is None`` somewhere: None gets special treatment
    return False, None
