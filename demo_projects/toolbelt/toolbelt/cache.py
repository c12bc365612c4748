"""A small time-to-live cache for evaluation results."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from .settings import DEFAULT_CACHE_SIZE, DEFAULT_CACHE_TTL


class TTLCache:
    """Remember values for ``ttl`` seconds.

    Parameters
    ----------
    ttl : float, optional
        Lifetime of an entry in seconds. ``0`` disables caching: :meth:`get`
        then always misses.
    maxsize : int, optional
        Number of entries kept; when full, the least recently used entry is evicted.
    clock : callable, optional
        Returns the current time in seconds. Defaults to :func:`time.monotonic`.

    Raises
    ------
    ValueError
        If ``ttl`` is negative or ``maxsize`` is smaller than 1.
    """

    def __init__(
        self,
        ttl: float = DEFAULT_CACHE_TTL,
        *,
        maxsize: int = DEFAULT_CACHE_SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl < 0:
            raise ValueError("ttl must not be negative")
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.ttl = float(ttl)
        self.maxsize = maxsize
        self._clock = clock
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        """Return the cached value for ``key``, or ``None`` when absent or expired."""
        entry = self._entries.get(key)
        if entry is None or self._clock() >= entry[0]:
            if entry is not None:
                del self._entries[key]
            self.misses += 1
            return None
        self.hits += 1
        return entry[1]

    def set(self, key: Hashable, value: Any) -> None:
        """Cache ``value`` under ``key`` for :attr:`ttl` seconds."""
        if self.ttl == 0:
            return
        self._entries.pop(key, None)
        while len(self._entries) >= self.maxsize:
            self._entries.popitem(last=False)
        self._entries[key] = (self._clock() + self.ttl, value)

    def clear(self) -> int:
        """Drop every entry and return how many there were."""
        count = len(self._entries)
        self._entries.clear()
        return count

    def __len__(self) -> int:
        return len(self._entries)
