"""Five-field cron schedules: minute, hour, day of month, month, day of week.

The field syntax is the one described in ``upstream/cron.md``: ``*``, lists
(``1,15``), ranges (``1-5``) and steps (``*/15``, ``0-30/10``). Month and day names
(``JAN``, ``MON``) and the ``@daily`` shorthands are not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pipekit.errors import CronSyntaxError, ScheduleError

_LIMITS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))
_SEARCH_MINUTES = 366 * 24 * 60 * 4  # a Feb 29 schedule matches within four years


def _field(text: str, low: int, high: int) -> frozenset[int]:
    values: set[int] = set()
    for part in text.split(","):
        base, _, step_text = part.partition("/")
        step = int(step_text) if step_text else 1
        if base == "*":
            start, stop = low, high
        elif "-" in base:
            a, b = base.split("-", 1)
            start, stop = int(a), int(b)
        else:
            start = stop = int(base)
            if step_text:
                stop = high
        if not low <= start <= stop <= high or step < 1:
            raise CronSyntaxError(f"{part!r} is outside {low}-{high}")
        values.update(range(start, stop + 1, step))
    return frozenset(values)


@dataclass(frozen=True)
class CronSchedule:
    """A parsed cron expression; build one with :meth:`parse`.

    ``weekdays`` counts like cron, from 0 = Sunday to 6 = Saturday.
    """

    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]
    days_restricted: bool = False
    weekdays_restricted: bool = False

    @classmethod
    def parse(cls, expr: str) -> CronSchedule:
        """Parse a five-field expression such as ``"*/15 9-17 * * 1-5"``.

        :raises CronSyntaxError: for a wrong number of fields or a value out of range.
        """
        fields = expr.split()
        if len(fields) != 5:
            raise CronSyntaxError(f"expected 5 fields, got {len(fields)}: {expr!r}")
        try:
            parsed = [_field(text, lo, hi) for text, (lo, hi) in zip(fields, _LIMITS, strict=True)]
        except ValueError as exc:
            raise CronSyntaxError(f"{expr!r}: {exc}") from exc
        weekdays = frozenset(d % 7 for d in parsed[4])  # 7 is Sunday too
        return cls(parsed[0], parsed[1], parsed[2], parsed[3], weekdays,
                   days_restricted=fields[2] != "*", weekdays_restricted=fields[4] != "*")

    def matches(self, when: datetime) -> bool:
        """Whether the minute containing ``when`` is one the schedule fires in."""
        if when.minute not in self.minutes or when.hour not in self.hours or when.month not in self.months:
            return False
        day_ok = when.day in self.days
        weekday_ok = (when.weekday() + 1) % 7 in self.weekdays
        if self.days_restricted and self.weekdays_restricted:
            return day_ok or weekday_ok
        return day_ok and weekday_ok

    def next_after(self, when: datetime) -> datetime:
        """The first matching minute strictly after ``when``, with seconds set to zero.

        Raises:
            ScheduleError: If nothing matches within four years (``30 0 31 2 *``).
        """
        t = when.replace(second=0, microsecond=0) + timedelta(minutes=1)
        for _ in range(_SEARCH_MINUTES):
            if self.matches(t):
                return t
            t += timedelta(minutes=1)
        raise ScheduleError(f"schedule never fires after {when.isoformat()}")
