"""live layer: watch the project, keep the index fresh, flag stale verdicts and drifting docs.

Front ends use ``watch_project`` (an async iterator of ``RefreshEvent``) and
``collect_status`` (the drift report); both sit on an open ``Engine``.

Names are imported on first use (PEP 562): ``review`` and ``status`` import
``caas_tui.live.changes`` / ``.status``, which runs this file, and must not pay
for the watcher and ``watchfiles``, which only ``watch`` and the app use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from caas_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from caas_tui.live.freshness import mark_stale
    from caas_tui.live.status import StatusReport, collect_status, usable_manifest
    from caas_tui.live.watcher import Refresher, RefreshEvent, watch_project
    from caas_tui.review.decisions import StaleVerdict, stale_verdicts

_HOMES = {
    "RefreshEvent": "caas_tui.live.watcher",
    "Refresher": "caas_tui.live.watcher",
    "watch_project": "caas_tui.live.watcher",
    "StatusReport": "caas_tui.live.status",
    "collect_status": "caas_tui.live.status",
    "usable_manifest": "caas_tui.live.status",
    "mark_stale": "caas_tui.live.freshness",
    "StaleVerdict": "caas_tui.review.decisions",
    "stale_verdicts": "caas_tui.review.decisions",
}

__all__ = [
    "RefreshEvent",
    "Refresher",
    "StaleVerdict",
    "StatusReport",
    "collect_status",
    "mark_stale",
    "stale_verdicts",
    "usable_manifest",
    "watch_project",
]


__getattr__ = lazy_exports(__name__, _HOMES, globals())
