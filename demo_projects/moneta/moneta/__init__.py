"""moneta: money as exact decimals.

The package exports the everyday names: :class:`Money`, :class:`Currency`,
:class:`RateBook` and :class:`MoneyBag`, plus :func:`allocate`,
:func:`split` and :func:`format_money`. Use :func:`parse` to read amounts
typed by users. Locale tables live in :mod:`moneta.locales` and the error
classes in :mod:`moneta.errors`.
"""

from __future__ import annotations

import warnings

from . import errors
from .allocation import allocate, split
from .bag import MoneyBag
from .currency import Currency, all_currencies, get_currency, register_currency
from .formatting import format_money
from .money import Money
from .parsing import parse_amount, parse_money
from .rates import ExchangeRate, RateBook
from .rounding import DEFAULT_ROUNDING, Rounding

__version__ = "2.1.0"

__all__ = [
    "DEFAULT_ROUNDING",
    "Currency",
    "ExchangeRate",
    "Money",
    "MoneyBag",
    "RateBook",
    "Rounding",
    "all_currencies",
    "allocate",
    "errors",
    "format_money",
    "get_currency",
    "parse_amount",
    "parse_money",
    "register_currency",
    "split",
]

# Names removed in 2.0 that still resolve, with a warning, until 3.0.
_DEPRECATED = {"RateTable": ("RateBook", RateBook)}


def __getattr__(name: str) -> object:
    if name in _DEPRECATED:
        new_name, target = _DEPRECATED[name]
        warnings.warn(f"moneta.{name} is deprecated; use moneta.{new_name}", DeprecationWarning, stacklevel=2)
        return target
    raise AttributeError(f"module 'moneta' has no attribute {name!r}")
