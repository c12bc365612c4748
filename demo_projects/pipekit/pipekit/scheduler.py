"""The job scheduler: interval and cron jobs, driven by a clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pipekit.clock import Clock, SystemClock
from pipekit.cron import CronSchedule
from pipekit.duration import parse_duration
from pipekit.errors import DuplicateJobError, PipekitError, RetryExhausted, ScheduleError
from pipekit.retry import RetryPolicy


@dataclass
class Job:
    """A unit of scheduled work.

    Exactly one of ``interval`` (seconds) and ``cron`` must be set.
    """

    name: str
    fn: Callable[[], object]
    interval: float | None = None
    cron: CronSchedule | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    next_run: float = 0.0
    runs: int = 0
    enabled: bool = True
    last_error: BaseException | None = None

    def __post_init__(self) -> None:
        if (self.interval is None) == (self.cron is None):
            raise ScheduleError(f"job {self.name!r}: set exactly one of interval and cron")

    def due_after(self, now: float) -> float:
        """The next due time after ``now`` (clock seconds)."""
        if self.interval is not None:
            return now + self.interval
        assert self.cron is not None
        nxt = self.cron.next_after(datetime.fromtimestamp(now, tz=UTC))
        return nxt.timestamp()


class Scheduler:
    """Runs jobs when they are due.

    A failing job is retried up to three times (its :class:`~pipekit.retry.RetryPolicy`
    decides); when every attempt has failed, the job is disabled and the scheduler
    carries on with the others.
    """

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or SystemClock()
        self._jobs: dict[str, Job] = {}

    @property
    def jobs(self) -> tuple[Job, ...]:
        """The registered jobs, in registration order."""
        return tuple(self._jobs.values())

    def add(self, job: Job, *, start_at: float | None = None) -> Job:
        """Register ``job``; it is first due at ``start_at`` (clock seconds), else one period from now.

        :raises ValueError: if a job with the same name is already registered.
        """
        if job.name in self._jobs:
            raise DuplicateJobError(job.name)
        job.next_run = start_at if start_at is not None else job.due_after(self.clock.now())
        self._jobs[job.name] = job
        return job

    def every(self, period: str, fn: Callable[[], object], *, name: str | None = None) -> Job:
        """Run ``fn`` every ``period``, an ISO 8601 duration such as ``"PT5M"``."""
        return self.add(Job(name or fn.__name__, fn, interval=parse_duration(period)))

    def cron(self, expr: str, fn: Callable[[], object], *, name: str | None = None) -> Job:
        """Run ``fn`` whenever the cron expression ``expr`` matches (UTC)."""
        return self.add(Job(name or fn.__name__, fn, cron=CronSchedule.parse(expr)))

    def remove(self, name: str) -> Job:
        """Unregister and return the job called ``name``.

        Raises:
            KeyError: If no job has that name.
        """
        return self._jobs.pop(name)

    def run_pending(self) -> int:
        """Run every due, enabled job once, earliest due first; return how many ran."""
        now = self.clock.now()
        due = sorted((j for j in self._jobs.values() if j.enabled and j.next_run <= now), key=lambda j: j.next_run)
        for job in due:
            try:
                job.retry.call(job.fn, clock=self.clock)
            except RetryExhausted as exc:
                job.enabled = False
                job.last_error = exc.__cause__
            except PipekitError as exc:
                job.last_error = exc
            job.runs += 1
            job.next_run = job.due_after(self.clock.now())
        return len(due)

    def run_forever(self, *, max_iterations: int | None = None, tick: float = 1.0) -> None:
        """Call :meth:`run_pending` every ``tick`` seconds (forever, or ``max_iterations`` times)."""
        done = 0
        while max_iterations is None or done < max_iterations:
            self.run_pending()
            self.clock.sleep(tick)
            done += 1
