"""Retry policies.

A :class:`RetryPolicy` decides whether a failed job runs again and, through its
backoff, when.  Use :func:`compute_delay` to preview the wait before a given attempt.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .backoff import Backoff, ExponentialBackoff
from .constants import DEFAULT_MAX_ATTEMPTS


@dataclass(frozen=True)
class RetryPolicy:
    """When to retry a failed job.

    :param max_attempts: total number of runs, the first one included
    :type max_attempts: int
    :param backoff: the delay strategy between runs
    :type backoff: Backoff
    :param retry_on: exception classes that are worth another attempt
    :type retry_on: tuple of exception classes
    :param give_up_on: exception classes that are never retried, even when they
        also match ``retry_on``
    :type give_up_on: tuple of exception classes
    """

    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    backoff: Backoff = field(default_factory=ExponentialBackoff)
    retry_on: tuple[type[BaseException], ...] = (Exception,)
    give_up_on: tuple[type[BaseException], ...] = ()

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def should_retry(self, error: BaseException, attempts: int) -> bool:
        """Whether a job that failed with ``error`` after ``attempts`` runs goes again.

        :param error: the exception of the last run
        :param attempts: runs made so far, the failed one included
        :type attempts: int
        :rtype: bool
        """
        if isinstance(error, self.give_up_on):
            return False
        if not isinstance(error, self.retry_on):
            return False
        return attempts < self.max_attempts

    def next_delay(self, attempts: int) -> float:
        """Seconds to wait before the run that follows ``attempts`` runs.

        :param attempts: runs made so far
        :type attempts: int
        :rtype: float
        """
        return self.backoff.delay(attempts)

    def with_max_attempts(self, max_attempts: int) -> RetryPolicy:
        """A copy of this policy with another attempt budget.

        :param max_attempts: the new budget
        :rtype: RetryPolicy
        """
        if max_attempts == self.max_attempts:
            return self
        return replace(self, max_attempts=max_attempts)


#: A policy that never retries.
NO_RETRY = RetryPolicy(max_attempts=1)
