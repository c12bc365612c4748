"""An expression on a project object named in a claim (```Money(5, "USD") / 0``,
``a < b``, ``len(bag)``, ``key in cache``, ``cache[key]``) as the dunder method it runs,
so the return and raise checks judge ``__truediv__``, ``__lt__``, ``__len__``,
``__contains__`` or ``__getitem__``. The object is a project class named in the
expression, called (``Money(...)``) or bare (``Money / 0``, the class standing for one of
its instances); anything else is no answer."""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def

_BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv", ast.Mod: "mod",
    ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
    ast.LShift: "lshift", ast.RShift: "rshift",
}
_CMPOPS: dict[type[ast.cmpop], str] = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq",
                                       ast.NotEq: "ne"}
_REFLECTED_CMP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
_BUILTINS = {"len": "__len__", "iter": "__iter__", "bool": "__bool__", "hash": "__hash__", "abs": "__abs__"}
_SPAN = re.compile(r"(`+)(.+?)\1")
_SENTENCE_END = re.compile(r"[.;:](?:\s|$)")


def _project_class(ctx: ReviewContext, claim: Claim, expr: ast.expr) -> Def | None:
    node = expr.func if isinstance(expr, ast.Call) else expr
    name = dotted(node)
    if name is None:
        return None
    res = ctx.resolve(name, claim)
    target = res.target if res.found and not res.ambiguous else None
    return target if target is not None and target.kind == "class" and target.is_project else None


def _dunder(ctx: ReviewContext, cls: Def, name: str) -> Def | None:
    res = ctx.resolver.member(cls, name)
    target = res.target if res.found and not res.ambiguous else None
    return target if target is not None and target.kind == "function" else None


def _resolve(ctx: ReviewContext, claim: Claim, expr: ast.expr) -> tuple[Def, str] | None:
    """(dunder, the other operand as written) of one expression."""
    def cls(e: ast.expr) -> Def | None:
        return _project_class(ctx, claim, e)

    if isinstance(expr, ast.BinOp) and type(expr.op) in _BINOPS:
        op = _BINOPS[type(expr.op)]
        left, right = cls(expr.left), cls(expr.right)
        if left is not None:
            found = _dunder(ctx, left, f"__{op}__")
            return (found, ast.unparse(expr.right)) if found is not None else None
        if right is not None:
            found = _dunder(ctx, right, f"__r{op}__")
            return (found, ast.unparse(expr.left)) if found is not None else None
        return None
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        cmp, other = expr.ops[0], expr.comparators[0]
        if isinstance(cmp, (ast.In, ast.NotIn)):
            box = cls(other)
            found = _dunder(ctx, box, "__contains__") if box is not None else None
            return (found, ast.unparse(expr.left)) if found is not None else None
        if type(cmp) in _CMPOPS:
            name = _CMPOPS[type(cmp)]
            left, right = cls(expr.left), cls(other)
            if left is not None:
                found = _dunder(ctx, left, f"__{name}__")
                return (found, ast.unparse(other)) if found is not None else None
            if right is not None:
                found = _dunder(ctx, right, f"__{_REFLECTED_CMP[name]}__")
                return (found, ast.unparse(expr.left)) if found is not None else None
        return None
    if isinstance(expr, ast.Subscript):
        box = cls(expr.value)
        found = _dunder(ctx, box, "__getitem__") if box is not None else None
        return (found, ast.unparse(expr.slice)) if found is not None else None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _BUILTINS \
            and len(expr.args) == 1 and not expr.keywords:
        box = cls(expr.args[0])
        found = _dunder(ctx, box, _BUILTINS[expr.func.id]) if box is not None else None
        return (found, "") if found is not None else None
    return None


def operator_subject(ctx: ReviewContext, claim: Claim, offset: int) -> tuple[Def, str] | None:
    """(the dunder, the other operand as written) of the last code span of the sentence
    before ``offset``, when it is an operator expression on a project object."""
    before = _SENTENCE_END.split(claim.text[:offset])[-1]
    spans = list(_SPAN.finditer(before))
    if not spans:
        return None
    try:
        expr = ast.parse(spans[-1].group(2).strip(), mode="eval").body
    except SyntaxError:
        return None
    return _resolve(ctx, claim, expr)
