"""Client-side rate limiting with a token bucket.

The bucket refills continuously at ``rate`` tokens per second up to ``burst``
tokens. :meth:`TokenBucket.acquire` reports how long the caller must wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .constants import DEFAULT_BURST, DEFAULT_RATE
from .errors import RateLimited


class TokenBucket:
    """A token bucket.

    Parameters
    ----------
    rate : float
        Tokens added per second.
    burst : int
        Capacity of the bucket; also the number of tokens it starts with.
    clock : callable, optional
        Returns the current time in seconds; :func:`time.monotonic` by default.
    """

    def __init__(
        self,
        rate: float = DEFAULT_RATE,
        burst: int = DEFAULT_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def available(self) -> float:
        """Tokens that could be taken right now."""
        self._refill()
        return self._tokens

    def acquire(self, tokens: int = 1) -> float:
        """Take ``tokens`` from the bucket, borrowing against future refills.

        Parameters
        ----------
        tokens : int
            How many tokens the request costs.

        Returns
        -------
        float
            Seconds the caller must wait before sending; ``0.0`` when the
            tokens were available.

        Raises
        ------
        ValueError
            If ``tokens`` is larger than ``burst``.
        """
        tokens = min(tokens, self.burst)
        self._refill()
        self._tokens -= tokens
        if self._tokens >= 0:
            return 0.0
        return -self._tokens / self.rate

    def try_acquire(self, tokens: int = 1) -> None:
        """Take ``tokens`` only if they are available now.

        Raises
        ------
        RateLimited
            If the bucket holds fewer than ``tokens`` tokens.
        """
        self._refill()
        if self._tokens < tokens:
            raise RateLimited(f"{tokens} tokens requested, {self._tokens:.2f} available")
        self._tokens -= tokens
