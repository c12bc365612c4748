"""Reading amounts and money from text typed by people.

The parser is deliberately strict about digits and lenient about layout: it
accepts the group and decimal separators of one locale, a currency symbol or
ISO code before or after the number, and a sign written as a leading minus
or as accounting parentheses.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .currency import Currency, all_currencies, coerce_currency, find_by_symbol, get_currency
from .defaults import DEFAULT_LOCALE
from .errors import CurrencyMismatchError, ParseError, UnknownCurrencyError
from .locales import NARROW_NBSP, NBSP, get_locale
from .money import Money

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_CODE_AT_START = re.compile(r"^([A-Z]{3})(?![A-Z])")
_CODE_AT_END = re.compile(r"(?<![A-Z])([A-Z]{3})$")


def parse_amount(text: str, locale: str | None = None) -> Decimal:
    """Read a bare number written in the conventions of `locale`.

    Parameters
    ----------
    text : str
        Digits with optional group separators, decimal separator and sign.
    locale : str, optional
        Locale tag; defaults to ``DEFAULT_LOCALE``.

    Returns
    -------
    Decimal
        The value, with as many decimal places as were written.

    Raises
    ------
    ParseError
        If `text` is not a number in that locale.

    Examples
    --------
    >>> parse_amount("1.234,50", "de_DE")
    Decimal('1234.50')
    """
    spec = get_locale(locale or DEFAULT_LOCALE)
    body = text.strip()
    negative = False
    if body.startswith("(") and body.endswith(")"):
        negative, body = True, body[1:-1].strip()
    elif body.startswith("-"):
        negative, body = True, body[1:].strip()
    for separator in (spec.group, NBSP, NARROW_NBSP, " "):
        body = body.replace(separator, "")
    if spec.decimal != ".":
        body = body.replace(spec.decimal, ".")
    if not _NUMBER.fullmatch(body):
        raise ParseError(f"not an amount in {spec.tag}: {text!r}")
    value = Decimal(body)
    return -value if negative else value


def _take_currency(body: str) -> tuple[Currency | None, str]:
    """Split a currency marker (ISO code or symbol) off either end of `body`."""
    for pattern in (_CODE_AT_START, _CODE_AT_END):
        match = pattern.search(body)
        if match:
            try:
                found = get_currency(match.group(1))
            except UnknownCurrencyError:
                continue
            return found, (body[: match.start()] + body[match.end() :]).strip()
    symbols = sorted({c.symbol for c in all_currencies() if c.symbol}, key=len, reverse=True)
    for sym in symbols:
        if body.startswith(sym):
            return find_by_symbol(sym), body[len(sym) :].strip()
        if body.endswith(sym):
            return find_by_symbol(sym), body[: -len(sym)].strip()
    return None, body


def parse_money(
    text: str,
    currency: Currency | str | None = None,
    *,
    locale: str | None = None,
    strict: bool = False,
) -> Money:
    """Read money such as ``"$1,234.50"``, ``"12,50 €"`` or ``"(5.00) USD"``.

    Parameters
    ----------
    text : str
        The text. A currency symbol or ISO code may stand before or after
        the number; parentheses around everything mean a negative amount.
    currency : Currency or str, optional
        The expected currency. Required when `text` names none.
    locale : str, optional
        Locale whose separators `text` uses; defaults to ``DEFAULT_LOCALE``.
        The currency marker never changes the locale.
    strict : bool, default False
        Reject amounts with more decimal places than the currency has minor
        units, instead of keeping them.

    Returns
    -------
    Decimal
        The parsed amount, as a :class:`~decimal.Decimal`.

    Raises
    ------
    ParseError
        If the number cannot be read, if no currency is given or found, or
        in strict mode when there are too many decimal places.
    CurrencyMismatchError
        If `text` names a currency other than `currency`.
    """
    body = text.strip()
    negative = False
    if body.startswith("(") and body.endswith(")"):
        negative, body = True, body[1:-1].strip()
    if body.startswith("-"):
        negative, body = True, body[1:].strip()
    found, body = _take_currency(body)
    expected = coerce_currency(currency) if currency is not None else None
    if found is not None and expected is not None and found != expected:
        raise CurrencyMismatchError(expected.code, found.code)
    target = found or expected
    if target is None:
        raise ParseError(f"no currency in {text!r} and none given")
    value = parse_amount(body, locale)
    exponent = value.as_tuple().exponent
    if strict and isinstance(exponent, int) and -exponent > target.minor_units:
        raise ParseError(f"{text!r} has more decimal places than {target.code} allows")
    return Money(-value if negative else value, target)
