"""Turning money into display text.

:func:`format_money` is the only entry point; :func:`group_digits` is
exposed because the parser's tests use it to build inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .defaults import DEFAULT_LOCALE
from .locales import get_locale
from .rounding import DEFAULT_ROUNDING, Rounding, quantize

if TYPE_CHECKING:
    from .money import Money


def group_digits(digits: str, separator: str, grouping: tuple[int, ...]) -> str:
    """Insert `separator` between groups of `digits`, counting from the right.

    Parameters
    ----------
    digits : str
        A run of decimal digits without sign or decimal point.
    separator : str
        The group separator.
    grouping : tuple of int
        Group sizes from the right; the last one repeats.

    Returns
    -------
    str

    Examples
    --------
    >>> group_digits("1234567", ",", (3, 2))
    '12,34,567'
    """
    sizes = list(grouping)
    size = sizes.pop(0)
    groups: list[str] = []
    while len(digits) > size:
        groups.insert(0, digits[-size:])
        digits = digits[:-size]
        if sizes:
            size = sizes.pop(0)
    groups.insert(0, digits)
    return separator.join(groups)


def format_money(
    money: Money,
    locale: str | None = None,
    *,
    symbol: bool = True,
    accounting: bool = False,
    places: int | None = None,
    rounding: Rounding | str = DEFAULT_ROUNDING,
) -> str:
    """Format `money` for display.

    Parameters
    ----------
    money : Money
        The amount to show.
    locale : LocaleSpec, optional
        The locale object whose conventions to use (see
        :class:`moneta.locales.LocaleSpec`).
    symbol : bool, default True
        Show the currency symbol; with ``False``, or for a currency without
        a symbol, the ISO code is shown instead.
    accounting : bool, default False
        Wrap negative amounts in parentheses instead of a leading minus.
    places : int, optional
        Digits after the decimal separator; defaults to the currency's minor
        units.
    rounding : Rounding or str, default DEFAULT_ROUNDING
        How the amount is rounded to `places`.

    Returns
    -------
    str

    Examples
    --------
    >>> format_money(Money("1234.5", "USD"))
    '$1,234.50'
    >>> format_money(Money("-5", "USD"), accounting=True)
    '($5.00)'
    """
    spec = get_locale(locale or DEFAULT_LOCALE)
    currency = money.currency
    digits = currency.minor_units if places is None else places
    value = quantize(money.amount, digits, rounding)
    whole, _, fraction = f"{abs(value):f}".partition(".")
    number = group_digits(whole, spec.group, spec.grouping)
    if fraction:
        number += spec.decimal + fraction
    if symbol and currency.symbol:
        text = spec.pattern.format(sym=currency.symbol, num=number)
    else:
        text = spec.code_pattern.format(sym=currency.code, num=number)
    if value < 0:
        return f"({text})" if accounting else "-" + text
    return text
