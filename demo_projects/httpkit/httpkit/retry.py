"""Retry policy: which responses are retried and how long to wait in between.

The session asks the policy after every response; the policy never sleeps
itself, so it can be tested without a clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .constants import (
    DEFAULT_BACKOFF,
    DEFAULT_JITTER,
    IDEMPOTENT_METHODS,
    MAX_BACKOFF_MS,
    MAX_RETRIES,
    RETRY_STATUSES,
)
from .errors import RetryExhausted
from .models import Request, Response
from .timeutil import ms_to_seconds, parse_retry_after


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter, honouring ``Retry-After``.

    Args:
        max_retries: Retries after the first attempt.
        backoff: Delay before the first retry, in seconds; doubled on each
            further retry.
        max_backoff: Upper bound of any single delay, in seconds.
        jitter: Fraction of the delay added or removed at random.
        statuses: Response statuses that are retried.
        methods: Methods that are retried; others are sent once.
        respect_retry_after: Use the server's ``Retry-After`` when present.
    """

    max_retries: int = MAX_RETRIES
    backoff: float = DEFAULT_BACKOFF
    max_backoff: float = ms_to_seconds(MAX_BACKOFF_MS)
    jitter: float = DEFAULT_JITTER
    statuses: frozenset[int] = RETRY_STATUSES
    methods: frozenset[str] = IDEMPOTENT_METHODS
    respect_retry_after: bool = True
    random: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def should_retry(self, request: Request, response: Response) -> bool:
        """Whether ``response`` to ``request`` may be retried.

        Returns:
            True when both the method and the status are retryable.
        """
        return request.method in self.methods and response.status in self.statuses

    def delay_for(self, attempt: int, response: Response | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (1 for the first retry).

        A ``Retry-After`` header wins over the computed backoff; either way the
        result never exceeds ``max_backoff``.
        """
        if self.respect_retry_after and response is not None and "Retry-After" in response.headers:
            hinted = parse_retry_after(response.headers["Retry-After"])
            if hinted is not None:
                return min(hinted, self.max_backoff)
        base = self.backoff * 2 ** (attempt - 1)
        spread = base * self.jitter * (2 * self.random() - 1)
        return min(max(0.0, base + spread), self.max_backoff)

    def check_exhausted(self, attempt: int, response: Response) -> None:
        """Raise once ``attempt`` retries have been used up.

        Raises:
            RetryExhausted: when ``attempt`` exceeds ``max_retries``.
        """
        if attempt > self.max_retries:
            raise RetryExhausted(attempt, response.status)


NO_RETRY = RetryPolicy(max_retries=0)
