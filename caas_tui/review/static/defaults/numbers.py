"""A resolved default read as a number a stated quantity can be compared with.

Python spells numbers in more than ``int`` and ``float``: a ``Decimal("0.25")`` or a
``Fraction(1, 4)`` is the same quantity as ``0.25``, and a ``timedelta(minutes=10)`` carries
its own unit, so "five minutes" is compared with its length in seconds and no unit reading
of the parameter's name applies. ``bool`` is an ``int`` subclass but never a quantity.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import math

from caas_tui.review.static.wording.units import Quantity, matches, restate


def plain_number(value: object) -> float | None:
    """``value`` as a float when it is a unitless number (int, float, Decimal, Fraction)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, fractions.Fraction)):
        return float(value)
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return float(value)
    return None


def is_quantity(value: object) -> bool:
    """Whether a stated quantity can be compared with ``value`` at all."""
    return plain_number(value) is not None or isinstance(value, datetime.timedelta)


def quantity_matches(q: Quantity, param: str, value: object) -> bool | None:
    """True: ``q`` is ``value``; False: it is not; None: they can't be compared."""
    if isinstance(value, datetime.timedelta):
        if q.family != "time":
            return None
        return math.isclose(q.base, value.total_seconds(), rel_tol=1e-9, abs_tol=1e-9)
    number = plain_number(value)
    return None if number is None else matches(q, param, number)


def restate_value(q: Quantity, param: str, value: object) -> str | None:
    """``value`` written in ``q``'s unit, when its unit is known."""
    if isinstance(value, datetime.timedelta):
        return restate(q, "", value.total_seconds()) if q.family == "time" else None
    number = plain_number(value)
    return None if number is None else restate(q, param, number)
