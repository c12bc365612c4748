"""Raise claims settled by what the standard library raises on the stated condition, where
the function's body reaches the operation first: a division by a parameter the condition
sets to zero raises an ``ArithmeticError`` (``codefacts.zerodiv``); a plain-``dict`` lookup
of a key the condition says is missing raises ``KeyError`` (``codefacts.lookups``); converting
a text that is not a number raises ``ValueError`` or ``decimal.InvalidOperation``
(``codefacts.conversions``)."""

from __future__ import annotations

import decimal
import re

from caas_tui.review.static.codefacts.conversions import failed_conversion
from caas_tui.review.static.codefacts.lookups import missing_key_lookup
from caas_tui.review.static.codefacts.raisecheck import is_subclass
from caas_tui.review.static.codefacts.zerodiv import division_by, zero_parameter
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.missingwords import MISSING

_ARITHMETIC = Def("external", "ArithmeticError", value=ArithmeticError)
_KEY = Def("external", "KeyError", value=KeyError)


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _params(fn: Def) -> list[str]:
    node = fn.node
    args = getattr(node, "args", None)
    if args is None:
        return []
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.arg not in ("self", "cls")]


def _zero_division(ctx: ReviewContext, fn: Def, exc: Def, condition: str, named: set[str]) -> str | None:
    if is_subclass(ctx, exc, _ARITHMETIC) or is_subclass(ctx, _ARITHMETIC, exc):
        return None
    param = zero_parameter(fn, condition, named)
    division = division_by(ctx, fn, param) if param is not None else None
    if division is None:
        return None
    return (f"`{_label(fn)}` divides by `{param}` itself (line {division.line}) and nothing before that tests it "
            f"for zero: dividing by zero raises {division.raised}, an `ArithmeticError`, not a `{exc.short}` "
            "(nor derived from it)")


def _subject_param(fn: Def, named: set[str]) -> str | None:
    """The parameter a condition is about: the one it names, or the function's only parameter."""
    if len(named) == 1:
        return next(iter(named))
    params = _params(fn)
    return params[0] if len(params) == 1 and not named else None

def _missing_key(ctx: ReviewContext, fn: Def, exc: Def, condition: str, named: set[str]) -> tuple[bool, str] | None:
    if not MISSING.search(condition):
        return None
    param = _subject_param(fn, named)
    line = missing_key_lookup(ctx, fn, param) if param is not None else None
    if line is None:
        return None
    if is_subclass(ctx, _KEY, exc):
        return True, ""
    if is_subclass(ctx, exc, _KEY) and not exc.is_project:
        return None
    return False, (f"for a `{param}` that is not there `{_label(fn)}` first looks it up in a plain `dict` "
                   f"(line {line}), which raises `KeyError`, not a `{exc.short}` (nor derived from it)")


# "if `text` is not a number", "for a non-numeric string", "not a valid integer"
_NOT_NUMBER = re.compile(r"\bnot\s+(?:a\s+|an\s+)?(?:valid\s+)?(?:number|numeric|integer|int|float|decimal)\b|"
                         r"\bnon-?numeric\b|\bcannot\s+be\s+(?:parsed|read|converted)\s+(?:as|to)\s+(?:a\s+|an\s+)?"
                         r"(?:number|integer)\b", re.IGNORECASE)


def _not_a_number(ctx: ReviewContext, fn: Def, exc: Def, condition: str, named: set[str]) -> tuple[bool, str] | None:
    if not _NOT_NUMBER.search(condition):
        return None
    param = _subject_param(fn, named)
    found = failed_conversion(ctx, fn, param) if param is not None else None
    if found is None:
        return None
    raised = Def("external", found.raised.__name__, value=found.raised)
    if is_subclass(ctx, raised, exc):
        return True, ""
    if is_subclass(ctx, exc, raised):
        return None  # a subclass of what the conversion raises: whether it is that, the code does not say
    shown = f"decimal.{found.raised.__name__}" if found.raised is decimal.InvalidOperation else found.raised.__name__
    return False, (f"`{_label(fn)}` converts `{param}` with `{found.to.__name__}()` first (line {found.line}), and "
                   f"for a text that is not a number that raises `{shown}`, not a `{exc.short}` (nor derived from it)")


def stdlib_raise(ctx: ReviewContext, fn: Def, exc: Def, condition: str, named: set[str]) -> tuple[bool, str] | None:
    """(agrees, why not) when the standard library decides what ``fn`` raises on the condition."""
    if fn.node is None or not own_nodes(fn.node):
        return None
    divided = _zero_division(ctx, fn, exc, condition, named)
    if divided is not None:
        return False, divided
    return _missing_key(ctx, fn, exc, condition, named) or _not_a_number(ctx, fn, exc, condition, named)
