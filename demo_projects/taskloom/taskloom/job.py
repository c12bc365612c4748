"""Jobs: a callable plus everything the queue and the workers need to know about it."""

from __future__ import annotations

import enum
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .constants import DEFAULT_PRIORITY, MAX_PRIORITY, MIN_PRIORITY
from .errors import InvalidPriority, JobCancelled


class JobState(enum.StrEnum):
    """Where a job is in its life.

    ``PENDING`` -> ``RUNNING`` -> ``SUCCEEDED``, or after a failure ``RETRYING`` (back
    in the queue, waiting out its backoff) and finally ``DEAD`` (handed to the
    dead-letter queue) or ``FAILED`` (no dead-letter queue configured).
    """

    PENDING = "pending"
    RUNNING = "running"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    DEAD = "dead"
    CANCELLED = "cancelled"


TERMINAL_STATES = frozenset({JobState.SUCCEEDED, JobState.FAILED, JobState.DEAD, JobState.CANCELLED})


def new_job_id() -> str:
    """A fresh, random job id.

    :returns: 32 lowercase hexadecimal characters
    :rtype: str
    """
    return uuid.uuid4().hex


def clamp_priority(priority: int) -> int:
    """Bring ``priority`` into ``MIN_PRIORITY..MAX_PRIORITY``.

    :param priority: any integer
    :type priority: int
    :returns: the nearest priority inside the allowed range
    :rtype: int
    :raises InvalidPriority: if ``priority`` is not an ``int`` (``bool`` is refused too)
    """
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise InvalidPriority(f"priority must be an int, not {type(priority).__name__}")
    return min(max(priority, MIN_PRIORITY), MAX_PRIORITY)


@dataclass(eq=False)
class Job:
    """A unit of work.

    :param func: the callable to run
    :type func: callable
    :param args: positional arguments for ``func``
    :param kwargs: keyword arguments for ``func``
    :param priority: smaller runs earlier; see :mod:`taskloom.queue`
    :type priority: int
    :param name: a label for logs and events; defaults to ``func.__qualname__``
    :param max_attempts: overrides the pool's :class:`~taskloom.retry.RetryPolicy` for this job
    :type max_attempts: int or None
    :raises InvalidPriority: if ``priority`` is outside ``0..100``

    Jobs compare by identity: two jobs wrapping the same function are still two jobs.
    """

    func: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    priority: int = DEFAULT_PRIORITY
    name: str | None = None
    max_attempts: int | None = None
    job_id: str = field(default_factory=new_job_id)
    attempts: int = 0
    state: JobState = JobState.PENDING
    last_error: BaseException | None = None
    result: Any = None
    #: Monotonic time before which the queue will not hand the job out.
    not_before: float = 0.0

    def __post_init__(self) -> None:
        self.priority = clamp_priority(self.priority)
        if self.name is None:
            self.name = getattr(self.func, "__qualname__", repr(self.func))
        if self.max_attempts is not None and self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def run(self) -> Any:
        """Call the function once, counting the attempt.

        The attempt is counted before the call, so inside ``func`` and in any
        error handler ``attempts`` already includes the current run.

        :returns: whatever ``func`` returns
        :raises JobCancelled: if the job was cancelled
        """
        if self.state is JobState.CANCELLED:
            raise JobCancelled(self.job_id)
        self.attempts += 1
        self.state = JobState.RUNNING
        return self.func(*self.args, **self.kwargs)

    def cancel(self) -> bool:
        """Cancel the job if it has not started.

        :returns: ``True`` if the job was pending or waiting for a retry and is now
            cancelled; ``False`` if it is running or already finished
        :rtype: bool
        """
        if self.state in (JobState.PENDING, JobState.RETRYING):
            self.state = JobState.CANCELLED
            return True
        return False

    @property
    def finished(self) -> bool:
        """``True`` once the job can no longer change state.

        :rtype: bool
        """
        return self.state in TERMINAL_STATES
