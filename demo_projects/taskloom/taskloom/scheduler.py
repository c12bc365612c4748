"""The scheduler: turns recurring entries into jobs on a queue.

The scheduler has no thread of its own.  Call :meth:`Scheduler.tick` from a loop,
a timer or a test; each call enqueues a job for every entry that is due.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from .clock import WallClock, utcnow
from .constants import DEFAULT_PRIORITY, DEFAULT_TIMEZONE
from .job import Job
from .queue import JobQueue
from .schedule import CronSchedule, IntervalSchedule, Schedule, resolve_zone


@dataclass
class ScheduledEntry:
    """A recurring job.

    :param name: unique within its scheduler
    :param schedule: when it runs
    :param next_run: the next due time, aware
    :param runs: how many jobs it has enqueued
    """

    name: str
    schedule: Schedule
    func: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    priority: int
    next_run: datetime
    runs: int = 0
    last_job: Job | None = field(default=None, repr=False)


class Scheduler:
    """Enqueues recurring jobs.

    :param queue: where due jobs are put
    :type queue: JobQueue
    :param tz: zone of entries that do not name one
    :type tz: str or datetime.tzinfo
    :param now: the wall clock
    """

    def __init__(self, queue: JobQueue, *, tz: str | tzinfo = DEFAULT_TIMEZONE, now: WallClock = utcnow) -> None:
        self.queue = queue
        self.tz = resolve_zone(tz)
        self._now = now
        self._entries: dict[str, ScheduledEntry] = {}

    def _add(
        self,
        schedule: Schedule,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        name: str | None,
        priority: int,
    ) -> ScheduledEntry:
        label = name or getattr(func, "__qualname__", repr(func))
        if label in self._entries:
            raise ValueError(f"an entry named {label!r} already exists")
        entry = ScheduledEntry(
            name=label,
            schedule=schedule,
            func=func,
            args=args,
            kwargs=kwargs,
            priority=priority,
            next_run=schedule.next_run(self._now()),
        )
        self._entries[label] = entry
        return entry

    def every(
        self,
        seconds: float,
        func: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        priority: int = DEFAULT_PRIORITY,
        tz: str | tzinfo | None = None,
        **kwargs: Any,
    ) -> ScheduledEntry:
        """Run ``func`` every ``seconds`` seconds.

        The first run is one interval after the entry is added.

        :param seconds: the interval
        :type seconds: float
        :param func: the callable; extra positional and keyword arguments are passed to it
        :param name: the entry's name; defaults to ``func.__qualname__``
        :param priority: priority of the jobs it enqueues
        :param tz: zone for the interval arithmetic; defaults to the scheduler's
        :returns: the new entry
        :rtype: ScheduledEntry
        :raises ValueError: if the name is taken or ``seconds`` is not positive
        """
        schedule = IntervalSchedule(seconds, tz=tz if tz is not None else self.tz)
        return self._add(schedule, func, args, kwargs, name, priority)

    def cron(
        self,
        expression: str,
        func: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        priority: int = DEFAULT_PRIORITY,
        tz: str | tzinfo | None = None,
        **kwargs: Any,
    ) -> ScheduledEntry:
        """Run ``func`` at the minutes ``expression`` names.

        :param expression: a cron expression
        :type expression: str
        :param func: the callable; extra positional and keyword arguments are passed to it
        :param tz: the zone the expression is read in; defaults to the scheduler's
        :returns: the new entry
        :rtype: ScheduledEntry
        :raises CronSyntaxError: if the expression does not parse
        :raises ValueError: if the name is taken
        """
        schedule = CronSchedule(expression, tz=tz if tz is not None else self.tz)
        return self._add(schedule, func, args, kwargs, name, priority)

    def cancel(self, name: str) -> bool:
        """Remove an entry.  Jobs it already enqueued are not touched.

        :param name: the entry's name
        :type name: str
        :returns: ``True`` if there was such an entry
        :rtype: bool
        """
        return self._entries.pop(name, None) is not None

    @property
    def entries(self) -> tuple[ScheduledEntry, ...]:
        """The entries, in the order they were added.

        :rtype: tuple[ScheduledEntry, ...]
        """
        return tuple(self._entries.values())

    def tick(self, now: datetime | None = None) -> list[Job]:
        """Enqueue a job for every entry that is due.

        An entry whose runs were missed (the process was suspended, or ``tick`` was
        not called for a while) gets a single job, and its next run is computed
        from ``now``, so a backlog never floods the queue.

        :param now: the current time; defaults to the scheduler's clock
        :type now: datetime.datetime or None
        :returns: the jobs enqueued by this call
        :rtype: list[Job]
        """
        moment = now or self._now()
        enqueued: list[Job] = []
        for entry in list(self._entries.values()):
            if entry.next_run > moment:
                continue
            job = Job(entry.func, entry.args, dict(entry.kwargs), priority=entry.priority, name=entry.name)
            self.queue.put(job)
            entry.runs += 1
            entry.last_job = job
            entry.next_run = entry.schedule.next_run(moment)
            enqueued.append(job)
        return enqueued
