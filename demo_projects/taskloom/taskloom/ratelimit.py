"""Rate limiting with a token bucket.

A bucket holds up to ``burst`` tokens and gains ``rate`` tokens per second.  Each
job a rate-limited pool runs takes one token.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from .constants import DEFAULT_RATE
from .errors import RateLimited


class TokenBucket:
    """A thread-safe token bucket.

    :param rate: tokens added per second
    :type rate: float
    :param burst: capacity of the bucket; defaults to ``rate`` rounded up (at least 1)
    :type burst: int or None
    :param clock: monotonic clock used to refill the bucket
    :param sleep: function used to wait; tests pass a fake
    :raises ValueError: if ``rate`` is not positive or ``burst`` is smaller than 1

    The bucket starts full, so the first ``burst`` acquisitions do not wait.
    """

    def __init__(
        self,
        rate: float = DEFAULT_RATE,
        burst: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = float(rate)
        self.burst = burst if burst is not None else max(1, math.ceil(rate))
        if self.burst < 1:
            raise ValueError("burst must be at least 1")
        self._clock = clock
        self._sleep = sleep
        self._tokens = float(self.burst)
        self._stamp = clock()
        self._lock = threading.Lock()

    def _refill(self) -> None:
        now = self._clock()
        elapsed = max(now - self._stamp, 0.0)
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._stamp = now

    @property
    def tokens(self) -> float:
        """Tokens available right now.

        :rtype: float
        """
        with self._lock:
            self._refill()
            return self._tokens

    def wait_time(self, tokens: int = 1) -> float:
        """Seconds until ``tokens`` tokens are available.

        :param tokens: how many tokens
        :type tokens: int
        :returns: ``0.0`` when they are available now
        :rtype: float
        """
        with self._lock:
            self._refill()
            missing = tokens - self._tokens
        return max(missing / self.rate, 0.0)

    def try_acquire(self, tokens: int = 1) -> bool:
        """Take ``tokens`` tokens if they are available now.

        :param tokens: how many tokens
        :type tokens: int
        :returns: ``True`` if the tokens were taken
        :rtype: bool
        """
        with self._lock:
            self._refill()
            if self._tokens >= tokens:
                self._tokens -= tokens
                return True
            return False

    def acquire(self, tokens: int = 1, timeout: float | None = None) -> float:
        """Take ``tokens`` tokens, waiting for them if needed.

        :param tokens: how many tokens
        :type tokens: int
        :param timeout: the longest acceptable wait, in seconds; ``None`` waits as long
            as it takes
        :type timeout: float or None
        :returns: the seconds spent waiting
        :rtype: float
        :raises ValueError: if ``tokens`` exceeds the bucket's capacity
        :raises RateLimited: if the wait would be longer than ``timeout``; this is
            decided up front, without sleeping
        """
        if tokens > self.burst:
            raise ValueError(f"cannot take {tokens} tokens from a bucket of {self.burst}")
        waited = 0.0
        while True:
            wait = self.wait_time(tokens)
            if timeout is not None and waited + wait > timeout:
                raise RateLimited(wait)
            if wait <= 0 and self.try_acquire(tokens):
                return waited
            self._sleep(wait)
            waited += wait
