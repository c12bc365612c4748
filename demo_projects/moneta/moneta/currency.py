"""Currencies and the currency registry.

A :class:`Currency` is identified by its ISO 4217 alphabetic code and knows
how many minor units (digits after the decimal point) it uses. The registry
ships with a handful of common currencies; :func:`register_currency` adds
more at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .errors import UnknownCurrencyError


@dataclass(frozen=True)
class Currency:
    """An ISO 4217 currency.

    Parameters
    ----------
    code : str
        Three-letter alphabetic code, upper case (``"EUR"``).
    numeric : int
        ISO 4217 numeric code (``978`` for the euro).
    minor_units : int
        Number of digits after the decimal point.
    name : str
        English name.
    symbol : str, optional
        Display symbol. Currencies without one are shown by their code.
    """

    code: str
    numeric: int
    minor_units: int
    name: str
    symbol: str | None = None

    def __post_init__(self) -> None:
        if len(self.code) != 3 or not self.code.isalpha() or not self.code.isupper():
            raise ValueError(f"currency code must be three upper-case letters, got {self.code!r}")
        if self.minor_units < 0:
            raise ValueError("minor_units must not be negative")

    @property
    def smallest_unit(self) -> Decimal:
        """The value of one minor unit.

        Returns
        -------
        Decimal
            ``Decimal("0.01")`` for a two-digit currency, ``Decimal("1")``
            for one without minor units.

        Examples
        --------
        >>> get_currency("KWD").smallest_unit
        Decimal('0.001')
        """
        return Decimal(1).scaleb(-self.minor_units)

    def __str__(self) -> str:
        return self.code


_REGISTRY: dict[str, Currency] = {}


def register_currency(currency: Currency, *, replace: bool = False) -> Currency:
    """Add a currency to the registry.

    Parameters
    ----------
    currency : Currency
        The currency to add.
    replace : bool, default False
        Overwrite an existing entry with the same code.

    Returns
    -------
    Currency
        The registered currency.

    Raises
    ------
    ValueError
        If the code is already registered and `replace` is false.
    """
    if currency.code in _REGISTRY and not replace:
        raise ValueError(f"currency {currency.code} is already registered")
    _REGISTRY[currency.code] = currency
    return currency


def get_currency(code: str) -> Currency:
    """Look a currency up by its alphabetic code.

    Surrounding whitespace is ignored and the code is upper-cased first,
    so ``"usd"`` and ``" USD "`` both find the US dollar.

    Parameters
    ----------
    code : str
        ISO 4217 alphabetic code.

    Returns
    -------
    Currency
        The registered currency.

    Raises
    ------
    UnknownCurrencyError
        If no currency with that code is registered;
        it is a ``ValueError``, so ``except ValueError`` catches it too.
    """
    key = code.strip().upper()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownCurrencyError(key) from None


def coerce_currency(currency: Currency | str) -> Currency:
    """Return `currency` itself, or the registered currency for a code."""
    if isinstance(currency, Currency):
        return currency
    if isinstance(currency, str):
        return get_currency(currency)
    raise TypeError(f"expected a Currency or a currency code, got {type(currency).__name__}")


def all_currencies() -> list[Currency]:
    """Every registered currency, sorted by code."""
    return [_REGISTRY[code] for code in sorted(_REGISTRY)]


def find_by_symbol(symbol: str) -> Currency | None:
    """The first registered currency displayed with `symbol`, or ``None``."""
    for currency in _REGISTRY.values():
        if currency.symbol == symbol:
            return currency
    return None


# Registration order matters for find_by_symbol: "$" means the US dollar.
for _c in (
    Currency("USD", 840, 2, "US Dollar", "$"),
    Currency("EUR", 978, 2, "Euro", "€"),
    Currency("GBP", 826, 2, "Pound Sterling", "£"),
    Currency("JPY", 392, 0, "Yen", "¥"),
    Currency("CHF", 756, 2, "Swiss Franc", "CHF"),
    Currency("CAD", 124, 2, "Canadian Dollar", "CA$"),
    Currency("INR", 356, 2, "Indian Rupee", "₹"),
    Currency("SEK", 752, 2, "Swedish Krona", "kr"),
    Currency("KWD", 414, 3, "Kuwaiti Dinar", "KD"),
    Currency("BHD", 48, 3, "Bahraini Dinar", "BD"),
    Currency("ISK", 352, 0, "Iceland Krona"),
    Currency("CLF", 990, 4, "Unidad de Fomento"),
):
    register_currency(_c)
del _c
