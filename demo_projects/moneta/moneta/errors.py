"""Exception hierarchy.

Every error moneta raises on purpose derives from :class:`MonetaError`. Most
also derive from the builtin that a caller would naturally catch, so code
written against plain Python keeps working: a bad amount is a
:class:`ValueError`, an unknown currency code is a :class:`KeyError`.
"""

from __future__ import annotations


class MonetaError(Exception):
    """Base class of all moneta errors."""


class InvalidAmountError(MonetaError, ValueError):
    """An amount could not be turned into a finite :class:`~decimal.Decimal`."""


class CurrencyMismatchError(MonetaError, ValueError):
    """Two amounts in different currencies were combined or compared."""

    def __init__(self, left: str, right: str) -> None:
        super().__init__(f"currency mismatch: {left} vs {right}")
        self.left = left
        self.right = right


class UnknownCurrencyError(MonetaError, KeyError):
    """A currency code is not in the registry."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    def __str__(self) -> str:
        return f"unknown currency code {self.code!r}"


class UnknownLocaleError(MonetaError, LookupError):
    """A locale tag has no formatting rules in :mod:`moneta.locales`."""


class InvalidRoundingError(MonetaError, ValueError):
    """A rounding mode name is not one of :class:`moneta.rounding.Rounding`."""


class AllocationError(MonetaError, ValueError):
    """Ratios or a part count cannot be used to allocate an amount."""


class ParseError(MonetaError, ValueError):
    """Text could not be read as an amount or as money."""


class RateNotFoundError(MonetaError, LookupError):
    """No exchange rate, direct, inverse or through the pivot, is known for a pair."""

    def __init__(self, base: str, quote: str) -> None:
        super().__init__(f"no exchange rate for {base}/{quote}")
        self.base = base
        self.quote = quote


class StaleRateError(MonetaError):
    """The exchange rate for a pair exists but has expired."""

    def __init__(self, base: str, quote: str, expired_at: object) -> None:
        super().__init__(f"rate {base}/{quote} expired at {expired_at}")
        self.base = base
        self.quote = quote
        self.expired_at = expired_at


class RateJumpError(MonetaError, ValueError):
    """A re-quoted rate moved further from the previous quote than allowed."""
