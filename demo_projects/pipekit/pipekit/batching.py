"""Grouping records into batches for sinks that prefer bulk writes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pipekit.clock import Clock, SystemClock
from pipekit.config import DEFAULT_BATCH_SIZE, DEFAULT_MAX_WAIT
from pipekit.records import Record


class Batcher:
    """Group records into lists of at most ``size``.

    Args:
        size: Largest batch, in records.
        max_wait: Seconds a partial batch may wait for more records before it
            is emitted anyway.
        clock: Where the time comes from; the system clock by default.

    Raises:
        ValueError: If ``size`` is smaller than 1.
    """

    def __init__(
        self, size: int = DEFAULT_BATCH_SIZE, max_wait: float = DEFAULT_MAX_WAIT, clock: Clock | None = None
    ) -> None:
        if size < 1:
            raise ValueError(f"batch size must be at least 1, got {size}")
        self.size = size
        self.max_wait = max_wait
        self.clock = clock or SystemClock()

    def batches(self, records: Iterable[Record]) -> Iterator[list[Record]]:
        """Split ``records`` into batches.

        Yields:
            list[Record]: Full batches, in input order. The final partial batch is dropped.
        """
        batch: list[Record] = []
        started = self.clock.now()
        for record in records:
            if not batch:
                started = self.clock.now()
            batch.append(record)
            if len(batch) >= self.size or self.clock.now() - started >= self.max_wait:
                yield batch
                batch = []
        if batch:
            yield batch
