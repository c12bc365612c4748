import random

import pytest
from taskloom import ConstantBackoff, DeadLetterQueue, ExponentialBackoff, Job, JobState, RetryPolicy, WorkerPool


class Flaky:
    def __init__(self, failures, error=RuntimeError):
        self.failures = failures
        self.error = error
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error("boom")
        return "ok"


def test_exponential_defaults():
    backoff = ExponentialBackoff()
    assert [backoff.delay(n) for n in range(1, 5)] == [0.5, 1.0, 2.0, 4.0]
    with pytest.raises(ValueError):
        backoff.delay(0)


def test_jitter_is_added_after_the_cap():
    backoff = ExponentialBackoff(base=10, max_delay=10, jitter=0.5, rng=random.Random(1))
    delays = [backoff.delay(5) for _ in range(20)]
    assert all(10 <= d <= 15 for d in delays)
    assert max(delays) > 10


def test_max_attempts_counts_every_run(queue, clock):
    func = Flaky(failures=10)
    dead = DeadLetterQueue()
    pool = WorkerPool(queue, retry=RetryPolicy(max_attempts=3, backoff=ConstantBackoff(1)), dead_letters=dead)
    job = Job(func)
    queue.put(job)
    for _ in range(5):
        pool.run_pending()
        clock.advance(1)
    assert func.calls == 3
    assert job.state is JobState.DEAD
    assert dead.get(job.job_id).attempts == 3


def test_job_budget_overrides_policy(queue, clock):
    func = Flaky(failures=1)
    pool = WorkerPool(queue, retry=RetryPolicy(max_attempts=1))
    job = Job(func, max_attempts=2)
    queue.put(job)
    pool.run_pending()
    clock.advance(60)
    pool.run_pending()
    assert job.state is JobState.SUCCEEDED and job.result == "ok"


def test_give_up_on_wins():
    policy = RetryPolicy(retry_on=(ValueError,), give_up_on=(KeyError,))
    assert policy.should_retry(ValueError(), 1)
    assert not policy.should_retry(KeyError(), 1)
    assert not RetryPolicy(retry_on=(LookupError,), give_up_on=(KeyError,)).should_retry(KeyError(), 1)


def test_base_exceptions_escape(queue):
    def leave():
        raise SystemExit(3)

    pool = WorkerPool(queue)
    queue.put(Job(leave))
    with pytest.raises(SystemExit):
        pool.run_pending()


def test_without_dead_letters_the_job_fails(queue):
    pool = WorkerPool(queue, retry=RetryPolicy(max_attempts=1))
    job = Job(Flaky(failures=1))
    queue.put(job)
    pool.run_pending()
    assert job.state is JobState.FAILED
    assert pool.stats()["failed"] == 1
