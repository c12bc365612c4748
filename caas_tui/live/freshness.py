"""Verdict freshness after a refresh: the verdicts on the files a refresh changed are
checked by the staleness engine beside the verdict store
(``caas_tui.review.decisions.staleness``); those out of date turn ``stale`` and the
watcher reports which. This module only decides *when* to check and *which* files.
"""

from __future__ import annotations

import sqlite3

from caas_tui.errors import CaasError
from caas_tui.index.refreshstats import RefreshStats
from caas_tui.retrieve.engine import Engine
from caas_tui.review.decisions import StaleVerdict, VerdictStore, update_staleness


def mark_stale(engine: Engine, stats: RefreshStats) -> tuple[StaleVerdict, ...]:
    """After a refresh: move verdicts whose claims moved and mark out-of-date verdicts on
    the changed files stale; the ones newly marked."""
    changed = {*stats.added, *stats.changed, *stats.removed}
    if not changed and not stats.rebuilt:
        return ()
    store = VerdictStore.open_existing(engine.cfg)
    if store is None:
        return ()
    try:
        stale = update_staleness(engine, store, None if stats.rebuilt else changed)
    except sqlite3.Error as exc:  # e.g. locked by a review writing for longer than the busy timeout
        raise CaasError(f"verdict store: {exc}") from exc
    finally:
        store.close()
    return tuple(stale)
