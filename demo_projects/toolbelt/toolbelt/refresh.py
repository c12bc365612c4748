"""Keep a :class:`~toolbelt.store.FlagStore` in step with a remote source.

A *source* is any callable returning an iterable of flags, for instance
``lambda: load_json("flags.json")``. The refresher never runs a thread of its
own: call :meth:`Refresher.maybe_refresh` from your event loop or request hook,
or hand the refresher to :func:`poll_forever` to block a worker thread on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .errors import SourceError
from .flags import Flag
from .loader import load_json
from .settings import DEFAULT_REFRESH_INTERVAL, DEFAULT_STALE_AFTER, MIN_REFRESH_INTERVAL
from .store import FlagStore

Source = Callable[[], Iterable[Flag]]


def json_file_source(path: str | Path) -> Source:
    """Return a source that re-reads the JSON flag file at ``path`` on each call."""
    return lambda: load_json(path)


class Refresher:
    """Poll ``source`` and load its flags into ``store``.

    Parameters
    ----------
    store : FlagStore
        Receives the flags.
    source : callable
        Returns the current flags.
    interval : float, optional
        Seconds between polls; values below
        :data:`~toolbelt.settings.MIN_REFRESH_INTERVAL` are raised to it.
    stale_after : float, optional
        Seconds without a successful poll after which :attr:`stale` is true.
    clock : callable, optional
        Time source in seconds.
    """

    def __init__(
        self,
        store: FlagStore,
        source: Source,
        *,
        interval: float = DEFAULT_REFRESH_INTERVAL,
        stale_after: float = DEFAULT_STALE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.source = source
        self.interval = max(float(interval), MIN_REFRESH_INTERVAL)
        self.stale_after = float(stale_after)
        self._clock = clock
        self.last_attempt: float | None = None
        self.last_success: float | None = None
        self.last_error: SourceError | None = None
        self.failures = 0

    def refresh(self) -> bool:
        """Poll the source now.

        Returns
        -------
        bool
            ``True`` if the store was updated. A failing source is not
            re-raised: the error is kept in :attr:`last_error`, the store keeps
            its flags and ``False`` is returned.
        """
        self.last_attempt = self._clock()
        try:
            flags = list(self.source())
        except Exception as exc:  # a broken source must not take the application down
            self.last_error = SourceError(f"{type(exc).__name__}: {exc}")
            self.failures += 1
            return False
        self.store.replace_all(flags)
        self.last_success = self.last_attempt
        self.last_error = None
        return True

    def due(self) -> bool:
        """Return whether :attr:`interval` has passed since the last attempt."""
        return self.last_attempt is None or self._clock() - self.last_attempt >= self.interval

    def maybe_refresh(self) -> bool | None:
        """Refresh if due; ``None`` when it was not due, else what :meth:`refresh` returned."""
        if not self.due():
            return None
        return self.refresh()

    def next_refresh_in(self) -> float:
        """Seconds until the next poll is due (``0.0`` if it is due now)."""
        if self.last_attempt is None:
            return 0.0
        return max(0.0, self.interval - (self._clock() - self.last_attempt))

    @property
    def stale(self) -> bool:
        """True if no poll succeeded within :attr:`stale_after` seconds (or ever)."""
        if self.last_success is None:
            return True
        return self._clock() - self.last_success > self.stale_after
