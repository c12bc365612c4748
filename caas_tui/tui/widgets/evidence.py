"""The evidence panel: the live search behind the query box, its ranked hits and the
selected hit's text.

The panel owns the search: where the query came from (typed, or pre-filled from a
claim, whose own lines are then no evidence), the debounce and the worker that runs
it. The query box itself sits in the top bar (it spans the screen); the screen hands
its ``QueryBar.Changed`` messages here.

A claim is searched as the reviewers and MCP search it (``retrieve.claimquery.claim_request``:
its words, the names it mentions, a docstring's owner, over code, tests and upstream pages);
the box shows that query's text, and typing in it starts a plain search. The chips still
apply: a mode, kinds picked (else the claim request's evidence kinds), and ``own doc``,
which lets docs count as evidence again (every kind, the claim's own doc section shown).
Otherwise the claim's whole doc section is hidden (the doc is no evidence for itself),
except, for a docstring, the code it documents.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable
from textual.worker import get_current_worker

from caas_tui.errors import CaasError
from caas_tui.models import KINDS, Claim, Hit
from caas_tui.retrieve.claimquery import claim_request, claim_text
from caas_tui.retrieve.request import SearchRequest, as_kinds, as_mode
from caas_tui.sources.entries import kind_of, language_of
from caas_tui.tui.hits_view import HitRow, cells, hit_rows, plan
from caas_tui.tui.render import code_view, hit_header
from caas_tui.tui.session import Session
from caas_tui.tui.widgets.panes import ScrollPane
from caas_tui.tui.widgets.query import Query

SEARCH_DEBOUNCE_S = 0.25
QUERY_CHARS = 300  # a claim pre-fills the query box with at most this much of its query
CLAIM_HITS = 20

class HitTable(DataTable[Text]):
    """One row per hit: rank, relevance, path:lines, why it is here, kind, where each search
    placed it, symbol. Columns that don't fit the pane's width are dropped by priority."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Next hit", show=False),
        Binding("k", "cursor_up", "Previous hit", show=False),
        Binding("question_mark", "legend", "Legend"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.hits: list[Hit] = []
        self._rows: list[HitRow] = []
        self._plan: list[tuple[str, int]] = []

    def _width(self) -> int:
        return max(20, self.scrollable_content_region.width - 1)  # one cell for the vertical scrollbar

    def show(self, hits: Sequence[Hit], keep: str | None = None) -> None:
        """Show ``hits``, the cursor on the hit of chunk ``keep`` if it is still there (a
        re-run after a file changed should not lose the writer's place), else the first."""
        self.hits = list(hits)
        self._rows = hit_rows(self.hits)
        self._fill(keep)

    def _fill(self, keep: str | None) -> None:
        self._plan = plan(self._rows, self._width())
        self.clear(columns=True)
        for name, width in self._plan:
            self.add_column(name, key=name, width=width)
        for hit, row in zip(self.hits, self._rows, strict=True):
            self.add_row(*cells(row, self._plan), key=hit.chunk.id)
        if self.hits:
            ids = [h.chunk.id for h in self.hits]
            self.move_cursor(row=ids.index(keep) if keep in ids else 0, animate=False)

    def on_resize(self) -> None:
        if plan(self._rows, self._width()) != self._plan:
            current = self.current
            self._fill(current.chunk.id if current is not None else None)

    def action_legend(self) -> None:
        from caas_tui.tui.screens.legend import LegendScreen  # the screens import the widgets, not back

        self.app.push_screen(LegendScreen())

    @property
    def current(self) -> Hit | None:
        if not self.hits or not 0 <= self.cursor_row < len(self.hits):
            return None
        return self.hits[self.cursor_row]


class HitPreview(ScrollPane):
    """The selected hit's text, syntax-highlighted, numbered from its first line in the file."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("Type a query or pick a claim: hits show here.", **kwargs)

    def show_hit(self, hit: Hit | None) -> None:
        if hit is None:
            self.show(Text("No hit selected.", style="dim"))
            return
        c = hit.chunk
        self.border_subtitle = f"{c.path}:{c.start_line}"
        self.show(Group(hit_header(hit), code_view(c.text, c.language, c.start_line, self.background_hex)))


def prefill_text(claim: Claim) -> str:
    """What the query box shows for a claim: the start of the query its search runs."""
    return claim_text(claim)[:QUERY_CHARS]


def claim_search(claim: Claim, query: Query, k: int = CLAIM_HITS) -> SearchRequest:
    """The search behind a claim's evidence: its claim request, in the mode the chips pick,
    over the kinds they pick (none picked: the request's evidence kinds; ``own doc``: every kind)."""
    request = claim_request(claim, k)
    kinds = as_kinds(query.kinds) or (as_kinds(KINDS) if query.own_doc else request.kinds)
    return replace(request, mode=as_mode(query.mode), kinds=kinds)


def documents_code(claim: Claim) -> bool:
    """The claim is a docstring or doc comment: the code on its lines is what it documents."""
    return kind_of(claim.doc_path, language_of(claim.doc_path) or "", ()) in ("code", "test")


def section_span(claim: Claim, claims: Sequence[Claim]) -> tuple[str, int, int]:
    """The lines of ``claim``'s doc section (its sub-sections included): from the first to the
    last claim under that heading."""
    if not claim.section:
        return claim.doc_path, claim.start_line, claim.end_line
    inside = claim.section + " > "
    same = [c for c in claims if c.section == claim.section or (c.section or "").startswith(inside)] or [claim]
    return claim.doc_path, min(c.start_line for c in same), max(c.end_line for c in same)


def without_own_lines(hits: list[Hit], span: tuple[str, int, int] | None, *, keep_code: bool = False) -> list[Hit]:
    """Drop the chunks holding the claim itself (or its section): a claim is no evidence for itself.
    ``keep_code``: the claim is a docstring, so the code and tests on its lines stay (its owner)."""
    if span is None:
        return hits
    path, start, end = span
    kept = [h for h in hits if (keep_code and h.chunk.kind in ("code", "test"))
            or not (h.chunk.path == path and h.chunk.start_line <= end and start <= h.chunk.end_line)]
    return [replace(h, rank=i) for i, h in enumerate(kept, 1)]


class EvidencePanel(Vertical):
    """The hit table over the hit preview, and the search that fills them."""

    def __init__(self, session: Session, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.session = session
        self._claim: Claim | None = None  # set while the query came from a claim

    def compose(self) -> ComposeResult:
        yield HitTable(id="hits", classes="pane")
        yield HitPreview(id="preview", classes="pane")

    @property
    def table(self) -> HitTable:
        return self.query_one(HitTable)

    @property
    def preview(self) -> HitPreview:
        return self.query_one(HitPreview)

    @property
    def prefilled(self) -> bool:
        """The query text came from a claim, not from typing."""
        return self._claim is not None

    def focused_hit(self) -> Hit | None:
        """The selected hit, if the writer is in this panel (else a key acts on the claim)."""
        return self.table.current if isinstance(self.app.focused, (HitTable, HitPreview)) else None

    # -- what starts a search ---------------------------------------------------------
    def search_typed(self, query: Query) -> None:
        self._claim = None
        self.search(query, prefix_last=True)

    def search_claim(self, claim: Claim, query: Query) -> None:
        self._claim = claim
        self.search(query, prefix_last=False)

    def filters_changed(self, query: Query) -> None:
        self.search(query, prefix_last=not self.prefilled)

    def rerun(self, query: Query) -> None:
        """The index changed: search again now, keeping the cursor on the same chunk."""
        if query.text.strip():
            current = self.table.current
            self.search(query, prefix_last=not self.prefilled, delay=0.0,
                        keep=current.chunk.id if current is not None else None)

    @work(exclusive=True, group="search", exit_on_error=False)
    async def search(
        self, query: Query, *, prefix_last: bool, delay: float = SEARCH_DEBOUNCE_S, keep: str | None = None
    ) -> None:
        """Search and show the hits (``keep``: the chunk id to leave the cursor on, if still a hit)."""
        # Debounce: a newer keystroke starts a new worker, which cancels this one here.
        await asyncio.sleep(delay)
        if not self.session.ready:
            return
        claim = self._claim
        request = claim_search(claim, query) if claim is not None else None
        try:
            if request is not None:
                hits = await asyncio.to_thread(self.session.run, request)
            else:
                hits = await asyncio.to_thread(
                    self.session.search, query.text, mode=query.mode, kinds=query.kinds, prefix_last=prefix_last
                )
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        span = None if claim is None else (claim.doc_path, claim.start_line, claim.end_line)
        if claim is not None and not query.own_doc:
            # The doc went away meanwhile: hide the claim's own lines only.
            with contextlib.suppress(CaasError):
                span = section_span(claim, await asyncio.to_thread(self.session.claims, claim.doc_path))
        if get_current_worker().is_cancelled:
            return
        hits = without_own_lines(hits, span, keep_code=claim is not None and documents_code(claim))
        table = self.table
        table.show(hits, keep=keep)
        table.border_title = f"Evidence: {len(hits)} hits" if query.text.strip() else "Evidence"
        own = "" if claim is None else (" · own doc shown" if query.own_doc else " · own doc hidden")
        kinds = request.kinds if request is not None else query.kinds
        shown = "all kinds" if not kinds or set(kinds) == set(KINDS) else "/".join(kinds)
        table.border_subtitle = f"{query.mode} · {shown}{own} · ? legend"
        if not hits:
            self.preview.show_hit(None)

    @on(DataTable.RowHighlighted, "#hits")
    def _hit_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.preview.show_hit(self.table.current)
