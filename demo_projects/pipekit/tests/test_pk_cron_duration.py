"""Cron schedules and ISO 8601 durations."""

from datetime import datetime

import pytest
from pipekit import CronSchedule, CronSyntaxError, DurationError, parse_duration


def test_step_starts_at_zero():
    assert sorted(CronSchedule.parse("*/15 * * * *").minutes) == [0, 15, 30, 45]


def test_zero_and_seven_are_sunday():
    assert CronSchedule.parse("0 0 * * 7").weekdays == CronSchedule.parse("0 0 * * 0").weekdays == {0}


def test_weekday_one_is_monday():
    schedule = CronSchedule.parse("0 9 * * 1")
    assert schedule.next_after(datetime(2026, 12, 1, 10, 0)) == datetime(2026, 12, 7, 9, 0)  # a Monday


def test_day_of_month_or_day_of_week():
    schedule = CronSchedule.parse("0 0 13 * 5")
    assert schedule.matches(datetime(2026, 12, 13, 0, 0))  # a Sunday, the 13th
    assert schedule.matches(datetime(2026, 12, 4, 0, 0))  # a Friday


def test_next_after_is_strict():
    schedule = CronSchedule.parse("30 * * * *")
    assert schedule.next_after(datetime(2026, 1, 1, 8, 30)) == datetime(2026, 1, 1, 9, 30)


def test_bad_cron():
    with pytest.raises(CronSyntaxError):
        CronSchedule.parse("61 * * * *")
    with pytest.raises(CronSyntaxError):
        CronSchedule.parse("* * * *")


def test_durations():
    assert parse_duration("PT1M30S") == 90.0
    assert parse_duration("P1W") == 604800.0
    assert parse_duration("PT36H") == 36 * 3600
    assert parse_duration("PT0.5S") == 0.5


def test_months_and_years_are_rejected():
    for text in ("P1M", "P1Y", "5m"):
        with pytest.raises(DurationError):
            parse_duration(text)
    with pytest.raises(ValueError):
        parse_duration("P1Y")
