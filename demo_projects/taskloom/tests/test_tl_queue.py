import threading

import pytest
from taskloom import Job, JobNotFound, JobQueue, QueueClosed, QueueFull


def noop():
    return None


def test_smallest_priority_first_then_fifo(queue):
    jobs = [Job(noop, priority=p, name=str(i)) for i, p in enumerate([50, 10, 50, 10, 90])]
    for job in jobs:
        queue.put(job)
    order = [queue.get_nowait().name for _ in jobs]
    assert order == ["1", "3", "0", "2", "4"]


def test_priority_is_clamped():
    assert Job(noop, priority=500).priority == 100
    assert Job(noop, priority=-3).priority == 0


def test_deferred_job_waits_for_the_clock(queue, clock):
    job = Job(noop)
    queue.defer(job, 5)
    assert queue.get_nowait() is None
    assert len(queue) == 1
    clock.advance(5)
    assert queue.get_nowait() is job


def test_get_times_out_with_none():
    assert JobQueue().get(timeout=0.01) is None


def test_bounded_put():
    q = JobQueue(maxsize=1)
    q.put(Job(noop))
    with pytest.raises(QueueFull):
        q.put(Job(noop), block=False)
    with pytest.raises(QueueFull):
        q.put(Job(noop), timeout=0.01)


def test_closed_queue(queue):
    queue.put(Job(noop))
    queue.close()
    with pytest.raises(QueueClosed):
        queue.put(Job(noop))
    assert queue.get_nowait() is not None
    with pytest.raises(QueueClosed):
        queue.get_nowait()


def test_remove(queue):
    job = Job(noop)
    queue.put(job)
    assert queue.remove(job.job_id) is job
    with pytest.raises(KeyError):
        queue.remove(job.job_id)
    with pytest.raises(JobNotFound):
        queue.remove("nope")


def test_cancelled_jobs_are_skipped(queue):
    first, second = Job(noop), Job(noop)
    queue.put(first)
    queue.put(second)
    assert first.cancel()
    assert len(queue) == 2
    assert queue.get_nowait() is second


def test_blocking_get_wakes_up_on_put():
    q = JobQueue()
    got = []
    thread = threading.Thread(target=lambda: got.append(q.get(timeout=5)))
    thread.start()
    job = Job(noop)
    q.put(job)
    thread.join(5)
    assert got == [job]
