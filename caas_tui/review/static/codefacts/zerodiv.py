"""What a function raises when a parameter is zero and its body divides by that parameter
itself (``x / d``, ``x // d``, ``x % d``, also through ``Decimal(d)``, ``int(d)``,
``float(d)``, ``Fraction(d)``), both operands numbers of the standard library.

Python raises ``ZeroDivisionError`` for ``int``, ``float`` and ``Fraction``; under the default
context ``decimal`` signals ``DivisionByZero`` (a ``ZeroDivisionError``) or, for ``0 / 0``,
``InvalidOperation``: all ``ArithmeticError``. A project that changes the decimal context
(``getcontext``, ``localcontext``, ``traps``) may turn the signal into an infinity, so a
``Decimal`` division there gets no answer. The division counts only when the body reaches
it first with the parameter at zero (``codefacts.firstreach``).
"""

from __future__ import annotations

import ast
import decimal
import fractions
import re
from dataclasses import dataclass

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import project_def
from caas_tui.review.static.codefacts.firstreach import external_type, first_reached
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def

_NUMBERS: tuple[type, ...] = (int, float, decimal.Decimal, fractions.Fraction)
_DIVISIONS = (ast.Div, ast.FloorDiv, ast.Mod)
_CONTEXT = re.compile(r"\b(?:getcontext|setcontext|localcontext|traps)\b")


@dataclass(frozen=True)
class ZeroDivision:
    line: int  # the division
    decimal: bool  # a ``Decimal`` division (``DivisionByZero`` / ``InvalidOperation``)

    @property
    def raised(self) -> str:
        return "`decimal.DivisionByZero` (or `decimal.InvalidOperation` for 0 / 0)" if self.decimal \
            else "`ZeroDivisionError`"


def _number_type(ctx: ReviewContext, fn: Def, ann: ast.expr | None) -> type | None:
    """The one standard number type an annotation names (``Decimal``, ``int``)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    t = external_type(ctx, fn, ann) if ann is not None else None
    return t if t in _NUMBERS else None


def _param_annotation(fn: Def, name: str) -> ast.expr | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return next((a.annotation for a in args if a.arg == name), None)


def _numeric(ctx: ReviewContext, fn: Def, expr: ast.expr, depth: int = 0) -> type | None:
    """The standard number type ``expr`` is known to hold, or None."""
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return type(expr.value)
    if isinstance(expr, ast.Name):
        return _number_type(ctx, fn, _param_annotation(fn, expr.id))
    if isinstance(expr, ast.Call):
        made = external_type(ctx, fn, expr.func)
        if made in _NUMBERS:
            return made
        target = project_def(ctx, fn, expr.func, "function")
        node = target.node if target is not None else None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and target is not None:
            return _number_type(ctx, target, node.returns)
        return None
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self" \
            and fn.owner is not None and depth == 0:
        return _attribute_number(ctx, fn.owner, expr.attr)
    return None


def _attribute_number(ctx: ReviewContext, owner: Def, attr: str) -> type | None:
    """``self.<attr>``'s number type when every assignment to it in the class agrees."""
    node = owner.node
    if not isinstance(node, ast.ClassDef):
        return None
    found: set[type | None] = set()
    for method in (s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))):
        where = Def("function", f"{owner.qualname}.{method.name}", owner.module, method, owner)
        for n in ast.walk(method):
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                       and t.attr == attr for t in targets):
                    value = n.value if not isinstance(n, ast.AugAssign) else None
                    found.add(_numeric(ctx, where, value, 1) if value is not None else None)
    return found.pop() if len(found) == 1 else None


def _divisor_of(node: ast.expr, param: str) -> bool:
    """``param`` itself, or a standard conversion of it (``Decimal(param)``)."""
    if isinstance(node, ast.Name):
        return node.id == param
    return isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
        and isinstance(node.args[0], ast.Name) and node.args[0].id == param \
        and (dotted(node.func) or "").rsplit(".", 1)[-1] in ("Decimal", "int", "float", "Fraction")


def context_changed(ctx: ReviewContext) -> bool:
    """Something in the project changes the decimal context (its traps may be off)."""
    return any(_CONTEXT.search("\n".join(src.lines)) for src in ctx.project.all_modules())


def division_by(ctx: ReviewContext, fn: Def, param: str) -> ZeroDivision | None:
    """The division by ``param`` the body reaches first when ``param`` is zero."""
    zero_type = _number_type(ctx, fn, _param_annotation(fn, param)) or int

    def division(n: ast.AST) -> ast.AST | None:
        is_div = isinstance(n, ast.BinOp) and isinstance(n.op, _DIVISIONS) and _divisor_of(n.right, param)
        return n.right if is_div and isinstance(n, ast.BinOp) else None

    first = first_reached(ctx, fn, param, zero_type(0), division)
    if not isinstance(first, ast.BinOp):
        return None
    left, right = _numeric(ctx, fn, first.left), _numeric(ctx, fn, first.right)
    if left is None or right is None:
        return None
    is_decimal = decimal.Decimal in (left, right)
    if is_decimal and context_changed(ctx):
        return None
    return ZeroDivision(first.lineno, is_decimal)


_BINARY = frozenset({"__truediv__", "__floordiv__", "__mod__", "__divmod__", "__itruediv__", "__ifloordiv__"})
_OPERAND = re.compile(r"\(when\s+(?P<operand>[^()]*(?:\([^()]*\))?)\)\s*$")
_ZERO_WORDS = re.compile(r"\b(?:zero|nought)\b|(?<![\w.'\"])0(?:\.0*)?(?![\w.])", re.IGNORECASE)
# "below zero", "greater than 0", "not zero", "non-zero": another condition than "is zero"
_NOT_ZERO = re.compile(r"(?:\b(?:below|under|above|over|than|least|most|exceeds?|not|never|non)|[<>]=?|!=|-)\W*$",
                       re.IGNORECASE)


def _says_zero(condition: str) -> bool:
    return any(not _NOT_ZERO.search(condition[max(0, m.start() - 20):m.start()])
               for m in _ZERO_WORDS.finditer(condition))
_BY_ZERO = re.compile(r"\b(?:by|with\s+a)\s+(?:zero|0)\b", re.IGNORECASE)


def _zero_literal(text: str) -> bool:
    try:
        expr = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return False
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
        expr = expr.args[0]  # ``Decimal(0)``, ``Decimal("0")``
    value = expr.value if isinstance(expr, ast.Constant) else None
    if isinstance(value, str):
        try:
            return decimal.Decimal(value) == 0
        except decimal.InvalidOperation:
            return False
    return type(value) in (int, float) and value == 0


def zero_parameter(fn: Def, condition: str, named: set[str]) -> str | None:
    """The parameter a raise condition sets to zero: the divisor of ``Money(...) / 0`` (an
    operator claim's operand), or the one parameter the condition names ("if `d` is zero"),
    or the only parameter of "on division by zero"."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
              if a.arg not in ("self", "cls")]
    operand = _OPERAND.search(condition)
    if fn.short in _BINARY and operand is not None:
        return params[0] if len(params) == 1 and _zero_literal(operand.group("operand")) else None
    if len(named) == 1 and _says_zero(condition):
        return next(iter(named))
    if not named and len(params) == 1 and _BY_ZERO.search(condition):
        return params[0]
    return None
