"""Cron expressions.

The five-field syntax of Vixie cron: ``minute hour day-of-month month day-of-week``.
Each field takes ``*``, a number, a range ``a-b``, a list ``a,b,c`` and a step
``*/n`` or ``a-b/n``; months and weekdays also take three-letter English names.
The ``@hourly``-style aliases are understood, except ``@reboot`` which has no
meaning for a scheduler that is not the system's.

Times are wall-clock times without a zone; :class:`taskloom.schedule.CronSchedule`
attaches the zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .errors import CronSyntaxError

MONTH_NAMES = {
    name: number
    for number, name in enumerate(
        ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"], start=1
    )
}
WEEKDAY_NAMES = {name: number for number, name in enumerate(["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"])}

ALIASES = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}

# (low, high, names) of each field, in expression order.
_FIELDS = (
    ("minute", 0, 59, {}),
    ("hour", 0, 23, {}),
    ("day of month", 1, 31, {}),
    ("month", 1, 12, MONTH_NAMES),
    ("day of week", 0, 7, WEEKDAY_NAMES),
)

# Bounds the search in next_after: an expression that matches at all matches
# within this many days (29 February recurs at least every 8 years).
_SEARCH_DAYS = 366 * 8 + 2


def _value(text: str, expression: str, label: str, names: dict[str, int]) -> int:
    upper = text.upper()
    if upper in names:
        return names[upper]
    if not text.isdigit():
        raise CronSyntaxError(expression, f"{text!r} is not a valid {label}")
    return int(text)


def _parse_field(text: str, expression: str, index: int) -> tuple[frozenset[int], bool]:
    """Values of one field, and whether the field was restricted (not ``*``)."""
    label, low, high, names = _FIELDS[index]
    values: set[int] = set()
    for part in text.split(","):
        if not part:
            raise CronSyntaxError(expression, f"empty list item in the {label} field")
        base, _, step_text = part.partition("/")
        step = 1
        if step_text:
            if not step_text.isdigit() or int(step_text) == 0:
                raise CronSyntaxError(expression, f"bad step {step_text!r} in the {label} field")
            step = int(step_text)
        if base == "*":
            start, stop = low, high
        elif "-" in base:
            first, _, last = base.partition("-")
            start = _value(first, expression, label, names)
            stop = _value(last, expression, label, names)
        else:
            start = _value(base, expression, label, names)
            stop = high if step_text else start
        if not (low <= start <= high and low <= stop <= high):
            raise CronSyntaxError(expression, f"{part!r} is outside {low}-{high} in the {label} field")
        if start > stop:
            raise CronSyntaxError(expression, f"range {part!r} runs backwards")
        values.update(range(start, stop + 1, step))
    if index == 4 and 7 in values:
        # 7 is an alias of Sunday, as in Vixie cron.
        values.discard(7)
        values.add(0)
    return frozenset(values), not text.startswith("*")


@dataclass(frozen=True)
class CronExpression:
    """A parsed cron expression.

    Build one with :func:`parse_cron` (or :meth:`parse`), not by hand.
    """

    text: str
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]
    days_restricted: bool
    weekdays_restricted: bool

    @classmethod
    def parse(cls, text: str) -> CronExpression:
        """Parse ``text``.

        :param text: five fields separated by whitespace, or an ``@`` alias
        :type text: str
        :rtype: CronExpression
        :raises CronSyntaxError: if the expression is malformed or out of range
        """
        source = text.strip()
        expanded = ALIASES.get(source.lower(), source)
        if expanded.startswith("@"):
            raise CronSyntaxError(text, f"unsupported alias {source!r}")
        fields = expanded.split()
        if len(fields) != 5:
            raise CronSyntaxError(text, f"expected 5 fields, found {len(fields)}")
        parsed = [_parse_field(field, text, i) for i, field in enumerate(fields)]
        return cls(
            text=source,
            minutes=parsed[0][0],
            hours=parsed[1][0],
            days=parsed[2][0],
            months=parsed[3][0],
            weekdays=parsed[4][0],
            days_restricted=parsed[2][1],
            weekdays_restricted=parsed[4][1],
        )

    def _day_matches(self, moment: datetime) -> bool:
        # Cron numbers weekdays from Sunday = 0; datetime.weekday() from Monday = 0.
        weekday = (moment.weekday() + 1) % 7
        in_days = moment.day in self.days
        in_weekdays = weekday in self.weekdays
        if self.days_restricted and self.weekdays_restricted:
            # Vixie cron: when both day fields are restricted, either one may match.
            return in_days or in_weekdays
        return in_days and in_weekdays

    def matches(self, moment: datetime) -> bool:
        """Whether the minute containing ``moment`` is one of the expression's.

        :param moment: a wall-clock time; its ``tzinfo`` is ignored
        :type moment: datetime.datetime
        :rtype: bool
        """
        return (
            moment.minute in self.minutes
            and moment.hour in self.hours
            and moment.month in self.months
            and self._day_matches(moment)
        )

    def next_after(self, moment: datetime) -> datetime:
        """The first matching minute strictly after ``moment``.

        :param moment: a naive wall-clock time
        :type moment: datetime.datetime
        :returns: a naive datetime with zero seconds and microseconds
        :rtype: datetime.datetime
        :raises ValueError: if the expression can never match (``0 0 30 2 *``)
        """
        candidate = datetime(moment.year, moment.month, moment.day, moment.hour, moment.minute) + timedelta(
            minutes=1
        )
        limit = candidate + timedelta(days=_SEARCH_DAYS)
        while candidate < limit:
            if candidate.month not in self.months:
                year, month = divmod(candidate.month, 12)
                candidate = datetime(candidate.year + year, month + 1, 1)
                continue
            if not self._day_matches(candidate):
                candidate = datetime(candidate.year, candidate.month, candidate.day) + timedelta(days=1)
                continue
            if candidate.hour not in self.hours:
                candidate = candidate.replace(minute=0) + timedelta(hours=1)
                continue
            if candidate.minute not in self.minutes:
                candidate += timedelta(minutes=1)
                continue
            return candidate
        raise ValueError(f"cron expression {self.text!r} never matches")

    def __str__(self) -> str:
        return self.text


def parse_cron(text: str) -> CronExpression:
    """Parse a cron expression.

    :param text: the expression, e.g. ``"*/15 9-17 * * MON-FRI"``
    :type text: str
    :returns: the parsed expression
    :rtype: CronExpression
    :raises CronSyntaxError: if ``text`` is not a valid expression
    """
    return CronExpression.parse(text)
