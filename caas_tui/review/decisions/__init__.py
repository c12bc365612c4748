"""Decisions on verdicts: the durable store, staleness, and patches from accepted fixes.

``store.VerdictStore`` (rows encoded by ``codec``; ``relocate`` moves fixes with their
claims), ``staleness`` (the one engine that decides which verdicts no longer match the
files), ``patch`` (accepted fixes -> a diff or the docs, merged by ``fixmerge``).
"""

from caas_tui.review.decisions.codec import StoredVerdict
from caas_tui.review.decisions.patch import FixRequest, PatchResult, apply_fixes, build_patch, requests_from
from caas_tui.review.decisions.staleness import StaleVerdict, stale_verdicts
from caas_tui.review.decisions.staleness import update as update_staleness
from caas_tui.review.decisions.store import STORE_FILE, VerdictStore

__all__ = [
    "STORE_FILE", "FixRequest", "PatchResult", "StaleVerdict", "StoredVerdict", "VerdictStore", "apply_fixes",
    "build_patch", "requests_from", "stale_verdicts", "update_staleness",
]
