from datetime import datetime

import pytest
from taskloom import CronSyntaxError, parse_cron


def test_steps_ranges_and_lists():
    expr = parse_cron("*/15 9-17/4 * * MON-FRI")
    assert expr.minutes == {0, 15, 30, 45}
    assert expr.hours == {9, 13, 17}
    assert expr.weekdays == {1, 2, 3, 4, 5}


def test_seven_is_sunday():
    assert parse_cron("0 0 * * 7").weekdays == {0}


def test_aliases():
    assert parse_cron("@daily").text == "@daily"
    assert parse_cron("@daily").hours == {0}
    with pytest.raises(CronSyntaxError):
        parse_cron("@reboot")


@pytest.mark.parametrize("bad", ["* * * *", "60 * * * *", "* * 0 * *", "5-1 * * * *", "*/0 * * * *", "a * * * *"])
def test_rejects(bad):
    with pytest.raises(ValueError):
        parse_cron(bad)


def test_next_after_is_strictly_later():
    expr = parse_cron("30 9 * * *")
    assert expr.next_after(datetime(2026, 5, 4, 9, 30)) == datetime(2026, 5, 5, 9, 30)
    assert expr.next_after(datetime(2026, 5, 4, 9, 29, 59)) == datetime(2026, 5, 4, 9, 30)


def test_day_fields_are_ored_when_both_restricted():
    expr = parse_cron("0 0 13 * FRI")
    # 2026-02-06 is a Friday, 2026-02-13 is a Friday the 13th, 2026-03-13 is a Friday too.
    runs = []
    moment = datetime(2026, 2, 1)
    for _ in range(4):
        moment = expr.next_after(moment)
        runs.append(moment.date().isoformat())
    assert runs == ["2026-02-06", "2026-02-13", "2026-02-20", "2026-02-27"]
    assert expr.next_after(datetime(2026, 4, 10)).day == 13


def test_never_matching_expression():
    with pytest.raises(ValueError):
        parse_cron("0 0 30 2 *").next_after(datetime(2026, 1, 1))
