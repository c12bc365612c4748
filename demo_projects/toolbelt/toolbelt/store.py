"""In-memory flag storage."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

from .errors import FlagNotFound
from .flags import Flag


class FlagStore:
    """A thread-safe mapping of flag key to :class:`~toolbelt.flags.Flag`.

    Every change bumps :attr:`version`, which clients use to invalidate
    their caches.

    Parameters
    ----------
    flags : iterable of Flag, optional
        Initial content. A later flag replaces an earlier one with the same key.
    """

    def __init__(self, flags: Iterable[Flag] = ()) -> None:
        self._lock = threading.RLock()
        self._flags: dict[str, Flag] = {f.key: f for f in flags}
        self.version = 0

    def get(self, key: str) -> Flag | None:
        """Return the flag called ``key``, or ``None`` if there is none."""
        with self._lock:
            return self._flags.get(key)

    def require(self, key: str) -> Flag:
        """Return the flag called ``key``.

        Raises
        ------
        FlagNotFound
            If the store has no such flag.
        """
        flag = self.get(key)
        if flag is None:
            raise FlagNotFound(key)
        return flag

    def put(self, flag: Flag) -> Flag | None:
        """Store ``flag`` and return the flag it replaced, if any."""
        with self._lock:
            previous = self._flags.get(flag.key)
            self._flags[flag.key] = flag
            self.version += 1
            return previous

    def remove(self, key: str) -> bool:
        """Delete flag ``key``; return whether it was present."""
        with self._lock:
            if key not in self._flags:
                return False
            del self._flags[key]
            self.version += 1
            return True

    def replace_all(self, flags: Iterable[Flag]) -> int:
        """Swap the whole content for ``flags`` in one step; return the new size."""
        fresh = {f.key: f for f in flags}
        with self._lock:
            self._flags = fresh
            self.version += 1
            return len(fresh)

    def keys(self) -> list[str]:
        """Return the flag keys in sorted order."""
        with self._lock:
            return sorted(self._flags)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._flags

    def __len__(self) -> int:
        with self._lock:
            return len(self._flags)

    def __iter__(self) -> Iterator[Flag]:
        with self._lock:
            return iter([self._flags[k] for k in sorted(self._flags)])
