"""What a function's body reaches first when one parameter holds a known value (zero, or a
key that is not there): its top-level statements in order, each ``if`` before it decided for
that value (``isinstance(d, bool)``, ``d < 0``, ``not d``) or not reading the parameter and
not leaving. A guard that is not decided, a call handed the parameter (it may check it), a
loop, ``try`` or ``with``, a ``return`` or a short-circuit before it: no answer. The checks
use it for what the standard library raises there (a division by zero, a ``[]`` lookup).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
UNKNOWN = object()  # a value no test can be evaluated on ("a key that is not stored")


def external_type(ctx: ReviewContext, fn: Def, expr: ast.expr) -> type | None:
    """The builtin or standard-library class an expression in ``fn``'s module names."""
    name = dotted(expr)
    if name is None or fn.module is None:
        return None
    if "." not in name and isinstance(getattr(builtins, name, None), type):
        return getattr(builtins, name)
    res = ctx.resolver.resolve_in(fn.module, name)
    value = res.target.value if res.found and res.target is not None and res.target.kind == "external" else None
    return value if isinstance(value, type) else None


def _reads(node: ast.AST, param: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == param for n in ast.walk(node))


def _evaluate(ctx: ReviewContext, fn: Def, test: ast.expr, param: str, zero: object) -> bool | None:
    """The test's truth with ``param`` bound to ``zero`` and nothing else known; None when undecided."""
    if zero is UNKNOWN:
        return None
    if isinstance(test, ast.BoolOp):
        values = [_evaluate(ctx, fn, v, param, zero) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in values else (None if None in values else True)
        return True if True in values else (None if None in values else False)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _evaluate(ctx, fn, test.operand, param, zero)
        return None if inner is None else not inner
    if isinstance(test, ast.Name) and test.id == param:
        return bool(zero)
    if isinstance(test, ast.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2 \
            and isinstance(test.args[0], ast.Name) and test.args[0].id == param:
        spec = test.args[1]
        types = [external_type(ctx, fn, e) for e in (spec.elts if isinstance(spec, ast.Tuple) else [spec])]
        return None if None in types else isinstance(zero, tuple(t for t in types if t is not None))
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id == param and isinstance(test.comparators[0], ast.Constant):
        other, op = test.comparators[0].value, test.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            return (zero is other) == isinstance(op, ast.Is)
        compare = {ast.Eq: "__eq__", ast.NotEq: "__ne__", ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__",
                   ast.GtE: "__ge__"}.get(type(op))
        if compare is None or not isinstance(other, (int, float)):
            return None
        result = getattr(zero, compare)(other)
        return result if isinstance(result, bool) else None
    return None


def first_reached(ctx: ReviewContext, fn: Def, param: str, value: object,
                  pick: Callable[[ast.AST], ast.AST | None]) -> ast.AST | None:
    """The first node ``pick`` accepts that the body reaches with ``param`` at ``value``.
    ``pick`` returns the part of the node that may read the parameter (the divisor, the key)."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    for stmt in body:
        if isinstance(stmt, ast.If):
            taken = _evaluate(ctx, fn, stmt.test, param, value)
            if taken is None and not _reads(stmt.test, param):
                branches = [*stmt.body, *stmt.orelse]
            else:
                branches = stmt.body if taken else stmt.orelse
            if taken is None and _reads(stmt.test, param) or \
                    any(isinstance(n, _EXITS) or _reads(n, param) for s in branches for n in ast.walk(s)):
                return None  # a guard not decided for the value, or one that leaves (or looks at it)
            continue
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return, ast.Delete)):
            return None
        nodes = own_nodes(stmt) + (stmt,)
        if any(isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store) for n in nodes):
            return None
        picked = [(n, part) for n in nodes for part in [pick(n)] if part is not None]
        inside = {id(x) for _, part in picked for x in ast.walk(part)}
        handed = [n for n in nodes if isinstance(n, ast.Call) and id(n) not in inside
                  and any(isinstance(x, ast.Name) and x.id == param and id(x) not in inside for x in ast.walk(n))]
        if handed or any(isinstance(n, (ast.BoolOp, ast.IfExp, ast.Lambda)) for n in nodes):
            return None  # a call that may check the parameter first, or a step that may be skipped
        if picked:
            return min(picked, key=lambda p: (getattr(p[0], "lineno", 0), getattr(p[0], "col_offset", 0)))[0]
        if isinstance(stmt, ast.Return):
            return None
    return None
