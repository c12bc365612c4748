from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from taskloom import CronSchedule, IntervalSchedule

NEW_YORK = ZoneInfo("America/New_York")
UTC = UTC


def test_cron_reads_hours_in_its_zone():
    sched = CronSchedule("0 9 * * *", tz="Europe/Paris")
    nxt = sched.next_run(datetime(2026, 7, 1, 12, 0, tzinfo=UTC))
    assert nxt.astimezone(UTC) == datetime(2026, 7, 2, 7, 0, tzinfo=UTC)


def test_spring_forward_gap_runs_an_hour_late():
    sched = CronSchedule("30 2 * * *", tz=NEW_YORK)
    nxt = sched.next_run(datetime(2024, 3, 9, 12, 0, tzinfo=NEW_YORK))
    assert nxt.astimezone(UTC) == datetime(2024, 3, 10, 7, 30, tzinfo=UTC)  # 03:30 EDT


def test_fall_back_hourly_skips_the_repeated_hour():
    sched = CronSchedule("30 * * * *", tz=NEW_YORK)
    first = sched.next_run(datetime(2024, 11, 3, 5, 0, tzinfo=UTC))
    second = sched.next_run(first)
    assert first.astimezone(UTC) == datetime(2024, 11, 3, 5, 30, tzinfo=UTC)
    assert second.astimezone(UTC) == datetime(2024, 11, 3, 7, 30, tzinfo=UTC)


def test_naive_after_is_read_in_the_schedule_zone():
    sched = CronSchedule("0 * * * *", tz="Asia/Tokyo")
    nxt = sched.next_run(datetime(2026, 1, 1, 10, 15))
    assert nxt == datetime(2026, 1, 1, 11, 0, tzinfo=ZoneInfo("Asia/Tokyo"))


def test_interval_is_wall_clock_in_its_zone():
    berlin = ZoneInfo("Europe/Berlin")
    sched = IntervalSchedule(timedelta(days=1), tz=berlin)
    start = datetime(2024, 3, 30, 9, 0, tzinfo=berlin)
    nxt = sched.next_run(start)
    assert nxt.hour == 9
    assert nxt.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=23)


def test_interval_needs_aware_time():
    with pytest.raises(ValueError):
        IntervalSchedule(60).next_run(datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        IntervalSchedule(0)
