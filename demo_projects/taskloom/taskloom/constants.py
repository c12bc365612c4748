"""Tunable defaults shared by the taskloom modules.

Every default that more than one module needs lives here so that the queue, the
worker pool and the scheduler cannot drift apart.  Durations are in seconds.
"""

from __future__ import annotations

#: Total number of runs a job gets, the first one included.
DEFAULT_MAX_ATTEMPTS = 4

#: Delay before the first retry, in seconds.
DEFAULT_BASE_DELAY = 0.5

#: Growth factor between two consecutive retry delays.
DEFAULT_MULTIPLIER = 2.0

#: Upper bound of the exponential part of a retry delay, in seconds.
DEFAULT_MAX_DELAY = 120.0

#: Priorities are plain integers; the queue hands out the smallest first.
MIN_PRIORITY = 0
MAX_PRIORITY = 100
DEFAULT_PRIORITY = 50

#: Number of threads a WorkerPool starts when none is given.
DEFAULT_WORKERS = 4

#: How long an idle worker blocks on the queue before it re-checks for shutdown.
DEFAULT_POLL_INTERVAL = 0.2

#: Seconds WorkerPool.shutdown waits for a worker thread to finish its job.
DEFAULT_SHUTDOWN_TIMEOUT = 10.0

#: Tokens added to a TokenBucket per second.
DEFAULT_RATE = 5.0

#: Number of failed jobs a DeadLetterQueue keeps.
DEFAULT_DLQ_CAPACITY = 500

#: Zone used by Scheduler entries that do not name one.
DEFAULT_TIMEZONE = "UTC"
