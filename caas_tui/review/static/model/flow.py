"""Control flow a claim can be judged on without running code: whether a body can fall
off its end, whether a returned expression can be ``None``, and whether a function
handles a condition on a parameter by returning or clamping (rather than raising), and
whether it catches an exception around everything it runs."""

from __future__ import annotations

import ast
from collections.abc import Callable

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.model.pysig import own_nodes, parent_map
from caas_tui.review.static.model.resolve import Def, Resolver

# Builtins whose result is never None.
_VALUE_CALLS = frozenset(
    {"str", "int", "float", "list", "dict", "set", "tuple", "frozenset", "bool", "bytes", "len", "sorted", "repr",
     "format", "sum", "abs", "round", "min", "max", "range", "enumerate", "zip", "type", "object", "hash", "id"}
)


def _has_break(loop: ast.While) -> bool:
    stack: list[ast.AST] = list(loop.body)
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Break):
            return True
        if isinstance(cur, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # a break in there ends that loop, not ours
        stack.extend(ast.iter_child_nodes(cur))
    return False


def falls_through(body: list[ast.stmt]) -> bool:
    """Can execution run past the last statement of ``body``? True when unsure."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        return falls_through(last.body) or falls_through(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return falls_through(last.body)
    if isinstance(last, ast.Try):
        if last.finalbody and not falls_through(last.finalbody):
            return False
        main = falls_through(last.orelse) if last.orelse else falls_through(last.body)
        return main or any(falls_through(h.body) for h in last.handlers)
    if isinstance(last, ast.While) and isinstance(last.test, ast.Constant) and last.test.value is True:
        return _has_break(last)
    return True


def value_expr(expr: ast.expr | None, fn: Def, resolver: Resolver) -> bool:
    """Is ``expr`` a value that can't be None (a literal, a container, arithmetic, a
    comparison, a project class or value-building builtin called, ``self``)?"""
    if expr is None:
        return False
    if isinstance(expr, ast.Constant):
        return expr.value is not None
    if isinstance(expr, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
                         ast.GeneratorExp, ast.JoinedStr, ast.Compare, ast.BinOp, ast.UnaryOp)):
        return True
    if isinstance(expr, ast.Name):
        return expr.id in ("self", "cls")
    if isinstance(expr, ast.IfExp):
        return value_expr(expr.body, fn, resolver) and value_expr(expr.orelse, fn, resolver)
    if isinstance(expr, ast.Call):
        name = dotted(expr.func) or ""
        if name in _VALUE_CALLS:
            return True
        if fn.module is not None and name and not name.startswith(("self.", "cls.")):
            res = resolver.resolve_in(fn.module, name)
            return bool(res.found and res.target is not None and res.target.kind == "class" and res.target.is_project)
    return False


def never_returns_none(fn: Def, resolver: Resolver) -> str | None:
    """Why an unannotated ``fn`` can't return None, or None when it might."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    nodes = own_nodes(node)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in nodes):
        return None
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    if not returns or falls_through(node.body):
        return None
    # A ``[]`` lookup may hand back a stored None: only literal-like values count, or
    # a lookup whose failure the claim's "instead" clause will name.
    if not all(value_expr(r.value, fn, resolver) or isinstance(r.value, ast.Subscript) for r in returns):
        return None
    return "every `return` gives a value and the body never ends without one"


_ABSTRACT = ("abstractmethod", "overload", "abstractproperty")


def returns_nothing(fn: Def) -> str | None:
    """Why ``fn`` can only ever hand back None (no ``return`` with a value, no ``yield``,
    annotated ``-> None`` or not at all), or None when it may return something. A stub body
    (``pass``, ``...``, ``raise NotImplementedError``) or an abstract method is a hook that
    overrides fill in, so it says nothing. Calling an ``async def`` returns a coroutine, which
    a doc may well call its result."""
    node = fn.node
    if not isinstance(node, ast.FunctionDef):
        return None
    if node.returns is not None and not (isinstance(node.returns, ast.Constant) and node.returns.value is None):
        return None
    if any((dotted(d.func if isinstance(d, ast.Call) else d) or "").rsplit(".", 1)[-1] in _ABSTRACT
           for d in node.decorator_list):
        return None
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body or all(isinstance(s, (ast.Pass, ast.Raise)) for s in body):
        return None
    for n in own_nodes(node):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return None
        if isinstance(n, ast.Return) and n.value is not None and not (
                isinstance(n.value, ast.Constant) and n.value.value is None):
            return None
    return "annotated `-> None`" if node.returns is not None else "no `return` in it gives a value"


def explicit_none_return(fn: Def) -> bool:
    """A bare ``return`` or ``return None`` in the body."""
    if fn.node is None:
        return False
    return any(
        isinstance(n, ast.Return) and (n.value is None or (isinstance(n.value, ast.Constant) and n.value.value is None))
        for n in own_nodes(fn.node)
    )


def _mentions(node: ast.AST, params: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(node))


