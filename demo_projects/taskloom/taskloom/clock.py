"""Clocks.

taskloom measures delays with a monotonic clock and reports timestamps as aware
UTC datetimes.  Both are injectable so tests never sleep: :class:`FakeClock`
provides a matching pair that only moves when told to.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

MonotonicClock = Callable[[], float]
WallClock = Callable[[], datetime]


def monotonic() -> float:
    """Seconds on the process's monotonic clock.

    :returns: a value only meaningful when compared with another call
    :rtype: float
    """
    return time.monotonic()


def utcnow() -> datetime:
    """The current time as an aware datetime in UTC.

    :rtype: datetime.datetime
    """
    return datetime.now(UTC)


class FakeClock:
    """A monotonic clock and a wall clock that advance together, by hand.

    :param start: the initial wall-clock time; must be timezone-aware
    :type start: datetime.datetime
    :raises ValueError: if ``start`` is naive
    """

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2026, 1, 1, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("FakeClock needs an aware start time")
        self._wall = start.astimezone(UTC)
        self._mono = 0.0

    def monotonic(self) -> float:
        """Seconds advanced since the clock was created.

        :rtype: float
        """
        return self._mono

    def now(self) -> datetime:
        """The fake wall-clock time, in UTC.

        :rtype: datetime.datetime
        """
        return self._wall

    def advance(self, seconds: float) -> None:
        """Move both clocks forward.

        :param seconds: how far; negative values are rejected
        :raises ValueError: if ``seconds`` is negative
        """
        if seconds < 0:
            raise ValueError("clocks only move forward")
        self._mono += seconds
        self._wall += timedelta(seconds=seconds)
