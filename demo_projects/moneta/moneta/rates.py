"""Exchange rates that expire, and a :class:`RateBook` to look them up.

A rate quotes how many units of the *quote* currency one unit of the *base*
currency buys. :class:`RateBook` stores the latest quote per pair and answers
:meth:`RateBook.get` and :meth:`RateBook.convert` at a given instant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from .currency import Currency, coerce_currency
from .defaults import DEFAULT_PIVOT, MAX_RATE_JUMP, RATE_TTL_SECONDS
from .errors import InvalidAmountError, RateJumpError, RateNotFoundError, StaleRateError
from .money import Money, to_decimal
from .rounding import DEFAULT_ROUNDING, Rounding, quantize


def utcnow() -> datetime:
    """The current time as an aware UTC datetime (the default clock)."""
    return datetime.now(UTC)


def _as_ttl(ttl: timedelta | float) -> timedelta:
    value = ttl if isinstance(ttl, timedelta) else timedelta(seconds=ttl)
    if value <= timedelta(0):
        raise ValueError("ttl must be positive")
    return value


@dataclass(frozen=True)
class ExchangeRate:
    """One quoted rate.

    Parameters
    ----------
    base : Currency
        The currency being priced.
    quote : Currency
        The currency the price is expressed in.
    rate : Decimal
        Units of `quote` per unit of `base`.
    fetched_at : datetime
        When the rate was quoted (timezone-aware).
    ttl : timedelta
        How long the quote stays usable.
    """

    base: Currency
    quote: Currency
    rate: Decimal
    fetched_at: datetime
    ttl: timedelta

    @property
    def expires_at(self) -> datetime:
        """``fetched_at + ttl``."""
        return self.fetched_at + self.ttl

    def is_expired(self, at: datetime) -> bool:
        """Whether the quote is no longer usable at `at`.

        Parameters
        ----------
        at : datetime
            The instant to check.

        Returns
        -------
        bool
            ``True`` from :attr:`expires_at` on: a rate is already expired
            at the exact instant of expiry.
        """
        return at >= self.expires_at

    def inverse(self) -> ExchangeRate:
        """The reverse quote (``1 / rate``) with the same timestamp and lifetime."""
        return ExchangeRate(self.quote, self.base, Decimal(1) / self.rate, self.fetched_at, self.ttl)


class RateBook:
    """The latest exchange rate for each currency pair.

    Parameters
    ----------
    ttl : timedelta or float, default RATE_TTL_SECONDS
        Lifetime given to rates added without their own; a number is read
        as seconds.
    pivot : str or None, default DEFAULT_PIVOT
        Currency used to bridge pairs with no direct quote; ``None`` turns
        bridging off.
    clock : callable, default utcnow
        Zero-argument function returning the current aware datetime.
    max_jump : Decimal, default MAX_RATE_JUMP
        Largest relative change accepted when a pair is quoted again.
    """

    def __init__(
        self,
        *,
        ttl: timedelta | float = RATE_TTL_SECONDS,
        pivot: str | None = DEFAULT_PIVOT,
        clock: Callable[[], datetime] = utcnow,
        max_jump: Decimal = MAX_RATE_JUMP,
    ) -> None:
        self._ttl = _as_ttl(ttl)
        self._pivot = coerce_currency(pivot) if pivot is not None else None
        self._clock = clock
        self._max_jump = Decimal(max_jump)
        self._rates: dict[tuple[str, str], ExchangeRate] = {}

    @property
    def ttl(self) -> timedelta:
        """Default lifetime of new rates."""
        return self._ttl

    def add(
        self,
        base: Currency | str,
        quote: Currency | str,
        rate: Decimal | int | str,
        *,
        fetched_at: datetime | None = None,
        ttl: timedelta | float | None = None,
        force: bool = False,
    ) -> ExchangeRate:
        """Record a quote, replacing any earlier one for the same pair.

        Parameters
        ----------
        base, quote : Currency or str
            The pair.
        rate : Decimal, int or str
            Units of `quote` per unit of `base`; must be positive.
        fetched_at : datetime, optional
            Timezone-aware time of the quote; defaults to the book's clock.
        ttl : timedelta or float, optional
            Lifetime of this quote; defaults to the book's `ttl`.
        force : bool, default False
            Accept the quote even if it jumps further than `max_jump` from
            the previous one.

        Returns
        -------
        ExchangeRate
            The stored rate.

        Raises
        ------
        InvalidAmountError
            If `rate` is not positive.
        RateJumpError
            If the rate moved too far from the previous quote and `force` is false.
        ValueError
            If the pair is one currency twice, or `fetched_at` is naive.
        """
        b, q = coerce_currency(base), coerce_currency(quote)
        if b == q:
            raise ValueError("a rate needs two different currencies")
        value = to_decimal(rate)
        if value <= 0:
            raise InvalidAmountError(f"rate must be positive, got {value}")
        when = self._clock() if fetched_at is None else fetched_at
        if when.tzinfo is None:
            raise ValueError("fetched_at must be timezone-aware")
        previous = self._rates.get((b.code, q.code))
        if previous is not None and not force:
            jump = abs(value - previous.rate) / previous.rate
            if jump > self._max_jump:
                raise RateJumpError(f"{b.code}/{q.code} moved {jump:.1%}, more than {self._max_jump:.0%}")
        entry = ExchangeRate(b, q, value, when, self._ttl if ttl is None else _as_ttl(ttl))
        self._rates[(b.code, q.code)] = entry
        return entry

    def _fresh(self, rate: ExchangeRate, at: datetime) -> ExchangeRate:
        if rate.is_expired(at):
            raise StaleRateError(rate.base.code, rate.quote.code, rate.expires_at)
        return rate

    def get(self, base: Currency | str, quote: Currency | str, *, at: datetime | None = None) -> ExchangeRate:
        """The rate for a pair at `at`.

        Candidates are tried in this order: a direct quote for the pair, the
        inverse of a quote for the reverse pair, and finally a rate bridged
        through the pivot currency (both legs found the same way). The first
        candidate that exists is used.

        Parameters
        ----------
        base, quote : Currency or str
            The pair.
        at : datetime, optional
            Instant at which the rate must be valid; defaults to the clock.

        Returns
        -------
        ExchangeRate
            For a bridged rate, a synthetic quote whose `fetched_at` and
            lifetime are those of the leg that expires first.

        Raises
        ------
        RateNotFoundError
            If no candidate exists.
        StaleRateError
            If the candidate that was found has expired.
            A stale direct quote falls back to the inverse pair before this is raised.
        """
        b, q = coerce_currency(base), coerce_currency(quote)
        when = self._clock() if at is None else at
        if b == q:
            return ExchangeRate(b, q, Decimal(1), when, self._ttl)
        direct = self._lookup(b, q)
        if direct is not None:
            return self._fresh(direct, when)
        pivot = self._pivot
        if pivot is None or pivot in (b, q):
            raise RateNotFoundError(b.code, q.code)
        first, second = self._lookup(b, pivot), self._lookup(pivot, q)
        if first is None or second is None:
            raise RateNotFoundError(b.code, q.code)
        first, second = self._fresh(first, when), self._fresh(second, when)
        soonest = min((first, second), key=lambda r: r.expires_at)
        return ExchangeRate(b, q, first.rate * second.rate, soonest.fetched_at, soonest.ttl)

    def _lookup(self, base: Currency, quote: Currency) -> ExchangeRate | None:
        direct = self._rates.get((base.code, quote.code))
        if direct is not None:
            return direct
        reverse = self._rates.get((quote.code, base.code))
        return reverse.inverse() if reverse is not None else None

    def convert(
        self,
        money: Money,
        to: Currency | str,
        *,
        at: datetime | None = None,
        rounding: Rounding | str = DEFAULT_ROUNDING,
    ) -> Money:
        """Convert `money` into `to`.

        Parameters
        ----------
        money : Money
            The amount to convert.
        to : Currency or str
            The target currency.
        at : datetime, optional
            Instant at which the rate must be valid.
        rounding : Rounding or str, default DEFAULT_ROUNDING
            How the result is rounded to the target's minor units.

        Returns
        -------
        Money
            The converted amount, rounded.

        Raises
        ------
        RateNotFoundError, StaleRateError
            As :meth:`get`.
        """
        target = coerce_currency(to)
        rate = self.get(money.currency, target, at=at)
        return Money(quantize(money.amount * rate.rate, target.minor_units, rounding), target)

    def pairs(self) -> list[tuple[str, str]]:
        """The stored pairs as ``(base, quote)`` codes, sorted."""
        return sorted(self._rates)

    def __len__(self) -> int:
        return len(self._rates)

    def __contains__(self, pair: object) -> bool:
        return pair in self._rates
