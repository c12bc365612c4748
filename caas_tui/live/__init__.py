"""live layer: watch the project, keep the index fresh, flag stale verdicts and drifting docs.

Front ends use ``watch_project`` (an async iterator of ``RefreshEvent``) and
``collect_status`` (the drift report); both sit on an open ``Engine``.
"""

from caas_tui.live.freshness import mark_stale
from caas_tui.live.status import StatusReport, collect_status, usable_manifest
from caas_tui.live.watcher import Refresher, RefreshEvent, watch_project
from caas_tui.review.decisions import StaleVerdict, stale_verdicts

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
