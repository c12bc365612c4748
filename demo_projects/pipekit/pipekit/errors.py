"""Exceptions raised by pipekit.

Every error the library raises on purpose derives from :class:`PipekitError`, so a
single ``except PipekitError`` around a pipeline run catches all of them.
"""

from __future__ import annotations


class PipekitError(Exception):
    """Base class of every pipekit error."""


class SourceError(PipekitError):
    """A source could not be read, or was used outside its open/close window."""


class ScheduleError(PipekitError):
    """A job could not be scheduled."""


class DuplicateJobError(ScheduleError):
    """A job with the same name is already registered with the scheduler."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a job named {name!r} is already registered")
        self.name = name


class CronSyntaxError(ScheduleError, ValueError):
    """A cron expression could not be parsed."""


class DurationError(PipekitError, ValueError):
    """An ISO 8601 duration could not be parsed, or has no fixed length in seconds."""


class CheckpointError(PipekitError):
    """The checkpoint file exists but cannot be read."""


class RetryExhausted(PipekitError):
    """Every attempt a retry policy allowed has failed.

    The last failure is chained as ``__cause__``.
    """

    def __init__(self, attempts: int) -> None:
        super().__init__(f"gave up after {attempts} attempt(s)")
        self.attempts = attempts
