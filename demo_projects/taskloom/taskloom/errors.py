"""Exception hierarchy of taskloom.

All exceptions derive from :class:`TaskloomError`.  A few also derive from the
built-in exception a caller would naturally catch (``ValueError`` for bad input,
``KeyError`` for a missing job), so existing ``except`` clauses keep working.
"""

from __future__ import annotations


class TaskloomError(Exception):
    """Base class of every exception raised by taskloom."""


class CronSyntaxError(TaskloomError, ValueError):
    """A cron expression could not be parsed.

    :param expression: the offending expression
    :param reason: what is wrong with it
    """

    def __init__(self, expression: str, reason: str) -> None:
        super().__init__(f"{expression!r}: {reason}")
        self.expression = expression
        self.reason = reason


class InvalidPriority(TaskloomError, TypeError):
    """A job priority that is not an integer."""


class QueueClosed(TaskloomError):
    """The queue was closed and accepts no more jobs."""


class QueueFull(TaskloomError):
    """A bounded queue is at capacity and the caller did not want to wait."""


class JobNotFound(TaskloomError, KeyError):
    """No job with the given id is waiting in the queue."""

    def __init__(self, job_id: str) -> None:
        super().__init__(job_id)
        self.job_id = job_id


class JobCancelled(TaskloomError):
    """A cancelled job was asked to run."""


class RateLimited(TaskloomError):
    """A token bucket could not hand out tokens within the caller's timeout.

    :param retry_after: seconds until enough tokens will have accumulated
    """

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited; retry after {retry_after:.3f}s")
        self.retry_after = retry_after


class PoolStateError(TaskloomError, RuntimeError):
    """A WorkerPool was started twice, or used after shutdown."""
