import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from taskloom import DeadLetterQueue, Job, JobQueue, PoolStateError, RateLimited, Scheduler, TokenBucket, WorkerPool
from taskloom.clock import FakeClock


def test_threads_run_jobs_and_stop():
    q = JobQueue()
    done = threading.Event()
    events = []
    with WorkerPool(q, workers=2, poll_interval=0.01, on_event=lambda e, j: events.append(e)) as pool:
        q.put(Job(done.set))
        assert done.wait(5)
        with pytest.raises(PoolStateError):
            pool.start()
    assert not pool.running
    assert events[:2] == ["started", "succeeded"]
    assert all(t.daemon for t in pool._threads)


def test_shutdown_leaves_queued_jobs():
    q = JobQueue()
    pool = WorkerPool(q, workers=1, poll_interval=0.01)
    pool.start()
    pool.shutdown()
    q.put(Job(lambda: None))
    time.sleep(0.05)
    assert len(q) == 1


def test_bucket_starts_full_and_refills(clock):
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        clock.advance(seconds)

    bucket = TokenBucket(rate=2, clock=clock.monotonic, sleep=sleep)
    assert bucket.burst == 2
    assert bucket.acquire() == 0.0 and bucket.acquire() == 0.0
    assert bucket.acquire() == pytest.approx(0.5)
    assert slept == [pytest.approx(0.5)]
    with pytest.raises(RateLimited) as info:
        bucket.acquire(2, timeout=0.1)
    assert info.value.retry_after == pytest.approx(1.0)
    assert slept == [pytest.approx(0.5)]
    with pytest.raises(ValueError):
        bucket.acquire(3)


def test_dead_letter_queue_is_bounded_and_replays(queue):
    dlq = DeadLetterQueue(capacity=2)
    jobs = [Job(lambda: None, name=str(i)) for i in range(3)]
    for job in jobs:
        job.attempts = 4
        dlq.add(job, RuntimeError())
    assert [letter.job.name for letter in dlq] == ["1", "2"]
    assert dlq.get(jobs[0].job_id) is None
    assert dlq.replay(queue) == 2
    assert len(dlq) == 0 and jobs[1].attempts == 0


def test_scheduler_coalesces_missed_runs(queue):
    clock = FakeClock(datetime(2026, 3, 1, tzinfo=UTC))
    sched = Scheduler(queue, now=clock.now)
    entry = sched.every(60, print, "tick", name="ticker")
    assert entry.next_run == clock.now() + timedelta(seconds=60)
    clock.advance(600)
    assert len(sched.tick()) == 1
    assert entry.next_run == clock.now() + timedelta(seconds=60)
    assert sched.cancel("ticker") and not sched.cancel("ticker")


def test_scheduler_zone_default_is_utc(queue):
    sched = Scheduler(queue)
    entry = sched.cron("0 9 * * *", print)
    assert entry.next_run.utcoffset() == timedelta(0)
