"""ISO 8601 durations, as taken by :meth:`pipekit.scheduler.Scheduler.every`.

Only designators of a fixed length are accepted: weeks, days, hours, minutes and
seconds. ``P1M`` is one minute; write ``P30D`` for a month.
"""

from __future__ import annotations

import re

from pipekit.errors import DurationError

_NUMBER = r"\d+(?:[.,]\d+)?"
_PATTERN = re.compile(
    rf"^P(?:(?P<years>{_NUMBER})Y)?(?:(?P<months>{_NUMBER})M)?(?:(?P<weeks>{_NUMBER})W)?(?:(?P<days>{_NUMBER})D)?"
    rf"(?:T(?:(?P<hours>{_NUMBER})H)?(?:(?P<minutes>{_NUMBER})M)?(?:(?P<seconds>{_NUMBER})S)?)?$"
)
_SECONDS = {"weeks": 604800, "days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}


def parse_duration(text: str) -> float:
    """Parse an ISO 8601 duration into seconds.

    >>> parse_duration("PT1M30S")
    90.0
    >>> parse_duration("P1W")
    604800.0

    Args:
        text: A duration such as ``"PT5M"`` or ``"P1DT12H"``. The last component
            may have a decimal fraction (``"PT0.5S"``).

    Returns:
        float: The length in seconds.

    Raises:
        DurationError: If ``text`` is not a duration, or names years or months,
            whose length depends on the calendar.
    """
    match = _PATTERN.match(text.strip())
    if not match or text.strip() in ("P", "PT") or text.strip().endswith("T"):
        raise DurationError(f"not an ISO 8601 duration: {text!r}")
    if match["years"] or match["months"]:
        raise DurationError(f"{text!r}: years and months have no fixed length; use days")
    total = 0.0
    for unit, seconds in _SECONDS.items():
        value = match[unit]
        if value:
            total += float(value.replace(",", ".")) * seconds
    return total
