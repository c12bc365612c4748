"""Exposure logging: which variant each context was actually served.

Experiments need to know who saw what. :class:`ExposureLog` buffers one
:class:`Exposure` per recorded evaluation and hands batches to a *sink*
(any callable taking a list) when flushed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .context import Context
from .flags import Evaluation
from .hashing import in_rollout

Sink = Callable[[list["Exposure"]], None]


@dataclass(frozen=True)
class Exposure:
    """One served variant."""

    flag_key: str
    variant: str
    context_key: str
    reason: str
    at: float


class ExposureLog:
    """Buffer exposures and pass them to ``sink`` in batches.

    Parameters
    ----------
    capacity : int, optional
        Largest number of buffered exposures. When the buffer is full the
        oldest exposure is dropped and counted in :attr:`dropped`.
    sample_percent : float, optional
        Percentage (0-100) of contexts whose exposures are kept. Sampling is
        by context key, so a context is either always or never sampled.
    sink : callable, optional
        Receives each flushed batch. Without a sink, :meth:`flush` discards.
    clock : callable, optional
        Wall-clock time source in seconds since the epoch.
    """

    def __init__(
        self,
        capacity: int = 500,
        *,
        sample_percent: float = 100.0,
        sink: Sink | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.sample_percent = sample_percent
        self.sink = sink
        self._clock = clock
        self._buffer: deque[Exposure] = deque()
        self.dropped = 0

    def record(self, evaluation: Evaluation, context: Context) -> bool:
        """Buffer the exposure of ``context`` to ``evaluation``.

        Returns
        -------
        bool
            Whether the exposure was kept; ``False`` when the context is
            outside the sample or the evaluation was an override.
        """
        if evaluation.reason == "override":
            return False
        if not in_rollout("exposure-sample", context.key, self.sample_percent):
            return False
        if len(self._buffer) >= self.capacity:
            self._buffer.popleft()
            self.dropped += 1
        self._buffer.append(
            Exposure(evaluation.flag_key, evaluation.variant, context.key, evaluation.reason, self._clock())
        )
        return True

    def pending(self) -> int:
        """Number of buffered exposures."""
        return len(self._buffer)

    def flush(self) -> int:
        """Send the buffered exposures to the sink and empty the buffer.

        Returns
        -------
        int
            Number of exposures flushed. If the sink raises, the exception
            propagates and the buffer is left as it was.
        """
        batch = list(self._buffer)
        if batch and self.sink is not None:
            self.sink(batch)
        self._buffer.clear()
        return len(batch)