def handles_without_raising(fn: Def, params: set[str]) -> str | None:
    """How ``fn`` deals with a condition on one of ``params`` other than raising:
    ``clamps`` (``min``/``max`` over it) or ``returns`` (an ``if`` on it whose branch
    returns or reassigns and raises nothing). None when it does neither."""
    if fn.node is None or not params:
        return None
    if any(isinstance(n, ast.Raise) for n in ast.walk(fn.node)):
        return None  # a raise somewhere, nested callbacks included: the doc may mean that one
    for n in own_nodes(fn.node):
        if isinstance(n, ast.Call) and (dotted(n.func) or "") in ("min", "max") and _mentions(n, params):
            return "clamps"
    for n in own_nodes(fn.node):
        if not isinstance(n, ast.If) or not _mentions(n.test, params):
            continue
        branch = list(n.body) + list(n.orelse)
        if any(isinstance(x, ast.Raise) for s in branch for x in ast.walk(s)):
            continue
        if any(isinstance(s, (ast.Return, ast.Assign, ast.AugAssign, ast.Continue)) for s in n.body):
            return "returns"
    return None


def own_raise_outside_try(fn: Def, names: set[str] | None) -> ast.Raise | None:
    """A ``raise`` of one of ``names`` (None: of anything, re-raises aside) in ``fn``'s own
    body that no ``try`` around it can catch."""
    if fn.node is None:
        return None
    guarded: set[int] = set()
    for n in own_nodes(fn.node):
        if isinstance(n, ast.Try):
            for s in n.body:
                guarded.update(id(x) for x in ast.walk(s))
    for n in own_nodes(fn.node):
        if isinstance(n, ast.Raise) and n.exc is not None and id(n) not in guarded:
            target = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
            name = dotted(target) or ""
            if (names is None and name[:1].isupper()) or (names is not None and name.rsplit(".", 1)[-1] in names):
                return n
    return None


def translating_handlers(fn: Def) -> list[tuple[ast.ExceptHandler, str]] | None:
    """For a body whose every call sits inside a ``try``: each ``except`` clause that raises
    another exception (``except OSError as e: raise TransportError(...) from e``), with
    that exception's name. None when some call runs outside every ``try`` or a handler
    can end without raising something named."""
    node = fn.node
    if node is None:
        return None
    own = own_nodes(node)
    tries = [n for n in own if isinstance(n, ast.Try)]
    if not tries:
        return None
    guarded: set[int] = set()
    handled: set[int] = set()
    out: list[tuple[ast.ExceptHandler, str]] = []
    for t in tries:
        for s in t.body:
            guarded.update(id(x) for x in ast.walk(s))
        for h in t.handlers:
            handled.update(id(x) for x in ast.walk(h))
            last = h.body[-1] if h.body else None
            if not isinstance(last, ast.Raise) or last.exc is None:
                return None
            target = last.exc.func if isinstance(last.exc, ast.Call) else last.exc
            name = dotted(target)
            if not name or not name.rsplit(".", 1)[-1][:1].isupper():
                return None
            out.append((h, name))
    constructing = {id(n.exc) for n in own if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call)}
    for n in own:
        if isinstance(n, (ast.Call, ast.Subscript)) and id(n) not in guarded and id(n) not in handled \
                and id(n) not in constructing:
            return None
    return out


def raise_guards(fn: Def, names: set[str]) -> list[set[str]]:
    """For each ``raise`` of one of ``names`` in ``fn``'s own body: the names its enclosing
    ``if``/``while`` tests read (what the raise depends on)."""
    node = fn.node
    if node is None:
        return []
    parents = parent_map(node)
    out: list[set[str]] = []
    for n in own_nodes(node):
        if not isinstance(n, ast.Raise) or n.exc is None:
            continue
        target = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
        if (dotted(target) or "").rsplit(".", 1)[-1] not in names:
            continue
        read: set[str] = set()
        cur = parents.get(id(n))
        below: ast.AST = n
        while cur is not None and cur is not node:
            if isinstance(cur, (ast.If, ast.While)):
                read |= {x.id for x in ast.walk(cur.test) if isinstance(x, ast.Name)}
            elif isinstance(cur, ast.Try) and isinstance(below, ast.ExceptHandler):
                # raised from a handler: it depends on what the guarded body ran with
                read |= {x.id for s in cur.body for x in ast.walk(s) if isinstance(x, ast.Name)}
            below, cur = cur, parents.get(id(cur))
        out.append(read)
    return out


def swallowing_handler(fn: Def, catches: Callable[[str], bool]) -> str | None:
    """The exception an ``except`` clause catches around everything ``fn`` runs without
    raising again (``try: return d[k]`` / ``except KeyError: return None``), when ``catches``
    accepts its name; None unless every call and ``[]`` lookup of the body sits in such a
    ``try`` and the body has no ``raise`` of its own."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    own = own_nodes(node)
    if any(isinstance(n, ast.Raise) for n in own):
        return None
    risky = {id(n) for n in own if isinstance(n, ast.Call) or (isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load))}
    typing = {id(x) for n in own if isinstance(n, (ast.AnnAssign, ast.arg)) and n.annotation is not None
              for x in ast.walk(n.annotation)}
    risky -= typing
    if not risky:
        return None
    covered: set[int] = set()
    caught: str | None = None
    for t in (n for n in own if isinstance(n, ast.Try)):
        for h in t.handlers:
            names = [dotted(x) or "" for x in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])] \
                if h.type is not None else []
            quiet = not any(isinstance(x, (ast.Raise, ast.Call, ast.Subscript)) for s in h.body for x in ast.walk(s))
            hit = next((name for name in names if name and catches(name)), None)
            if hit is not None and quiet:
                covered.update(id(x) for s in t.body for x in ast.walk(s))
                caught = caught or hit
    return caught if risky <= covered else None
