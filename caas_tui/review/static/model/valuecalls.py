"""Defaults written as constructor calls of stdlib value types, evaluated without running project code.

``Decimal("0.01")``, ``Fraction(1, 3)``, ``timedelta(seconds=30)``, ``Path("out")``, ``dict()`` and a
dataclass ``field(default=...)`` / ``field(default_factory=list)`` all have one value that literal
arguments fix, so a doc's default and the code's compare by value (``Decimal("0.010")`` is
``Decimal("0.01")``). Only these pure constructors are called, and only with literal arguments.
"""

from __future__ import annotations

import ast
import datetime
import decimal
import fractions
import pathlib
from collections.abc import Callable

from caas_tui.review.claims.mentions import dotted

# A path's value is its text: no filesystem is touched, so every path becomes a pure POSIX path.
_MAKERS: dict[str, Callable[..., object]] = {
    "decimal.Decimal": decimal.Decimal, "fractions.Fraction": fractions.Fraction,
    "datetime.timedelta": datetime.timedelta, "datetime.date": datetime.date, "datetime.time": datetime.time,
    "pathlib.Path": pathlib.PurePosixPath, "pathlib.PurePath": pathlib.PurePosixPath,
    "pathlib.PurePosixPath": pathlib.PurePosixPath, "pathlib.PosixPath": pathlib.PurePosixPath,
    "dict": dict, "list": list, "set": set, "tuple": tuple, "frozenset": frozenset,
}
_FIELD = frozenset({"dataclasses.field", "field"})
# How a doc spells them: it imports nothing, so a short name means the stdlib type.
DOC_NAMES: dict[str, str] = {
    **{q: q for q in _MAKERS}, **{q.rsplit(".", 1)[-1]: q for q in _MAKERS},
    "decimal.Decimal": "decimal.Decimal", "Path": "pathlib.Path",
}


def doc_qualname(name: str) -> str | None:
    return DOC_NAMES.get(name)


def value_call(node: ast.expr, qualify: Callable[[str], str | None]) -> tuple[object] | None:
    """``(value,)`` of a value-type constructor call with literal arguments, else None;
    ``qualify`` maps the written callee name to its full name (``Decimal`` -> ``decimal.Decimal``)."""
    if not isinstance(node, ast.Call):
        return None
    name = dotted(node.func)
    full = qualify(name) if name else None
    if full is None:
        return None
    if full in _FIELD or full.endswith(".field") and full.startswith("dataclasses"):
        return _field_default(node, qualify)
    maker = _MAKERS.get(full)
    if maker is None or any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg is not None}
        return (maker(*args, **kwargs),)
    except (ValueError, TypeError, SyntaxError, ArithmeticError, decimal.InvalidOperation, OverflowError,
            MemoryError, RecursionError):
        return None


def _field_default(node: ast.Call, qualify: Callable[[str], str | None]) -> tuple[object] | None:
    for k in node.keywords:
        if k.arg == "default":
            try:
                return (ast.literal_eval(k.value),)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return value_call(k.value, qualify)
        if k.arg == "default_factory":
            name = dotted(k.value)
            full = qualify(name) if name else None
            maker = _MAKERS.get(full) if full else None
            return (maker(),) if maker is not None else None
    return None


def parse_value(text: str) -> tuple[object] | None:
    """``(value,)`` of a doc's ``Decimal("0.01")`` or literal, else None."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    try:
        return (ast.literal_eval(node),)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return value_call(node, doc_qualname)
