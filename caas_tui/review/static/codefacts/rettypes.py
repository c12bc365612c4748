"""What a function returns, as a small set of kinds (``list``, ``None``, ``iterator``,
``class:pkg.Mod.Cls`` ...), from its annotation or, failing that, its return statements.
``None`` as a result means "can't tell" and is never judged."""

from __future__ import annotations

import ast
import re
import warnings

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted, find_mentions
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.flow import falls_through, never_returns_none
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def, Resolution
from caas_tui.review.static.wording.facts import StatedType

_BUILTIN = {
    "list": "list", "tuple": "tuple", "dict": "dict", "set": "set", "frozenset": "frozenset", "str": "str",
    "int": "int", "float": "float", "bool": "bool", "bytes": "bytes", "None": "None",
    "List": "list", "Tuple": "tuple", "Dict": "dict", "Set": "set", "FrozenSet": "frozenset",
    "typing.List": "list", "typing.Tuple": "tuple", "typing.Dict": "dict", "typing.Set": "set",
}
_ITER = frozenset(
    {"Iterator", "Generator", "Iterable", "AsyncIterator", "AsyncGenerator", "typing.Iterator", "typing.Generator",
     "typing.Iterable", "collections.abc.Iterator", "collections.abc.Generator", "collections.abc.Iterable",
     "abc.Iterator", "abc.Generator", "abc.Iterable"}
)
_NUMERIC = frozenset({"int", "float", "bool"})
_CALLABLE = frozenset({"Callable", "typing.Callable", "collections.abc.Callable", "abc.Callable"})
# Values that are never callable: a "returns a function" about them is wrong.
_PLAIN_VALUES = frozenset({"list", "tuple", "dict", "set", "frozenset", "str", "int", "float", "bool", "bytes", "None",
                           "iterator"})
_CALL_KINDS = {"list": "list", "sorted": "list", "tuple": "tuple", "dict": "dict", "set": "set",
               "frozenset": "frozenset", "str": "str", "repr": "str", "int": "int", "len": "int",
               "float": "float", "bool": "bool", "bytes": "bytes", "isinstance": "bool",
               "partial": "callable", "functools.partial": "callable"}


