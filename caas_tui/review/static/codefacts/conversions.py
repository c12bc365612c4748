"""What converting a text parameter to a number raises when the text is not one: ``int(s)``,
``float(s)``, ``complex(s)`` and ``Fraction(s)`` raise ``ValueError``; ``Decimal(s)`` signals
``decimal.InvalidOperation`` (an ``ArithmeticError``, not a ``ValueError``) unless the project
changes the decimal context. Judged only for a parameter annotated ``str`` that the body
converts before anything else looks at it (``firstreach``).
"""

from __future__ import annotations

import ast
import decimal
import fractions
from dataclasses import dataclass

from caas_tui.review.static.codefacts.firstreach import UNKNOWN, external_type, first_reached
from caas_tui.review.static.codefacts.zerodiv import context_changed
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def

_RAISES: dict[type, type[Exception]] = {int: ValueError, float: ValueError, complex: ValueError,
                                        fractions.Fraction: ValueError, decimal.Decimal: decimal.InvalidOperation}


@dataclass(frozen=True)
class Conversion:
    line: int
    to: type  # the number type converted to
    raised: type[Exception]


def failed_conversion(ctx: ReviewContext, fn: Def, param: str) -> Conversion | None:
    """The conversion of ``param`` to a number the body reaches first, when ``param`` is a ``str``."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    ann = next((a.annotation for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                if a.arg == param), None)
    if ann is None or external_type(ctx, fn, ann) is not str:
        return None

    def conversion(n: ast.AST) -> ast.AST | None:
        if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == param \
                and external_type(ctx, fn, n.func) in _RAISES:
            return n
        return None

    found = first_reached(ctx, fn, param, UNKNOWN, conversion)
    if not isinstance(found, ast.Call):
        return None
    to = external_type(ctx, fn, found.func)
    if to is None or (to is decimal.Decimal and context_changed(ctx)):
        return None
    return Conversion(found.lineno, to, _RAISES[to])
