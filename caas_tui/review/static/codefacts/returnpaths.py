"""What a function hands back, and what must hold for each result.

Every own ``return`` is a case: a literal value (``return None``, ``return 0``, a bare
``return``), the two truth values of a test (``return key in self._data`` is ``True`` when the
key is in the container and ``False`` when it is not), or a value not read here (opaque).
Falling off the end of the body is a ``None`` case. Each case carries the paths to it
(``codefacts.guardatoms``), early exits before it included, with an ``unread`` mark wherever
something other than a literal decides whether it runs. Parameters rebound in the body
(``name = name.strip()``) are not subjects: a guard on them is not about what was passed.

None for a function whose result no case list describes: a generator, a stub (its
subclasses or a protocol decide), or one wrapped by a decorator that may replace its result.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from caas_tui.review.static.codefacts.guardatoms import (
    Path,
    after_siblings,
    alternatives,
    as_copies,
    exits,
    local_copies,
    paths_to,
)
from caas_tui.review.static.model.pysig import own_nodes

_MAX_PATHS = 8
# Decorators that leave what the body returns as the result.
_PLAIN_DECORATORS = frozenset({"property", "staticmethod", "classmethod", "cached_property", "cache", "lru_cache",
                               "override", "final", "abstractmethod", "setter", "getter", "wraps"})


@dataclass(frozen=True, slots=True)
class ReturnCase:
    value: object  # the literal handed back (meaningful only when ``known``)
    known: bool
    line: int
    source: str  # the ``return`` as written
    paths: tuple[Path, ...]


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""


def _stub(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body:
        return True
    if len(body) != 1:
        return False
    only = body[0]
    if isinstance(only, ast.Pass):
        return True
    if isinstance(only, ast.Raise) and only.exc is not None:
        target = only.exc.func if isinstance(only.exc, ast.Call) else only.exc
        return isinstance(target, ast.Name) and target.id == "NotImplementedError"
    return False


def _truth_test(expr: ast.expr) -> bool:
    """An expression whose value is ``True`` or ``False``: a comparison, a ``not``, or ``and``/``or`` of those."""
    if isinstance(expr, ast.Compare) or (isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not)):
        return True
    return isinstance(expr, ast.BoolOp) and all(_truth_test(v) for v in expr.values)


def _rebound(fn: ast.FunctionDef | ast.AsyncFunctionDef, params: frozenset[str]) -> frozenset[str]:
    names: set[str] = set()
    for n in own_nodes(fn):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = list(n.targets)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, ast.Delete):
            targets = list(n.targets)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in n.items if i.optional_vars is not None]
        for t in targets:
            names |= _bound(t)
    return frozenset(params & names)


def _bound(target: ast.expr) -> set[str]:
    """The names a target rebinds: ``x``, ``a, *b`` -- not the ``key`` of ``d[key] = v``."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return {n for e in target.elts for n in _bound(e)}
    return set()


def _literal(expr: ast.expr) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def return_cases(fn: ast.FunctionDef | ast.AsyncFunctionDef, params: frozenset[str]) -> list[ReturnCase] | None:
    nodes = own_nodes(fn)
    if _stub(fn) or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes) \
            or any(_decorator_name(d) not in _PLAIN_DECORATORS for d in fn.decorator_list):
        return None
    live = params - _rebound(fn, params)
    copies = local_copies(fn, live)
    tested = live | frozenset(copies)
    out: list[ReturnCase] = []
    for n in nodes:
        if not isinstance(n, ast.Return):
            continue
        paths = paths_to(fn, n, live, siblings=True)
        source = ast.unparse(n)
        if n.value is None:
            out.append(ReturnCase(None, True, n.lineno, source, tuple(paths)))
            continue
        known, value = _literal(n.value)
        if known:
            out.append(ReturnCase(value, True, n.lineno, source, tuple(paths)))
        elif _truth_test(n.value):
            for holds in (True, False):
                alts = [as_copies(a, copies) for a in alternatives(n.value, holds, tested, n.lineno, ast.unparse(n.value))]
                both = tuple(p + a for p in paths for a in alts)[:_MAX_PATHS]
                out.append(ReturnCase(holds, True, n.lineno, source, both))
        else:
            out.append(ReturnCase(None, False, n.lineno, source, tuple(paths)))
    if not exits(fn.body):
        end = getattr(fn.body[-1], "end_lineno", fn.lineno) or fn.lineno
        paths = [as_copies(p, copies) for p in after_siblings(fn.body, tested)]
        out.append(ReturnCase(None, True, end, "(the end of the body: None)", tuple(paths)))
    return sorted(out, key=lambda c: c.line)
