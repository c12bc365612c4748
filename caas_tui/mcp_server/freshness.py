"""Keep answers current: refresh the index before a tool answers, but not on every call.

An agent edits files and asks again within seconds, so a stale index would hand it
the code it just replaced. ``Engine.refresh`` only redoes changed files, but even
its no-op (a directory walk and a stat per file) is too much for every call of a
burst, so checks are at least ``interval`` seconds apart. The lock makes a call that
arrives during a refresh wait for it rather than read a half-updated index or start
a second refresh.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from caas_tui.retrieve.engine import Engine

log = logging.getLogger(__name__)


class Freshness:
    def __init__(self, engine: Engine, interval: float = 2.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._last = clock()  # the engine was refreshed when it was opened
        self.checks = 0  # refreshes actually run (for tests and logs)

    def ensure(self) -> None:
        """Refresh the index if the last check is older than ``interval``.

        Raises what ``Engine.refresh`` raises (a ``CaasError`` for an unusable index);
        the time of the attempt is recorded either way so a broken index is not
        re-walked on every call.
        """
        with self._lock:
            if self._clock() - self._last < self.interval:
                return
            try:
                self.checks += 1
                stats = self.engine.refresh()
            finally:
                self._last = self._clock()
            if stats.changed_any:
                log.info(
                    "index refreshed: %d added, %d changed, %d removed (%.2fs)",
                    len(stats.added), len(stats.changed), len(stats.removed), stats.seconds,
                )
            for warning in stats.warnings:
                log.warning("%s", warning)
