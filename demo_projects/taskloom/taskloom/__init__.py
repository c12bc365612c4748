"""taskloom: a small in-process job queue with retries, schedules and rate limits.

The names most programs need are importable from the package itself; the rest
live in their modules (:mod:`taskloom.clock`, :mod:`taskloom.constants`, ...).
"""

from __future__ import annotations

from .backoff import Backoff, ConstantBackoff, ExponentialBackoff
from .cron import CronExpression, parse_cron
from .deadletter import DeadLetter, DeadLetterQueue
from .errors import (
    CronSyntaxError,
    InvalidPriority,
    JobCancelled,
    JobNotFound,
    PoolStateError,
    QueueClosed,
    QueueFull,
    RateLimited,
    TaskloomError,
)
from .job import Job, JobState
from .queue import JobQueue
from .ratelimit import TokenBucket
from .retry import NO_RETRY, RetryPolicy
from .schedule import CronSchedule, IntervalSchedule, Schedule
from .scheduler import ScheduledEntry, Scheduler
from .worker import WorkerPool

__all__ = [
    "NO_RETRY",
    "Backoff",
    "ConstantBackoff",
    "CronExpression",
    "CronSchedule",
    "CronSyntaxError",
    "DeadLetter",
    "DeadLetterQueue",
    "ExponentialBackoff",
    "IntervalSchedule",
    "InvalidPriority",
    "Job",
    "JobCancelled",
    "JobNotFound",
    "JobQueue",
    "JobState",
    "PoolStateError",
    "QueueClosed",
    "QueueFull",
    "RateLimited",
    "RetryPolicy",
    "Schedule",
    "ScheduledEntry",
    "Scheduler",
    "TaskloomError",
    "TokenBucket",
    "WorkerPool",
    "parse_cron",
]

__version__ = "0.4.0"
