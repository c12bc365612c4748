"""Splitting an amount into parts without losing or inventing a minor unit.

Both functions work on whole minor units. The amount is first rounded to the
currency's minor units, every part then receives the floor of its exact
share, and the units that are left over are handed out one at a time: to the
parts with the largest fractional remainder, earlier parts winning ties.
The parts therefore always add up to the (rounded) amount.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from .defaults import MAX_SPLIT_PARTS
from .errors import AllocationError

if TYPE_CHECKING:
    from .money import Money


def _as_fraction(ratio: object) -> Fraction:
    if isinstance(ratio, bool) or not isinstance(ratio, (int, Decimal, Fraction)):
        raise AllocationError(f"ratios must be int, Decimal or Fraction, got {type(ratio).__name__}")
    if isinstance(ratio, Decimal) and not ratio.is_finite():
        raise AllocationError("ratios must be finite")
    return Fraction(ratio)


def allocate(money: Money, ratios: Sequence[int | Decimal | Fraction]) -> list[Money]:
    """Divide `money` in proportion to `ratios`.

    Parameters
    ----------
    money : Money
        The amount to divide. Negative amounts are allocated by magnitude and
        every part is negative.
    ratios : sequence of int, Decimal or Fraction
        One weight per part. Weights may be zero but not negative, and at
        least one must be positive.

    Returns
    -------
    list of Money
        One part per ratio, in the same order, in the currency of `money`.

    Raises
    ------
    AllocationError
        If `ratios` is empty, holds a negative or non-numeric weight, or
        sums to zero.

    Examples
    --------
    >>> [str(p) for p in allocate(Money("100.00", "USD"), [1, 1, 1])]
    ['33.34 USD', '33.33 USD', '33.33 USD']
    """
    weights = [_as_fraction(r) for r in ratios]
    if not weights:
        raise AllocationError("at least one ratio is required")
    if any(w < 0 for w in weights):
        raise AllocationError("ratios must not be negative")
    total_weight = sum(weights, Fraction(0))
    if total_weight == 0:
        raise AllocationError("ratios must not all be zero")

    units = money.to_minor()
    sign = -1 if units < 0 else 1
    units = abs(units)
    exact = [Fraction(units) * w / total_weight for w in weights]
    shares = [int(e) for e in exact]
    leftover = units - sum(shares)
    # Largest remainder first; sorted() is stable, so earlier parts win ties.
    order = sorted(range(len(exact)), key=lambda i: exact[i] - shares[i], reverse=True)
    for i in order[:leftover]:
        shares[i] += 1
    cls = type(money)
    return [cls.from_minor(sign * share, money.currency) for share in shares]


def split(money: Money, parts: int) -> list[Money]:
    """Split `money` into `parts` equal shares.

    Parameters
    ----------
    money : Money
        The amount to split.
    parts : int
        Number of shares, from 1 to ``MAX_SPLIT_PARTS``.

    Returns
    -------
    list of Money
        `parts` amounts that differ by at most one minor unit.
        The larger shares come first.

    Raises
    ------
    AllocationError
        If `parts` is not an integer in the allowed range.
    """
    if isinstance(parts, bool) or not isinstance(parts, int):
        raise AllocationError("parts must be an integer")
    if not 1 <= parts <= MAX_SPLIT_PARTS:
        raise AllocationError(f"parts must be between 1 and {MAX_SPLIT_PARTS}")
    return allocate(money, [1] * parts)