def annotation_kinds(ctx: ReviewContext, fn: Def, expr: ast.expr | None) -> set[str] | None:
    if expr is None or fn.module is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expr = ast.parse(expr.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(expr, ast.Constant) and expr.value is None:
        return {"None"}
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        left, right = annotation_kinds(ctx, fn, expr.left), annotation_kinds(ctx, fn, expr.right)
        return left | right if left is not None and right is not None else None
    if isinstance(expr, ast.Subscript):
        base = dotted(expr.value) or ""
        short = base.rsplit(".", 1)[-1]
        if short in ("Optional", "Union"):
            elts = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
            kinds: set[str] = set() if short == "Union" else {"None"}
            for elt in elts:
                k = annotation_kinds(ctx, fn, elt)
                if k is None:
                    return None
                kinds |= k
            return kinds
        expr = expr.value
    name = dotted(expr)
    if name is None:
        return None
    if name in _BUILTIN:
        return {_BUILTIN[name]}
    if name in _ITER:
        return {"iterator"}
    if name in _CALLABLE:
        return {"callable"}
    if name in ("Self", "typing.Self") and fn.owner is not None:
        return {f"class:{fn.owner.qualname}"}
    res = ctx.resolver.resolve_in(fn.module, name)
    if res.found and res.target is not None and res.target.kind == "class":
        return {f"class:{res.target.qualname}"}
    return None


_SEQUENCES = frozenset({"list", "List", "set", "Set", "frozenset", "FrozenSet", "Sequence", "Iterator", "Iterable",
                        "Generator", "Collection", "AbstractSet", "MutableSequence", "tuple", "Tuple"})
_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict"})


def element_kinds(ctx: ReviewContext, fn: Def) -> set[str] | None:
    """Kinds of the elements (a mapping's values) the annotation of ``fn``'s result names
    (``-> list[Tag]``: ``class:...Tag``); None when it names none or a tuple of several."""
    node = fn.node
    ann = node.returns if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if not isinstance(ann, ast.Subscript):
        return None
    base = (dotted(ann.value) or "").rsplit(".", 1)[-1]
    elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
    if base in _MAPPINGS and len(elts) == 2:
        return annotation_kinds(ctx, fn, elts[1])
    if base in ("tuple", "Tuple"):
        ok_shape = len(elts) == 2 and isinstance(elts[1], ast.Constant) and elts[1].value is Ellipsis
        return annotation_kinds(ctx, fn, elts[0]) if ok_shape else None
    if base in _SEQUENCES and len(elts) >= 1 and base != "Generator" or base == "Generator" and elts:
        return annotation_kinds(ctx, fn, elts[0])
    return None


def _value_kind(node: ast.expr | None) -> str | None:
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return "None"
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.Lambda):
        return "callable"
    if isinstance(node, ast.Constant):
        return {bool: "bool", int: "int", float: "float", str: "str", bytes: "bytes"}.get(type(node.value))
    if isinstance(node, (ast.Compare,)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return "bool"
    if isinstance(node, ast.Call):
        return _CALL_KINDS.get(dotted(node.func) or "")
    return None


def inferred_kinds(fn: Def) -> set[str] | None:
    """Kinds from the body when there is no annotation; None unless every return agrees."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body or all(isinstance(s, (ast.Pass, ast.Raise)) for s in body):
        return None  # abstract or a stub
    own = own_nodes(node)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own):
        return {"iterator"}
    returns = [n for n in own if isinstance(n, ast.Return)]
    if not returns:
        return {"None"}
    # ``def unsubscribe(): ...`` then ``return unsubscribe``: a function defined in the body
    local_defs = {s.name for s in ast.walk(node) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s is not node}
    kinds: set[str] = set()
    for ret in returns:
        local = isinstance(ret.value, ast.Name) and ret.value.id in local_defs
        kind = "callable" if local else _value_kind(ret.value)
        if kind is None:
            return None
        kinds.add(kind)
    return kinds


def return_kinds(ctx: ReviewContext, fn: Def, depth: int = 0) -> set[str] | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if node.returns is not None:
        return annotation_kinds(ctx, fn, node.returns)
    kinds = inferred_kinds(fn)
    return kinds if kinds is not None else delegated_kinds(ctx, fn, depth)


_MAX_DEPTH = 3


def delegated_kinds(ctx: ReviewContext, fn: Def, depth: int = 0) -> set[str] | None:
    """Kinds of an unannotated function whose returns hand back what a project callee
    returns (``return self._pool.send(req)``), followed into the callee; None unless
    every return is known."""
    node = fn.node
    if depth >= _MAX_DEPTH or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    own = own_nodes(node)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in own):
        return None
    returns = [n for n in own if isinstance(n, ast.Return)]
    if not returns:
        return None
    kinds: set[str] = {"None"} if falls_through(node.body) else set()
    for ret in returns:
        kind = _value_kind(ret.value)
        if kind is not None:
            kinds.add(kind)
            continue
        target = callee(ctx, fn, ret.value) if isinstance(ret.value, ast.Call) else None
        if target is None:
            return None
        if target.kind == "class":
            kinds.add(f"class:{target.qualname}")
            continue
        inner = return_kinds(ctx, target, depth + 1)
        if inner is None:
            return None
        kinds |= inner
    return kinds


def delegate_of(ctx: ReviewContext, fn: Def) -> Def | None:
    """The one project function every ``return`` of ``fn`` hands back the result of."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is not None:
        return None
    returns = [n for n in own_nodes(node) if isinstance(n, ast.Return)]
    if not returns or falls_through(node.body) or not all(isinstance(r.value, ast.Call) for r in returns):
        return None
    targets = {id(t.node): t for t in (callee(ctx, fn, r.value) for r in returns if isinstance(r.value, ast.Call))
               if t is not None}
    if len(targets) != 1 or any(callee(ctx, fn, r.value) is None for r in returns if isinstance(r.value, ast.Call)):
        return None
    target = next(iter(targets.values()))
    return target if target.kind == "function" else None


def _related(ctx: ReviewContext, a: str, b: str) -> bool:
    """Is project class ``a`` the same as, or a subclass of, ``b`` (or the reverse)?"""
    if a == b:
        return True
    for x, y in ((a, b), (b, a)):
        res = ctx.resolve(x)
        stack = [res.target] if res.found and res.target is not None else []
        seen: set[int] = set()
        while stack:
            cur = stack.pop()
            if cur.kind != "class" or id(cur.node) in seen:
                continue
            seen.add(id(cur.node))
            if cur.qualname == y:
                return True
            stack.extend(ctx.resolver.bases(cur)[0])
    return False


def compare(ctx: ReviewContext, stated: StatedType, kinds: set[str], claim: Claim | None = None) -> bool | None:
    """True: consistent; False: contradicted; None: can't tell."""
    if stated.name is not None:
        res = ctx.resolve(stated.name, claim)
        if not res.found and claim is not None and "." not in stated.name:
            res = _spelled_out(ctx, claim, stated.name) or res
        if res.found and not res.ambiguous and res.target is not None and res.target.kind == "external" \
                and isinstance(res.target.value, type):
            return _external_class(ctx, res.target.value, kinds)
        if not res.found or res.ambiguous or res.target is None or res.target.kind != "class" or not res.target.is_project:
            return None
        want = res.target.qualname
        if _structural(ctx, res.target):
            return None  # a Protocol/ABC is satisfied without inheriting from it
        classes = {k[6:] for k in kinds if k.startswith("class:")}
        if any(_related(ctx, want, c) for c in classes):
            return True
        if classes and kinds <= {f"class:{c}" for c in classes} | {"None"}:
            return False
        builtin = kinds - {"None"}
        if not classes and "iterator" not in kinds and all(_builtin_ancestor(ctx, want, k) is False for k in builtin):
            return False  # ``-> int`` (or only ``None``) is no project class, unless the class derives from int
        return None
    kind = stated.kind
    if kind is None:
        return None
    if kind in kinds:
        return True
    if kind == "callable":
        # an instance of a class may be callable (``__call__``), and so is a class itself
        return False if kinds <= _PLAIN_VALUES else None
    if kind in ("iterator", "None"):
        return None  # "returns None if ..." / "an iterator over ..." are often loose
    named = [k[6:] for k in kinds if k.startswith("class:")]
    if named:
        # "returns a list" about a project class: only a subclass of list is one.
        verdicts = [_builtin_ancestor(ctx, c, kind) for c in named]
        if any(v is None for v in verdicts) or any(verdicts):
            return None if not any(verdicts) else True
        if kinds - {f"class:{c}" for c in named} - {"None"}:
            return None
    if kind in _NUMERIC and kinds & _NUMERIC:
        # a count is not a truth value, nor a flag a number: only int/float mixing can't be told
        if kind == "bool" and "bool" not in kinds and kinds - {"None"} <= _NUMERIC:
            return False
        if kind == "int" and kinds - {"None"} == {"bool"}:
            return False
        return None
    return False


def _spelled_out(ctx: ReviewContext, claim: Claim, name: str) -> Resolution | None:
    """``locale : LocaleSpec`` in a module that never imports it, whose entry spells the class out
    (``see :class:`pkg.locales.LocaleSpec```): the full path says which class the short name is."""
    full = {m.name for m in find_mentions(claim.text) if m.name.endswith("." + name)}
    if len(full) != 1:
        return None
    res = ctx.resolve(full.pop(), claim)
    return res if res.found and not res.ambiguous else None


def _external_class(ctx: ReviewContext, want: type, kinds: set[str]) -> bool | None:
    """"Returns a ``Decimal``" (a stdlib or third-party class) where the code returns project
    classes only: false unless one of them derives from it."""
    classes = [k[6:] for k in kinds if k.startswith("class:")]
    if not classes or kinds - {f"class:{c}" for c in classes} - {"None"}:
        return None
    verdicts = [_builtin_ancestor(ctx, c, want.__name__) for c in classes]
    if any(verdicts):
        return True
    return False if all(v is False for v in verdicts) else None


def _structural(ctx: ReviewContext, cls: Def) -> bool:
    stack, seen = [cls], set()
    while stack:
        cur = stack.pop()
        if cur.kind == "external":
            if cur.qualname.rsplit(".", 1)[-1] in ("Protocol", "ABC", "ABCMeta", "Generic"):
                return True
            continue
        if cur.kind != "class" or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        node = cur.node
        if isinstance(node, ast.ClassDef) and any(k.arg == "metaclass" for k in node.keywords):
            return True
        bases, unknown = ctx.resolver.bases(cur)
        if unknown:
            return True
        stack.extend(bases)
    return False


def _builtin_ancestor(ctx: ReviewContext, qualname: str, kind: str) -> bool | None:
    """Does project class ``qualname`` derive from builtin ``kind``? None if a base is unknown."""
    res = ctx.resolve(qualname)
    stack = [res.target] if res.found and res.target is not None else []
    if not stack:
        return None
    seen: set[int] = set()
    while stack:
        cur = stack.pop()
        if cur.kind == "external":
            if isinstance(cur.value, type) and kind in {c.__name__ for c in cur.value.__mro__}:
                return True
            if not isinstance(cur.value, type):
                return None  # a base we can't place (``typing.NamedTuple`` is a function)
            continue
        if cur.kind != "class" or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        bases, unknown = ctx.resolver.bases(cur)
        if unknown:
            return None
        stack.extend(bases)
    return False


_OPTIONAL = re.compile(r"\bor\s+(?:``|`)?None\b|\|\s*None\b|\bNone\s*\||^\W*(?:typing\.)?Optional\b", re.IGNORECASE)
_INNER = re.compile(r"\[[^\[\]]*\]")


def optional_type(text: str) -> bool:
    """A stated return type that admits None at its top level: ``bytes or None``,
    ``Optional[int]``, ``str | None`` (not ``list[str | None]``)."""
    outer = text
    while _INNER.search(outer):
        outer = _INNER.sub("", outer)
    return bool(_OPTIONAL.search(outer))


def describe(kinds: set[str]) -> str:
    names = sorted(k[6:].rsplit(".", 1)[-1] if k.startswith("class:") else k for k in kinds)
    return " | ".join(names)


def never_none(ctx: ReviewContext, fn: Def, depth: int = 0) -> str | None:
    """Why ``fn`` can't return None (``annotated `-> bytes```), or None when it might."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if node.returns is None:
        why = never_returns_none(fn, ctx.resolver)
        target = delegate_of(ctx, fn) if why is None and depth < _MAX_DEPTH else None
        if target is not None:
            inner = never_none(ctx, target, depth + 1)
            return f"it returns what `{target.short}` returns, {inner}" if inner is not None else None
        return why
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(node)):
        return None
    kinds = annotation_kinds(ctx, fn, node.returns)
    if kinds is None or "None" in kinds or "iterator" in kinds:
        return None
    returns = [n for n in own_nodes(node) if isinstance(n, ast.Return)]
    if any(r.value is None or any(isinstance(n, ast.Constant) and n.value is None for n in ast.walk(r.value))
           for r in returns):
        return None  # ``x if ok else None``: the annotation is wrong somewhere, don't lean on it
    if any(isinstance(r.value, ast.Call) and (dotted(r.value.func) or "").rsplit(".", 1)[-1] in ("get", "getattr", "pop", "next")
           for r in returns):
        return None  # ``return d.get(k)``: None slips through whatever the annotation says
    return f"annotated `-> {ast.unparse(node.returns)}`"
