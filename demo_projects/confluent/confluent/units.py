"""Parsing of human-friendly duration and size strings.

Both parsers accept a bare number (seconds, bytes) or a number followed by a
unit suffix. Durations may be compound (``"1h30m"``); sizes may not.
"""

from __future__ import annotations

import re

from .constants import DURATION_UNITS, SIZE_UNITS

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$")


def parse_duration(text: str) -> float:
    """Return the number of seconds ``text`` denotes.

    ``"90"`` is 90 seconds, ``"5m"`` is 300 seconds and ``"1h30m"`` is 5400.
    Parts are summed left to right; whitespace between parts is not allowed.

    Raises:
        ValueError: if ``text`` is empty, has an unknown unit, or is
            negative (a duration cannot be below zero).
    """
    text = text.strip()
    if not text:
        raise ValueError("empty duration")
    try:
        return float(text)
    except ValueError:
        pass
    pos = 0
    total = 0.0
    for match in _DURATION_PART.finditer(text):
        if match.start() != pos:
            break
        total += float(match.group(1)) * DURATION_UNITS[match.group(2)]
        pos = match.end()
    if pos != len(text) or pos == 0:
        raise ValueError(f"invalid duration {text!r}")
    return total


def parse_size(text: str) -> int:
    """Return the number of bytes ``text`` denotes.

    Decimal suffixes (``kB``, ``MB``, ``GB``) count in powers of 1000 and
    binary ones (``KiB``, ``MiB``, ``GiB``) in powers of 1024; suffixes are
    case-insensitive. Fractions are allowed and the result is truncated to a
    whole number of bytes.
    """
    match = _SIZE.match(text.strip())
    if not match:
        raise ValueError(f"invalid size {text!r}")
    number, unit = match.groups()
    factor = SIZE_UNITS.get(unit.lower() or "b")
    if factor is None:
        raise ValueError(f"unknown size unit {unit!r}")
    return int(float(number) * factor)


def format_duration(seconds: float) -> str:
    """Render ``seconds`` with the largest unit that divides it evenly."""
    for unit in ("d", "h", "m", "s"):
        factor = DURATION_UNITS[unit]
        if seconds >= factor and seconds % factor == 0:
            return f"{int(seconds // factor)}{unit}"
    return f"{seconds * 1000:g}ms"


def format_size(size: int, *, binary: bool = True) -> str:
    """Render ``size`` bytes with the largest unit that divides it evenly.

    With ``binary`` (the default) the units are ``KiB``, ``MiB`` and ``GiB``;
    otherwise ``kB``, ``MB`` and ``GB``. Sizes that no unit divides are shown
    in plain bytes, e.g. ``"1500B"`` in binary mode.
    """
    if binary:
        units = (("GiB", SIZE_UNITS["gib"]), ("MiB", SIZE_UNITS["mib"]), ("KiB", SIZE_UNITS["kib"]))
    else:
        units = (("GB", SIZE_UNITS["gb"]), ("MB", SIZE_UNITS["mb"]), ("kB", SIZE_UNITS["kb"]))
    for name, factor in units:
        if size >= factor and size % factor == 0:
            return f"{size // factor}{name}"
    return f"{size}B"
