"""A multi-currency accumulator.

:class:`MoneyBag` collects amounts in any number of currencies, keeps one
exact subtotal per currency and converts only when :meth:`MoneyBag.total`
is asked for a figure in a single currency.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from .currency import Currency, coerce_currency
from .money import Money

if TYPE_CHECKING:
    from .rates import RateBook


class MoneyBag:
    """Subtotals per currency.

    Parameters
    ----------
    *items : Money
        Initial contents.

    Examples
    --------
    >>> bag = MoneyBag(Money("5", "EUR"), Money("2.50", "USD"), Money("1", "EUR"))
    >>> bag.subtotal("EUR")
    Money('6', 'EUR')
    """

    def __init__(self, *items: Money) -> None:
        self._totals: dict[str, Decimal] = {}
        self._currencies: dict[str, Currency] = {}
        for item in items:
            self.add(item)

    def add(self, money: Money) -> None:
        """Add `money` to the subtotal of its currency."""
        code = money.currency.code
        self._currencies[code] = money.currency
        self._totals[code] = self._totals.get(code, Decimal(0)) + money.amount

    def subtotal(self, currency: Currency | str) -> Money:
        """The exact subtotal in `currency`; zero if the bag holds none of it."""
        cur = coerce_currency(currency)
        if cur.code not in self._totals:
            return Money.zero(cur)
        return Money(self._totals[cur.code], cur)

    def currencies(self) -> list[str]:
        """ISO codes of the currencies in the bag, sorted."""
        return sorted(self._totals)

    def total(self, currency: Currency | str, book: RateBook, *, at: datetime | None = None) -> Money:
        """Everything in the bag, expressed in `currency`.

        Each foreign subtotal is converted with `book` and the results are
        added to the subtotal already held in `currency`.

        Parameters
        ----------
        currency : Currency or str
            The currency of the result.
        book : RateBook
            Source of the exchange rates.
        at : datetime, optional
            Instant at which every rate must be valid.

        Returns
        -------
        Money

        Raises
        ------
        RateNotFoundError
            If some currency in the bag cannot be converted to `currency`.
        """
        target = coerce_currency(currency)
        result = self.subtotal(target)
        for code in self.currencies():
            if code == target.code:
                continue
            result = result + book.convert(Money(self._totals[code], self._currencies[code]), target, at=at)
        return result

    def __iter__(self) -> Iterator[Money]:
        return (Money(self._totals[code], self._currencies[code]) for code in self.currencies())

    def __len__(self) -> int:
        return len(self._totals)
