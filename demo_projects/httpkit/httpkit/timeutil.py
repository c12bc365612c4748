"""Time helpers: ``Retry-After`` parsing and unit conversion.

:func:`parse_retry_after` turns a header value into a delay in seconds and
:func:`ms_to_seconds` converts user-facing millisecond settings.

>>> parse_retry_after("120")
120.0
>>> ms_to_seconds(2500)
2.5
"""

from __future__ import annotations

import time
from email.utils import parsedate_to_datetime


def ms_to_seconds(ms: float) -> float:
    """Convert milliseconds to seconds.

    :param ms: a duration in milliseconds
    :returns: the same duration in seconds
    """
    return ms / 1000


def parse_retry_after(value: str, now: float | None = None) -> float | None:
    """Parse a ``Retry-After`` header value into a delay in seconds.

    Both forms are accepted: delay-seconds (``"120"``) and an HTTP-date, which
    is converted to the number of seconds from ``now`` (never negative).

    :param value: the raw header value
    :param now: the current POSIX time; defaults to :func:`time.time`
    :returns: the delay in seconds
    :raises ValueError: if the value is neither delay-seconds nor an HTTP-date
    """
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)
