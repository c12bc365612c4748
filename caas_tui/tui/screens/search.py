"""Live search of the triage screen (a mixin: MainScreen owns the panes and routes the
query box's and filter chips' messages here)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.widgets import Input
from textual.worker import get_current_worker

from caas_tui.errors import CaasError
from caas_tui.models import Claim, Hit
from caas_tui.tui.widgets.evidence import HitPreview, HitTable
from caas_tui.tui.widgets.query import FilterBar

if TYPE_CHECKING:
    from caas_tui.tui.screens.main import MainScreen

    _Base = MainScreen
else:
    _Base = object

SEARCH_DEBOUNCE_S = 0.25
QUERY_CHARS = 300  # a claim pre-fills the query box with at most this much of its text


def without_own_lines(hits: list[Hit], span: tuple[str, int, int] | None) -> list[Hit]:
    """Drop the chunks holding the claim itself: a claim is no evidence for itself."""
    if span is None:
        return hits
    path, start, end = span
    kept = [h for h in hits if not (h.chunk.path == path and h.chunk.start_line <= end and start <= h.chunk.end_line)]
    return [replace(h, rank=i) for i, h in enumerate(kept, 1)]


class SearchActions(_Base):
    _prefill_span: tuple[str, int, int] | None = None

    def _prefill_query(self, claim: Claim) -> None:
        box = self.query_one("#query", Input)
        # A code block searches best by the names it uses; prose by its own words.
        if claim.kind == "code" and claim.symbols:
            text = " ".join(claim.symbols[:8])
        else:
            text = " ".join(claim.text.split())[:QUERY_CHARS]
        with box.prevent(Input.Changed):
            box.value = text
        box.cursor_position = 0
        self._prefilled = True
        self._prefill_span = (claim.doc_path, claim.start_line, claim.end_line)
        self.search(text, prefix_last=False)

    @work(exclusive=True, group="search", exit_on_error=False)
    async def search(
        self, query: str, *, prefix_last: bool, delay: float = SEARCH_DEBOUNCE_S, keep: str | None = None
    ) -> None:
        """Search and show the hits (``keep``: the chunk id to leave the cursor on, if still a hit)."""
        # Debounce: a newer keystroke starts a new worker, which cancels this one here.
        await asyncio.sleep(delay)
        if not self.session.ready:
            return
        filters = self.query_one(FilterBar)
        try:
            hits = await asyncio.to_thread(
                self.session.search, query, mode=filters.mode, kinds=filters.kind_filter, prefix_last=prefix_last
            )
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        if get_current_worker().is_cancelled:
            return
        if self._prefilled:
            hits = without_own_lines(hits, self._prefill_span)
        table = self.query_one(HitTable)
        table.show(hits, keep=keep)
        table.border_title = f"Evidence: {len(hits)} hits" if query.strip() else "Evidence"
        marks = {h.via == "exact symbol" for h in hits if h.via}
        legend = "  ".join(x for x, on in (("^ exact symbol", True in marks), ("+ graph", False in marks)) if on)
        table.border_subtitle = f"{filters.mode} · {'/'.join(filters.kind_filter or ()) or 'all kinds'}" + (
            f"  ·  {legend}" if legend else "")
        if not hits:
            self.query_one(HitPreview).show_hit(None)
