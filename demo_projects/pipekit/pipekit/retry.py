"""Retrying calls that fail for reasons that may go away."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from pipekit.clock import Clock, SystemClock
from pipekit.config import BACKOFF_FACTOR, DEFAULT_BACKOFF, DEFAULT_MAX_ATTEMPTS, MAX_BACKOFF
from pipekit.errors import RetryExhausted

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often, and how patiently, to retry a failing call.

    :param max_attempts: total attempts, the first one included.
    :param backoff: delay before the first retry, in seconds.
    :param factor: multiplier applied to the delay after each retry.
    :param max_backoff: upper bound of any single delay, in seconds.
    :param retry_on: exception types worth retrying; any other exception propagates at once.
    """

    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    backoff: float = DEFAULT_BACKOFF
    factor: float = BACKOFF_FACTOR
    max_backoff: float = MAX_BACKOFF
    retry_on: tuple[type[Exception], ...] = (Exception,)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def delays(self) -> Iterator[float]:
        """The waits between attempts: ``max_attempts - 1`` values, growing by ``factor``."""
        delay = self.backoff
        for _ in range(self.max_attempts - 1):
            yield min(delay, self.max_backoff)
            delay *= self.factor

    def call(self, fn: Callable[[], T], clock: Clock | None = None) -> T:
        """Call ``fn`` until it returns, sleeping on ``clock`` between attempts.

        :returns: what ``fn`` returned.
        :raises RetryExhausted: when every attempt failed; the last error is its ``__cause__``.
        """
        clock = clock or SystemClock()
        waits = self.delays()
        attempt = 0
        while True:
            attempt += 1
            try:
                return fn()
            except self.retry_on as exc:
                delay = next(waits, None)
                if delay is None:
                    raise RetryExhausted(attempt) from exc
                clock.sleep(delay)
