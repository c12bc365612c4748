"""Schedules: when a recurring job is due next.

A schedule answers one question, :meth:`Schedule.next_run`: given a moment, when
is the next run after it?  :class:`CronSchedule` follows a cron expression in a
named time zone; :class:`IntervalSchedule` repeats after a fixed duration.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from .constants import DEFAULT_TIMEZONE
from .cron import CronExpression, parse_cron


def resolve_zone(tz: str | tzinfo | None) -> tzinfo:
    """A ``tzinfo`` for a zone name, or the zone itself.

    :param tz: an IANA name such as ``"Europe/Paris"``, a ``tzinfo``, or ``None``
        for :data:`taskloom.constants.DEFAULT_TIMEZONE`
    :rtype: datetime.tzinfo
    :raises zoneinfo.ZoneInfoNotFoundError: for an unknown zone name
    """
    if tz is None:
        tz = DEFAULT_TIMEZONE
    if isinstance(tz, str):
        return ZoneInfo(tz)
    return tz


class Schedule(ABC):
    """Base class of the schedules."""

    tz: tzinfo

    @abstractmethod
    def next_run(self, after: datetime) -> datetime:
        """The next run strictly after ``after``."""


class CronSchedule(Schedule):
    """Runs at the minutes a cron expression names, read in a time zone.

    :param expression: a cron expression or an already parsed one
    :type expression: str or CronExpression
    :param tz: the zone the expression's hours are read in
    :type tz: str or datetime.tzinfo
    :raises CronSyntaxError: at construction, if ``expression`` does not parse
    """

    def __init__(self, expression: str | CronExpression, tz: str | tzinfo | None = None) -> None:
        self.expression = parse_cron(expression) if isinstance(expression, str) else expression
        self.tz = resolve_zone(tz)

    def next_run(self, after: datetime) -> datetime:
        """The next matching minute after ``after``.

        :param after: the reference moment; a naive value is treated as UTC
        :type after: datetime.datetime
        :returns: an aware datetime in the schedule's zone
        :rtype: datetime.datetime
        """
        if after.tzinfo is None:
            after = after.replace(tzinfo=self.tz)
        wall = after.astimezone(self.tz).replace(tzinfo=None)
        # The match is computed on wall-clock time and the zone attached afterwards,
        # so "09:00" means 09:00 on the local clock in winter and in summer.
        return self.expression.next_after(wall).replace(tzinfo=self.tz)

    def __repr__(self) -> str:
        return f"CronSchedule({str(self.expression)!r}, tz={str(self.tz)!r})"


class IntervalSchedule(Schedule):
    """Runs every ``every`` seconds.

    :param every: the interval, in seconds or as a ``timedelta``
    :type every: float or datetime.timedelta
    :param tz: the zone :meth:`next_run` reports its results in
    :type tz: str or datetime.tzinfo
    :raises ValueError: if the interval is not positive
    """

    def __init__(self, every: float | timedelta, tz: str | tzinfo | None = None) -> None:
        self.every = every if isinstance(every, timedelta) else timedelta(seconds=every)
        if self.every <= timedelta(0):
            raise ValueError("an interval must be positive")
        self.tz = resolve_zone(tz)

    def next_run(self, after: datetime) -> datetime:
        """``after`` plus the interval.

        :param after: the reference moment; must be aware
        :type after: datetime.datetime
        :rtype: datetime.datetime
        :raises ValueError: if ``after`` is naive
        """
        if after.tzinfo is None:
            raise ValueError("IntervalSchedule needs an aware datetime")
        return after.astimezone(self.tz) + self.every

    def __repr__(self) -> str:
        return f"IntervalSchedule({self.every.total_seconds()!r}, tz={str(self.tz)!r})"
