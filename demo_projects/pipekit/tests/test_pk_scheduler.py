"""The scheduler, on a manual clock."""

import pytest
from pipekit import DuplicateJobError, DurationError, Job, ManualClock, Scheduler


def test_every_uses_iso_durations(clock):
    scheduler = Scheduler(clock=clock)
    ran = []
    scheduler.every("PT5M", lambda: ran.append(clock.now()), name="tick")
    assert scheduler.run_pending() == 0
    clock.advance(300)
    assert scheduler.run_pending() == 1
    assert ran == [300.0]
    with pytest.raises(DurationError):
        scheduler.every("5m", lambda: None, name="bad")


def test_duplicate_name(clock):
    scheduler = Scheduler(clock=clock)
    scheduler.every("PT1M", lambda: None, name="a")
    with pytest.raises(DuplicateJobError):
        scheduler.every("PT1M", lambda: None, name="a")
    assert not issubclass(DuplicateJobError, ValueError)


def test_failing_job_gets_three_retries_then_is_disabled():
    clock = ManualClock()
    scheduler = Scheduler(clock=clock)
    attempts = []

    def broken():
        attempts.append(clock.now())
        raise OSError("down")

    job = scheduler.add(Job("broken", broken, interval=60.0), start_at=0.0)
    assert scheduler.run_pending() == 1
    assert len(attempts) == 4
    assert not job.enabled
    assert isinstance(job.last_error, OSError)


def test_cron_jobs_run_in_utc(clock):
    scheduler = Scheduler(clock=clock)
    job = scheduler.cron("0 * * * *", lambda: None, name="hourly")
    assert job.next_run == 3600.0


def test_manual_clock_cannot_go_back():
    with pytest.raises(ValueError):
        ManualClock().advance(-1)
