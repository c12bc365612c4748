"""An in-memory LRU cache of tile images.

Entries expire ``ttl`` seconds after they were stored, measured with
:func:`time.monotonic` so that changes to the system clock cannot make
tiles look fresh or stale.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from .constants import DEFAULT_CACHE_ITEMS, DEFAULT_CACHE_TTL_S
from .errors import CacheMiss
from .tiles import Tile


class TileCache:
    """Least-recently-used tile store with expiry.

    Args:
        max_items: Tiles kept before the least recently used is evicted.
        ttl: Freshness period in seconds.
        clock: Source of the current time in seconds; tests pass a fake.

    Raises:
        ValueError: if ``max_items`` is less than 1 or ``ttl`` is negative.
    """

    def __init__(
        self,
        max_items: int = DEFAULT_CACHE_ITEMS,
        ttl: float = DEFAULT_CACHE_TTL_S,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_items < 1:
            raise ValueError(f"max_items must be at least 1, got {max_items}")
        if ttl < 0:
            raise ValueError(f"ttl must not be negative, got {ttl}")
        self.max_items = max_items
        self.ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[Tile, tuple[float, bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and self.get(tile) is not None

    def put(self, tile: Tile, data: bytes) -> None:
        """Store ``data`` for ``tile``, evicting the least recently used tile when full."""
        self._entries[tile] = (self._clock(), data)
        self._entries.move_to_end(tile)
        while len(self._entries) > self.max_items:
            self._entries.popitem(last=False)

    def get(self, tile: Tile) -> bytes | None:
        """The cached bytes for ``tile``.

        Returns:
            The bytes, or ``None`` if the tile is missing or expired (an expired entry is dropped).
        """
        entry = self._entries.get(tile)
        if entry is None:
            return None
        stored, data = entry
        if self._clock() - stored > self.ttl:
            del self._entries[tile]
            return None
        self._entries.move_to_end(tile)
        return data

    def fetch(self, tile: Tile) -> bytes:
        """Like :meth:`get`, but a miss is an error.

        Raises:
            CacheMiss: if the tile is missing or expired.
        """
        data = self.get(tile)
        if data is None:
            raise CacheMiss(tile)
        return data

    def evict_expired(self) -> int:
        """Drop every expired entry and return how many were dropped."""
        now = self._clock()
        stale = [t for t, (stored, _) in self._entries.items() if now - stored > self.ttl]
        for tile in stale:
            del self._entries[tile]
        return len(stale)

    def clear(self) -> None:
        """Remove every entry."""
        self._entries.clear()
