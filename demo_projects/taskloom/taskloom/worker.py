"""Worker pools: threads that take jobs from a queue and run them.

Each worker runs one job at a time.  When a job raises, the pool asks its
:class:`~taskloom.retry.RetryPolicy` whether to try again; a job that may not is
handed to the pool's :class:`~taskloom.deadletter.DeadLetterQueue`, or marked
``FAILED`` when the pool has none.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable

from .constants import DEFAULT_POLL_INTERVAL, DEFAULT_SHUTDOWN_TIMEOUT, DEFAULT_WORKERS
from .deadletter import DeadLetterQueue
from .errors import PoolStateError, QueueClosed
from .job import Job, JobState
from .queue import JobQueue
from .ratelimit import TokenBucket
from .retry import RetryPolicy

log = logging.getLogger("taskloom.worker")

EventHook = Callable[[str, Job], None]
EVENTS = ("started", "succeeded", "retrying", "dead", "failed")


class WorkerPool:
    """Runs the jobs of one queue on a fixed number of threads.

    :param queue: the queue to drain
    :type queue: JobQueue
    :param workers: number of worker threads
    :type workers: int
    :param retry: the retry policy; defaults to ``RetryPolicy()``
    :type retry: RetryPolicy or None
    :param dead_letters: where jobs go once they may not be retried
    :type dead_letters: DeadLetterQueue or None
    :param rate_limit: a bucket each job takes one token from before it runs
    :type rate_limit: TokenBucket or None
    :param poll_interval: seconds an idle worker waits on the queue before it
        checks whether the pool is shutting down
    :type poll_interval: float
    :param on_event: the logger name events are reported to
    :type on_event: callable or None

    When the rate limit is exhausted, jobs are dropped rather than queued up
    behind the bucket.
    """

    def __init__(
        self,
        queue: JobQueue,
        *,
        workers: int = DEFAULT_WORKERS,
        retry: RetryPolicy | None = None,
        dead_letters: DeadLetterQueue | None = None,
        rate_limit: TokenBucket | None = None,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        on_event: EventHook | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.queue = queue
        self.workers = workers
        self.retry = retry or RetryPolicy()
        self.dead_letters = dead_letters
        self.rate_limit = rate_limit
        self.poll_interval = poll_interval
        self._on_event = on_event
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._started = False
        self._counts: Counter[str] = Counter()
        self._counts_lock = threading.Lock()

    # -- lifecycle -------------------------------------------------------
    def start(self) -> None:
        """Start the worker threads.

        :raises PoolStateError: if the pool was already started
        """
        if self._started:
            raise PoolStateError("the pool was already started")
        self._started = True
        for index in range(self.workers):
            thread = threading.Thread(target=self._loop, name=f"taskloom-worker-{index}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def shutdown(self, wait: bool = True, timeout: float | None = DEFAULT_SHUTDOWN_TIMEOUT) -> None:
        """Stop the workers.

        Each worker finishes the job it is running and exits; jobs still in the
        queue stay there for another pool to take.

        :param wait: wait for the threads to exit
        :type wait: bool
        :param timeout: how long to wait for each thread, in seconds
        :type timeout: float or None
        """
        self._stop.set()
        if wait:
            for thread in self._threads:
                thread.join(timeout)

    @property
    def running(self) -> bool:
        """Whether any worker thread is alive.

        :rtype: bool
        """
        return any(thread.is_alive() for thread in self._threads)

    def __enter__(self) -> WorkerPool:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    # -- running jobs ----------------------------------------------------
    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                job = self.queue.get(timeout=self.poll_interval)
            except QueueClosed:
                return
            if job is not None:
                self.execute(job)

    def run_pending(self) -> int:
        """Run every job that is ready now, in the calling thread.

        Meant for tests and scripts: no threads are started.  Jobs deferred for a
        retry are not ready until the queue's clock reaches them.

        :returns: how many jobs were run
        :rtype: int
        """
        count = 0
        while True:
            try:
                job = self.queue.get_nowait()
            except QueueClosed:
                return count
            if job is None:
                return count
            self.execute(job)
            count += 1

    def execute(self, job: Job) -> None:
        """Run one job now and apply the retry policy to its outcome.

        :param job: the job; it should not be in the queue
        :type job: Job
        """
        if self.rate_limit is not None:
            self.rate_limit.acquire()
        self._emit("started", job)
        try:
            job.result = job.run()
        except Exception as error:
            job.last_error = error
            self._failed(job, error)
        else:
            job.state = JobState.SUCCEEDED
            self._emit("succeeded", job)

    def _failed(self, job: Job, error: Exception) -> None:
        limit = job.max_attempts if job.max_attempts is not None else self.retry.max_attempts
        policy = self.retry.with_max_attempts(limit)
        if policy.should_retry(error, job.attempts):
            job.state = JobState.RETRYING
            try:
                self.queue.defer(job, policy.next_delay(job.attempts))
            except QueueClosed:
                log.warning("queue closed; job %s cannot be retried", job.name)
            else:
                self._emit("retrying", job)
                return
        if self.dead_letters is not None:
            self.dead_letters.add(job, error)
            self._emit("dead", job)
        else:
            job.state = JobState.FAILED
            self._emit("failed", job)

    def _emit(self, event: str, job: Job) -> None:
        with self._counts_lock:
            self._counts[event] += 1
        if self._on_event is None:
            return
        try:
            self._on_event(event, job)
        except Exception:
            # A broken hook must not take the worker thread down with it.
            log.exception("on_event hook failed for %s", event)

    def stats(self) -> dict[str, int]:
        """How many times each event happened, for every event in ``EVENTS``.

        :rtype: dict[str, int]
        """
        with self._counts_lock:
            return {event: self._counts[event] for event in EVENTS}
