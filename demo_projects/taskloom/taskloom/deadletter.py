"""The dead-letter queue: where jobs go when they run out of attempts.

A :class:`DeadLetterQueue` is a bounded, in-memory record of failed jobs with the
error that finished them.  Inspect it, :meth:`~DeadLetterQueue.drain` it into your
own storage, or :meth:`~DeadLetterQueue.replay` the jobs into a queue once the
cause is fixed.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from .clock import WallClock, utcnow
from .constants import DEFAULT_DLQ_CAPACITY
from .job import Job, JobState
from .queue import JobQueue


@dataclass(frozen=True)
class DeadLetter:
    """One failed job.

    :param job: the job, in state ``DEAD``
    :param error: the exception of its last run
    :param attempts: how many runs it had
    :param failed_at: when it was declared dead
    """

    job: Job
    error: BaseException
    attempts: int
    failed_at: datetime


class DeadLetterQueue:
    """A bounded record of dead jobs, oldest first.

    :param capacity: the most letters kept
    :type capacity: int
    :param now: wall clock used to stamp letters
    """

    def __init__(self, capacity: int = DEFAULT_DLQ_CAPACITY, *, now: WallClock = utcnow) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._now = now
        self._letters: deque[DeadLetter] = deque(maxlen=capacity)
        self._lock = threading.Lock()

    def add(self, job: Job, error: BaseException) -> DeadLetter:
        """Record ``job`` as dead.

        :param job: the failed job
        :type job: Job
        :param error: the exception of its last run
        :returns: the new letter
        :rtype: DeadLetter
        """
        job.state = JobState.DEAD
        letter = DeadLetter(job=job, error=error, attempts=job.attempts, failed_at=self._now())
        with self._lock:
            self._letters.append(letter)
        return letter

    def get(self, job_id: str) -> DeadLetter | None:
        """The letter of the job with id ``job_id``, if it is still kept.

        :param job_id: the job's id
        :type job_id: str
        :rtype: DeadLetter or None
        """
        with self._lock:
            return next((letter for letter in self._letters if letter.job.job_id == job_id), None)

    def drain(self) -> list[DeadLetter]:
        """Remove and return every letter, oldest first.

        :rtype: list[DeadLetter]
        """
        with self._lock:
            letters = list(self._letters)
            self._letters.clear()
        return letters

    def replay(self, queue: JobQueue, *, reset_attempts: bool = True) -> int:
        """Put every dead job back into ``queue`` and forget it here.

        :param queue: where the jobs go
        :type queue: JobQueue
        :param reset_attempts: give each job a fresh attempt budget
        :type reset_attempts: bool
        :returns: how many jobs were re-queued
        :rtype: int
        :raises QueueClosed: if ``queue`` is closed; the letters not yet re-queued stay here
        """
        count = 0
        while True:
            with self._lock:
                if not self._letters:
                    return count
                letter = self._letters[0]
            job = letter.job
            job.state = JobState.PENDING
            job.last_error = None
            if reset_attempts:
                job.attempts = 0
            try:
                queue.put(job, block=False)
            except Exception:
                job.state = JobState.DEAD
                raise
            with self._lock:
                if self._letters and self._letters[0] is letter:
                    self._letters.popleft()
            count += 1

    def __len__(self) -> int:
        with self._lock:
            return len(self._letters)

    def __iter__(self) -> Iterator[DeadLetter]:
        with self._lock:
            return iter(list(self._letters))
