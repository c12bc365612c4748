"""Targeting rules.

A :class:`Rule` is a list of :class:`Condition` objects that must all hold
for a context, plus the variant to serve and the share of matching contexts
that get it. Conditions are usually written as short strings and parsed
with :func:`parse_condition`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .context import Context
from .errors import InvalidFlag, RuleSyntaxError

OPERATORS = ("eq", "ne", "in", "not_in", "lt", "lte", "gt", "gte", "matches", "startswith")

_SYMBOLS = {"==": "eq", "!=": "ne", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
_CONDITION = re.compile(r"^\s*([A-Za-z_][\w.]*)\s+(\S+)\s+(.+?)\s*$")


def _scalar(text: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


@dataclass(frozen=True)
class Condition:
    """One test of a context attribute.

    Parameters
    ----------
    attribute : str
        Attribute name, looked up with :meth:`Context.get`.
    op : str
        One of :data:`OPERATORS`.
    value : object
        The operand. ``in`` and ``not_in`` take a tuple.
    """

    attribute: str
    op: str
    value: Any

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise InvalidFlag(f"unknown operator {self.op!r}")
        if self.op in ("in", "not_in") and not isinstance(self.value, tuple):
            object.__setattr__(self, "value", tuple(self.value))

    def test(self, context: Context) -> bool:
        """Return whether the condition holds for ``context``.

        A missing attribute never matches, except for ``ne`` and ``not_in``
        which then hold. Comparing values of different kinds (``"5" < 3``)
        does not raise: the condition simply does not match.
        """
        actual = context.get(self.attribute)
        if actual is None:
            return self.op in ("ne", "not_in")
        try:
            if self.op == "eq":
                return bool(actual == self.value)
            if self.op == "ne":
                return bool(actual != self.value)
            if self.op == "in":
                return actual in self.value
            if self.op == "not_in":
                return actual not in self.value
            if self.op == "lt":
                return bool(actual < self.value)
            if self.op == "lte":
                return bool(actual <= self.value)
            if self.op == "gt":
                return bool(actual > self.value)
            if self.op == "gte":
                return bool(actual >= self.value)
            if self.op == "startswith":
                return str(actual).startswith(str(self.value))
            return re.search(str(self.value), str(actual)) is not None
        except TypeError:
            return False


def parse_condition(text: str) -> Condition:
    """Parse ``"attribute op value"`` into a :class:`Condition`.

    ``op`` is an operator name or one of ``== != < <= > >=``. A list operand
    is written in brackets: ``country in [FR, BE]``. Quoted operands stay
    strings; ``true``/``false`` and numbers are converted.

    Raises
    ------
    RuleSyntaxError
        If the text does not have three parts or the operator is unknown.
    """
    match = _CONDITION.match(text)
    if match is None:
        raise RuleSyntaxError(text, "expected 'attribute operator value'")
    attribute, op, operand = match.groups()
    op = _SYMBOLS.get(op, op)
    if op not in OPERATORS:
        raise RuleSyntaxError(text, f"unknown operator {op!r}")
    value: Any
    if op in ("in", "not_in"):
        if not (operand.startswith("[") and operand.endswith("]")):
            raise RuleSyntaxError(text, f"{op} needs a [bracketed, list]")
        inner = operand[1:-1].strip()
        value = tuple(_scalar(part) for part in inner.split(",")) if inner else ()
    else:
        value = _scalar(operand)
    return Condition(attribute, op, value)


@dataclass(frozen=True)
class Rule:
    """Serve ``variant`` to contexts that meet every condition.

    Parameters
    ----------
    conditions : tuple of Condition
        All must hold. An empty tuple matches every context.
    variant : str
        Name of the variant to serve.
    rollout : float, optional
        Percentage (0-100) of matching contexts that are served ``variant``;
        the others fall through to the next rule.
    """

    conditions: tuple[Condition, ...]
    variant: str
    rollout: float = 100.0

    def applies(self, context: Context) -> bool:
        """Return whether every condition holds for ``context``."""
        return all(c.test(context) for c in self.conditions)


def parse_rule(spec: Mapping[str, Any]) -> Rule:
    """Build a :class:`Rule` from ``{"if": [...], "serve": name, "rollout": pct}``.

    ``"if"`` may be a single condition string or a list of them.
    """
    raw: str | Sequence[str] = spec.get("if", ())
    texts = [raw] if isinstance(raw, str) else list(raw)
    if "serve" not in spec:
        raise InvalidFlag("a rule needs a 'serve' variant")
    return Rule(tuple(parse_condition(t) for t in texts), str(spec["serve"]), float(spec.get("rollout", 100.0)))
