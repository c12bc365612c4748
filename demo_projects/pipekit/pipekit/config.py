"""Library-wide defaults.

Durations are in seconds and sizes in records, everywhere in pipekit.
"""

from __future__ import annotations

#: Records per batch handed to a sink.
DEFAULT_BATCH_SIZE = 256

#: Seconds a partial batch may wait for more records before it is emitted anyway.
DEFAULT_MAX_WAIT = 2.0

#: Attempts per call, the first one included.
DEFAULT_MAX_ATTEMPTS = 4

#: Seconds before the first retry.
DEFAULT_BACKOFF = 0.5

#: Each retry waits this many times longer than the one before.
BACKOFF_FACTOR = 2.0

#: Upper bound of a single retry delay, in seconds.
MAX_BACKOFF = 60.0

#: Records between two checkpoint writes.
CHECKPOINT_EVERY = 1000

CSV_DELIMITER = ","
TEXT_ENCODING = "utf-8"
