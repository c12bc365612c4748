"""Backoff strategies: how long a failed job waits before its next attempt.

A strategy maps the number of attempts made so far to a delay in seconds.
Attempt numbers start at 1: ``delay(1)`` is the wait after the first failure.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from .constants import DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, DEFAULT_MULTIPLIER


class Backoff(ABC):
    """Base class of the backoff strategies.

    Subclasses implement :meth:`compute`; :meth:`delay` validates the attempt
    number and is what callers use.
    """

    def delay(self, attempt: int) -> float:
        """Seconds to wait after ``attempt`` failed runs.

        :param attempt: number of attempts made so far, at least 1
        :type attempt: int
        :rtype: float
        :raises ValueError: if ``attempt`` is smaller than 1
        """
        if attempt < 1:
            raise ValueError(f"attempt numbers start at 1, got {attempt}")
        return self.compute(attempt)

    @abstractmethod
    def compute(self, attempt: int) -> float:
        """The delay for a validated attempt number."""


class ConstantBackoff(Backoff):
    """The same delay after every failure.

    :param seconds: the delay
    :type seconds: float
    """

    def __init__(self, seconds: float = DEFAULT_BASE_DELAY) -> None:
        if seconds < 0:
            raise ValueError("a delay cannot be negative")
        self.seconds = float(seconds)

    def compute(self, attempt: int) -> float:
        return self.seconds

    def __repr__(self) -> str:
        return f"ConstantBackoff({self.seconds!r})"


class ExponentialBackoff(Backoff):
    """Delays that grow geometrically: ``base * multiplier ** (attempt - 1)``.

    :param base: delay after the first failure, in seconds
    :type base: float
    :param multiplier: growth factor between consecutive delays
    :type multiplier: float
    :param max_delay: cap of the geometric part, in seconds
    :type max_delay: float
    :param jitter: fraction of the delay added at random, ``0.1`` for up to 10 %
    :type jitter: float
    :param rng: random source for the jitter; defaults to a fresh :class:`random.Random`
    :type rng: random.Random or None

    The result never exceeds ``max_delay``, whatever the jitter.
    """

    def __init__(
        self,
        base: float = DEFAULT_BASE_DELAY,
        multiplier: float = DEFAULT_MULTIPLIER,
        max_delay: float = DEFAULT_MAX_DELAY,
        jitter: float = 0.0,
        rng: random.Random | None = None,
    ) -> None:
        if base < 0 or max_delay < 0:
            raise ValueError("delays cannot be negative")
        if multiplier < 1:
            raise ValueError("multiplier must be at least 1")
        if not 0.0 <= jitter <= 1.0:
            raise ValueError("jitter is a fraction between 0 and 1")
        self.base = float(base)
        self.multiplier = float(multiplier)
        self.max_delay = float(max_delay)
        self.jitter = float(jitter)
        self._rng = rng or random.Random()

    def compute(self, attempt: int) -> float:
        delay = min(self.base * self.multiplier ** (attempt - 1), self.max_delay)
        if self.jitter:
            # Jitter spreads out retries of jobs that failed together; it is drawn
            # after capping so capped delays are spread too.
            delay += self._rng.uniform(0.0, self.jitter * delay)
        return delay

    def __repr__(self) -> str:
        return (
            f"ExponentialBackoff(base={self.base!r}, multiplier={self.multiplier!r}, "
            f"max_delay={self.max_delay!r}, jitter={self.jitter!r})"
        )
