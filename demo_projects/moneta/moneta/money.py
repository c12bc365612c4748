"""The :class:`Money` value type.

A :class:`Money` pairs a :class:`~decimal.Decimal` amount with a
:class:`~moneta.currency.Currency`. Arithmetic never rounds behind your back:
amounts keep every digit the :mod:`decimal` module gives them until you call
:meth:`Money.round`, :meth:`Money.to_minor` or format them.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from . import allocation
from .currency import Currency, coerce_currency
from .errors import CurrencyMismatchError, InvalidAmountError
from .rounding import DEFAULT_ROUNDING, Rounding, quantize

if TYPE_CHECKING:
    from datetime import datetime

    from .rates import RateBook


def to_decimal(value: object) -> Decimal:
    """Convert an amount given by the caller to a finite Decimal.

    Parameters
    ----------
    value : Decimal, int, str or Fraction
        The amount. Strings use the syntax of the :class:`~decimal.Decimal`
        constructor; fractions are divided in the current decimal context.

    Returns
    -------
    Decimal

    Raises
    ------
    TypeError
        For floats, booleans and any other type.
    InvalidAmountError
        For a string that is not a number, or for NaN and infinities.
    """
    if isinstance(value, bool):
        raise TypeError("booleans are not amounts")
    if isinstance(value, float):
        raise TypeError("floats are inexact; use Money.from_float() to convert one on purpose")
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int):
        result = Decimal(value)
    elif isinstance(value, Fraction):
        result = Decimal(value.numerator) / Decimal(value.denominator)
    elif isinstance(value, str):
        try:
            result = Decimal(value)
        except InvalidOperation:
            raise InvalidAmountError(f"not a number: {value!r}") from None
    else:
        raise TypeError(f"unsupported amount type {type(value).__name__}")
    if not result.is_finite():
        raise InvalidAmountError(f"amount must be finite, got {value!r}")
    return result


class Money:
    """An amount of money in one currency.

    Parameters
    ----------
    amount : Decimal, int, str or Fraction
        The amount, kept exactly as given: ``Money("1.005", "USD")`` is not
        rounded to cents.
    currency : Currency or str
        A :class:`~moneta.currency.Currency` or its ISO code.

    Raises
    ------
    InvalidAmountError
        If `amount` is a float, or a string that is not a number.
    UnknownCurrencyError
        If `currency` is a code that is not registered.

    Examples
    --------
    >>> Money("12.50", "EUR")
    Money('12.50', 'EUR')
    >>> Money("12.50", "EUR") + Money("0.75", "EUR")
    Money('13.25', 'EUR')
    """

    __slots__ = ("_amount", "_currency")

    def __init__(self, amount: Decimal | int | str | Fraction, currency: Currency | str) -> None:
        self._amount = to_decimal(amount)
        self._currency = coerce_currency(currency)

    # -- construction -----------------------------------------------------
    @classmethod
    def from_float(cls, value: float, currency: Currency | str, rounding: Rounding | str = DEFAULT_ROUNDING) -> Money:
        """Build money from a float, rounded to the currency's minor units.

        The float is converted exactly (``Decimal(value)``) and then rounded.
        The result is the stored binary value rounded, not always the literal you typed.

        Parameters
        ----------
        value : float
            The amount.
        currency : Currency or str
            Currency or ISO code.
        rounding : Rounding or str, default DEFAULT_ROUNDING
            How to round to minor units.

        Returns
        -------
        Money
        """
        cur = coerce_currency(currency)
        return cls(quantize(Decimal(value), cur.minor_units, rounding), cur)

    @classmethod
    def from_minor(cls, units: int, currency: Currency | str) -> Money:
        """Build money from a whole number of minor units.

        Parameters
        ----------
        units : int
            Amount in minor units (cents for USD, fils for KWD).
        currency : Currency or str
            Currency or ISO code.

        Returns
        -------
        Money

        Examples
        --------
        >>> Money.from_minor(1234, "KWD")
        Money('1.234', 'KWD')
        """
        cur = coerce_currency(currency)
        return cls(Decimal(int(units)).scaleb(-cur.minor_units), cur)

    @classmethod
    def zero(cls, currency: Currency | str) -> Money:
        """Zero in `currency`, written with the currency's minor units (``0.00``)."""
        cur = coerce_currency(currency)
        return cls(Decimal(0).scaleb(-cur.minor_units), cur)

    # -- accessors --------------------------------------------------------
    @property
    def amount(self) -> Decimal:
        """The exact amount."""
        return self._amount

    @property
    def currency(self) -> Currency:
        """The currency."""
        return self._currency

    def round(self, rounding: Rounding | str = DEFAULT_ROUNDING, places: int | None = None) -> Money:
        """Round to the currency's minor units, or to `places` digits.

        Parameters
        ----------
        rounding : Rounding or str, default DEFAULT_ROUNDING
            The rounding rule.
        places : int, optional
            Digits after the point; defaults to the currency's minor units.

        Returns
        -------
        Money
            A new value; money is immutable.
        """
        digits = self._currency.minor_units if places is None else places
        return Money(quantize(self._amount, digits, rounding), self._currency)

    def to_minor(self, rounding: Rounding | str = DEFAULT_ROUNDING) -> int:
        """The amount as a whole number of minor units.

        Amounts with more digits than the currency has minor units are
        rounded first, using `rounding`.

        Parameters
        ----------
        rounding : Rounding or str, default DEFAULT_ROUNDING
            The rounding rule for the surplus digits.

        Returns
        -------
        int
        """
        rounded = quantize(self._amount, self._currency.minor_units, rounding)
        return int(rounded.scaleb(self._currency.minor_units))

    # -- delegation -------------------------------------------------------
    def allocate(self, ratios: Sequence[int | Decimal | Fraction]) -> list[Money]:
        """Divide into parts proportional to `ratios`; see :func:`moneta.allocation.allocate`.

        Negative weights are refused, and a list of ratios that are all zero
        raises :exc:`ZeroDivisionError` because there is nothing to divide by.

        Parameters
        ----------
        ratios : sequence of int, Decimal or Fraction
            One weight per part.

        Returns
        -------
        list of Money
        """
        return allocation.allocate(self, ratios)

    def split(self, parts: int) -> list[Money]:
        """Split into `parts` near-equal shares; see :func:`moneta.allocation.split`."""
        return allocation.split(self, parts)

    def convert(self, to: Currency | str, book: RateBook, *, at: datetime | None = None) -> Money:
        """Convert to another currency with the rates in `book`.

        Parameters
        ----------
        to : Currency or str
            Target currency or ISO code.
        book : RateBook
            Where the exchange rates come from.
        at : datetime, optional
            Instant at which the rate must be valid; defaults to the book's clock.

        Returns
        -------
        Money
            The converted amount, rounded to the target's minor units.

        Raises
        ------
        RateNotFoundError
            If the book has no usable rate for the pair.
            Also raised when the book's rate for the pair has expired.
        """
        return book.convert(self, to, at=at)

    def format(self, locale: str | None = None, **options: object) -> str:
        """Shortcut for :func:`moneta.formatting.format_money` (imported lazily)."""
        from .formatting import format_money

        return format_money(self, locale, **options)  # type: ignore[arg-type]

    # -- arithmetic -------------------------------------------------------
    def _same(self, other: Money) -> None:
        if other._currency != self._currency:
            raise CurrencyMismatchError(self._currency.code, other._currency.code)

    def __add__(self, other: object) -> Money:
        if isinstance(other, Money):
            self._same(other)
            return Money(self._amount + other._amount, self._currency)
        return NotImplemented

    def __radd__(self, other: object) -> Money:
        # sum() starts from the int 0; accept exactly that and nothing else.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __sub__(self, other: object) -> Money:
        if isinstance(other, Money):
            self._same(other)
            return Money(self._amount - other._amount, self._currency)
        return NotImplemented

    def __mul__(self, factor: object) -> Money:
        if isinstance(factor, bool) or not isinstance(factor, (int, Decimal)):
            return NotImplemented
        return Money(self._amount * factor, self._currency)

    __rmul__ = __mul__

    def __truediv__(self, divisor: object) -> Money:
        if isinstance(divisor, bool) or not isinstance(divisor, (int, Decimal)):
            return NotImplemented
        return Money(self._amount / Decimal(divisor), self._currency)

    def __neg__(self) -> Money:
        return Money(-self._amount, self._currency)

    def __abs__(self) -> Money:
        return Money(abs(self._amount), self._currency)

    def __bool__(self) -> bool:
        return bool(self._amount)

    # -- comparison -------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Money):
            return NotImplemented
        return self._currency == other._currency and self._amount == other._amount

    def __hash__(self) -> int:
        return hash((self._currency.code, self._amount))

    def __lt__(self, other: Money) -> bool:
        self._same(other)
        return self._amount < other._amount

    def __le__(self, other: Money) -> bool:
        self._same(other)
        return self._amount <= other._amount

    def __gt__(self, other: Money) -> bool:
        self._same(other)
        return self._amount > other._amount

    def __ge__(self, other: Money) -> bool:
        self._same(other)
        return self._amount >= other._amount

    # -- text -------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Money({str(self._amount)!r}, {self._currency.code!r})"

    def __str__(self) -> str:
        return f"{self._amount} {self._currency.code}"
