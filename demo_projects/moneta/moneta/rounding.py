"""Rounding modes and quantisation to a number of decimal places.

The modes are thin names over the constants of the :mod:`decimal` module;
moneta never re-implements a rounding rule, it only picks which one
:meth:`decimal.Decimal.quantize` applies.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from enum import Enum

from .errors import InvalidRoundingError


class Rounding(Enum):
    """How to round an amount that falls between two representable values."""

    HALF_EVEN = decimal.ROUND_HALF_EVEN
    HALF_UP = decimal.ROUND_HALF_UP
    HALF_DOWN = decimal.ROUND_HALF_DOWN
    UP = decimal.ROUND_UP
    DOWN = decimal.ROUND_DOWN
    CEILING = decimal.ROUND_CEILING
    FLOOR = decimal.ROUND_FLOOR


#: Banker's rounding, the rule most accounting standards ask for.
DEFAULT_ROUNDING = Rounding.HALF_EVEN


def resolve_rounding(mode: Rounding | str) -> Rounding:
    """Turn a mode or a mode name into a :class:`Rounding`.

    Parameters
    ----------
    mode : Rounding or str
        A member, or its name in any case with ``-`` or ``_`` between words
        (``"half-up"``, ``"HALF_UP"``). The :mod:`decimal` constant names
        (``"ROUND_HALF_UP"``) are accepted too.

    Returns
    -------
    Rounding

    Raises
    ------
    InvalidRoundingError
        If the name matches no mode.

    Examples
    --------
    >>> resolve_rounding("half-up")
    <Rounding.HALF_UP: 'ROUND_HALF_UP'>
    """
    if isinstance(mode, Rounding):
        return mode
    name = str(mode).strip().upper().replace("-", "_")
    if name.startswith("ROUND_"):
        name = name[len("ROUND_") :]
    try:
        return Rounding[name]
    except KeyError:
        raise InvalidRoundingError(f"unknown rounding mode {mode!r}") from None


def quantize(amount: Decimal, places: int, rounding: Rounding | str = DEFAULT_ROUNDING) -> Decimal:
    """Round `amount` to `places` digits after the decimal point.

    Parameters
    ----------
    amount : Decimal
        The value to round.
    places : int
        Digits to keep after the point; may be zero.
    rounding : Rounding or str, default DEFAULT_ROUNDING
        The rounding rule, see :func:`resolve_rounding`.

    Returns
    -------
    Decimal
        A value whose exponent is exactly ``-places``, so ``quantize(Decimal("2"), 2)``
        is ``Decimal("2.00")``.

    Examples
    --------
    >>> quantize(Decimal("0.125"), 2)
    Decimal('0.12')
    >>> quantize(Decimal("0.135"), 2)
    Decimal('0.14')
    """
    if places < 0:
        raise ValueError("places must not be negative")
    exponent = Decimal(1).scaleb(-places)
    return amount.quantize(exponent, rounding=resolve_rounding(rounding).value)
