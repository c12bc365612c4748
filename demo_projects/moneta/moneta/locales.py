"""Number and currency conventions per locale.

moneta does not consult the C library or the :mod:`locale` module: the
conventions below are data, so output is the same on every machine and does
not depend on which locales the operating system has installed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownLocaleError

NBSP = "\u00a0"
NARROW_NBSP = "\u202f"


@dataclass(frozen=True)
class LocaleSpec:
    """How one locale writes an amount of money.

    Parameters
    ----------
    tag : str
        Locale tag with an underscore, e.g. ``"de_DE"``.
    decimal : str
        Decimal separator.
    group : str
        Thousands (group) separator.
    grouping : tuple of int
        Group sizes from the right; the last size repeats, as in
        :func:`locale.localeconv`'s ``grouping``. ``(3,)`` gives
        ``1,234,567``; ``(3, 2)`` gives ``12,34,567``.
    pattern : str
        Where the symbol goes: a format string with ``{sym}`` and ``{num}``.
    code_pattern : str
        The same when the ISO code is shown instead of a symbol.
    """

    tag: str
    decimal: str
    group: str
    grouping: tuple[int, ...]
    pattern: str
    code_pattern: str


LOCALES: dict[str, LocaleSpec] = {
    spec.tag: spec
    for spec in (
        LocaleSpec("en_US", ".", ",", (3,), "{sym}{num}", "{sym}" + NBSP + "{num}"),
        LocaleSpec("en_GB", ".", ",", (3,), "{sym}{num}", "{sym}" + NBSP + "{num}"),
        LocaleSpec("en_IN", ".", ",", (3, 2), "{sym}{num}", "{sym}" + NBSP + "{num}"),
        LocaleSpec("de_DE", ",", ".", (3,), "{num}" + NBSP + "{sym}", "{num}" + NBSP + "{sym}"),
        LocaleSpec("fr_FR", ",", NARROW_NBSP, (3,), "{num}" + NBSP + "{sym}", "{num}" + NBSP + "{sym}"),
        LocaleSpec("de_CH", ".", "\u2019", (3,), "{sym}" + NBSP + "{num}", "{sym}" + NBSP + "{num}"),
        LocaleSpec("ja_JP", ".", ",", (3,), "{sym}{num}", "{sym}" + NBSP + "{num}"),
    )
}


def get_locale(tag: str) -> LocaleSpec:
    """Look up the conventions for `tag`.

    Parameters
    ----------
    tag : str
        ``"de_DE"`` or ``"de-DE"``; the match is otherwise exact, there is
        no fallback from ``"de_AT"`` to ``"de_DE"``.

    Returns
    -------
    LocaleSpec

    Raises
    ------
    UnknownLocaleError
        If there are no conventions for the tag.
    """
    key = tag.strip().replace("-", "_")
    try:
        return LOCALES[key]
    except KeyError:
        raise UnknownLocaleError(f"no formatting conventions for locale {tag!r}") from None
