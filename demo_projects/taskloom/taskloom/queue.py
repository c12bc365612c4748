"""The job queue.

:class:`JobQueue` is a thread-safe priority queue built on :mod:`heapq`.  The job
with the smallest ``priority`` value is handed out first; among equal priorities
the job that was put first leaves first.  Jobs deferred with :meth:`JobQueue.defer`
wait in a second heap, ordered by due time, until the clock reaches them.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable

from .errors import JobNotFound, QueueClosed, QueueFull
from .job import Job, JobState

_Entry = tuple[int, int, Job]
_Delayed = tuple[float, int, Job]


class JobQueue:
    """A bounded, thread-safe priority queue of jobs.

    :param maxsize: the most jobs the queue holds; ``0`` means unbounded
    :type maxsize: int
    :param clock: the monotonic clock deferred jobs are timed with
    :type clock: callable returning float
    """

    def __init__(self, maxsize: int = 0, *, clock: Callable[[], float] = time.monotonic) -> None:
        if maxsize < 0:
            raise ValueError("maxsize cannot be negative")
        self.maxsize = maxsize
        self.clock = clock
        self._ready: list[_Entry] = []
        self._delayed: list[_Delayed] = []
        self._seq = itertools.count()
        self._closed = False
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

    # -- producing -------------------------------------------------------
    def put(self, job: Job, *, block: bool = True, timeout: float | None = None) -> None:
        """Add a job.

        :param job: the job to enqueue
        :type job: Job
        :param block: wait for room when the queue is full
        :param timeout: the longest wait for room, in seconds; ``None`` waits forever
        :raises QueueClosed: if the queue was closed
        :raises QueueFull: if the queue is full and ``block`` is false, or stays full
            for ``timeout`` seconds
        """
        with self._changed:
            if self._closed:
                raise QueueClosed("the queue is closed")
            if self.maxsize and self._size() >= self.maxsize:
                if not block:
                    raise QueueFull(f"the queue holds {self.maxsize} jobs")
                if not self._changed.wait_for(lambda: self._closed or self._size() < self.maxsize, timeout):
                    raise QueueFull(f"the queue stayed full for {timeout}s")
                if self._closed:
                    raise QueueClosed("the queue is closed")
            job.not_before = 0.0
            heapq.heappush(self._ready, (job.priority, next(self._seq), job))
            self._changed.notify_all()

    def defer(self, job: Job, delay: float) -> None:
        """Put ``job`` back after ``delay`` seconds, ignoring ``maxsize``.

        Workers re-queue failed jobs with this; it never blocks, so a full queue
        cannot deadlock the pool that is draining it.

        :param job: the job to run later
        :param delay: seconds from now, on the queue's clock
        :type delay: float
        :raises QueueClosed: if the queue was closed
        """
        with self._changed:
            if self._closed:
                raise QueueClosed("the queue is closed")
            job.not_before = self.clock() + max(delay, 0.0)
            heapq.heappush(self._delayed, (job.not_before, next(self._seq), job))
            self._changed.notify_all()

    # -- consuming -------------------------------------------------------
    def _size(self) -> int:
        return len(self._ready) + len(self._delayed)

    def _promote(self) -> None:
        now = self.clock()
        while self._delayed and self._delayed[0][0] <= now:
            _, seq, job = heapq.heappop(self._delayed)
            heapq.heappush(self._ready, (job.priority, seq, job))

    def _pop_ready(self) -> Job | None:
        self._promote()
        while self._ready:
            _, _, job = heapq.heappop(self._ready)
            self._changed.notify_all()
            if job.state is JobState.CANCELLED:
                continue
            return job
        return None

    def get_nowait(self) -> Job | None:
        """The next ready job, without waiting.

        :returns: the job, or ``None`` if no job is ready
        :rtype: Job or None
        :raises QueueClosed: if the queue is closed and empty
        """
        with self._changed:
            job = self._pop_ready()
            if job is None and self._closed and not self._size():
                raise QueueClosed("the queue is closed and empty")
            return job

    def get(self, timeout: float | None = None) -> Job | None:
        """Wait for the next ready job.

        :param timeout: the longest wait, in seconds; ``None`` waits until a job is ready
        :type timeout: float or None
        :returns: the job with the smallest priority among the ready ones, or ``None``
            if the timeout expired first
        :rtype: Job or None
        :raises QueueClosed: if the queue is closed and empty
        """
        deadline = None if timeout is None else self.clock() + timeout
        with self._changed:
            while True:
                job = self._pop_ready()
                if job is not None:
                    return job
                if self._closed and not self._size():
                    raise QueueClosed("the queue is closed and empty")
                waits = []
                if deadline is not None:
                    remaining = deadline - self.clock()
                    if remaining <= 0:
                        return None
                    waits.append(remaining)
                if self._delayed:
                    waits.append(max(self._delayed[0][0] - self.clock(), 0.0))
                self._changed.wait(min(waits) if waits else None)

    # -- management ------------------------------------------------------
    def remove(self, job_id: str) -> Job:
        """Take a waiting job out of the queue.

        :param job_id: the id of the job
        :type job_id: str
        :returns: the removed job
        :rtype: Job
        :raises JobNotFound: if no waiting job has that id
        """
        with self._changed:
            for heap in (self._ready, self._delayed):
                for index, entry in enumerate(heap):
                    if entry[2].job_id == job_id:
                        heap[index] = heap[-1]
                        heap.pop()
                        heapq.heapify(heap)
                        self._changed.notify_all()
                        return entry[2]
        raise JobNotFound(job_id)

    def close(self) -> None:
        """Refuse further jobs.  Jobs already queued can still be taken out."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called.

        :rtype: bool
        """
        return self._closed

    def __len__(self) -> int:
        """Jobs waiting, ready or deferred; cancelled jobs count until they are reached."""
        with self._lock:
            return self._size()

    def snapshot(self) -> list[Job]:
        """The waiting jobs, ready ones first in the order they would leave.

        :rtype: list[Job]
        """
        with self._lock:
            ready = [entry[2] for entry in sorted(self._ready)]
            delayed = [entry[2] for entry in sorted(self._delayed)]
        return ready + delayed
