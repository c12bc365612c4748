"""Clocks: where the scheduler, batcher and retry loop get the time from.

Nothing in pipekit calls :func:`time.time` or :func:`time.sleep` directly; it asks
its clock, so tests can drive time with a :class:`ManualClock`.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """What pipekit needs from a clock."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The wall clock: ``now()`` is seconds since the Unix epoch."""

    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that moves only when told to.

    Args:
        start: The first reading, in seconds since the epoch.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward by ``seconds`` and return the new reading.

        Raises:
            ValueError: If ``seconds`` is negative; a clock never runs backwards.
        """
        if seconds < 0:
            raise ValueError(f"cannot advance by {seconds!r} seconds")
        self._now += seconds
        return self._now

    def sleep(self, seconds: float) -> None:
        """Advance instead of blocking, so a scheduler loop under test finishes at once."""
        self.advance(max(0.0, seconds))
