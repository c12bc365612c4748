"""The triage screen: docs, claims, the doc, the verdict, the query box and the evidence.

Panes never call each other; this screen listens to their messages and moves the
others. All I/O (index, doc reads, claims, search, review, store) runs in workers.
Review actions live in ``review_actions``, the project watcher in ``live``.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Input, OptionList

from caas_tui.errors import CaasError
from caas_tui.models import Claim
from caas_tui.tui.render import ClaimMark, verdict_view
from caas_tui.tui.screens.base import CaasScreen
from caas_tui.tui.screens.live import LiveActions
from caas_tui.tui.screens.review_actions import ReviewActions
from caas_tui.tui.screens.search import SearchActions
from caas_tui.tui.session import Session
from caas_tui.tui.state import PENDING, ClaimState, DocEntry
from caas_tui.tui.widgets.evidence import HitPreview, HitTable
from caas_tui.tui.widgets.lists import ClaimList, DocList
from caas_tui.tui.widgets.panes import DocView, ScrollPane
from caas_tui.tui.widgets.query import FilterBar, QueryBar
from caas_tui.tui.widgets.status import StatusLine


class MainScreen(LiveActions, SearchActions, ReviewActions, CaasScreen):
    # Letter keys live here, not on the app: a focused query box consumes printable keys
    # before they bubble up, and check_action hides them while it has focus.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+f", "focus_query", "Search"),
        Binding("slash", "focus_query", "Search", show=False),
        Binding("escape", "escape", "Leave/cancel", show=False),
        Binding("j", "move_claim(1)", "Next claim", show=False),
        Binding("k", "move_claim(-1)", "Prev claim", show=False),
        Binding("a", "accept", "Accept"),
        Binding("r", "reject", "Reject"),
        Binding("e", "edit", "Edit fix"),
        Binding("u", "undo", "Undo"),
        Binding("c", "review_claim", "Review"),
        Binding("C", "review_doc", "Review doc"),
        Binding("ctrl+r", "review_claude", "Claude"),
        Binding("R", "rereview_stale", "Re-review stale"),
        Binding("x", "chain", "Chain"),
        Binding("o", "open_editor", "Editor"),
        Binding("p", "export", "Export"),
        Binding("f2", "cycle_mode", "Mode"),
        Binding("d", "focus_docs", "Docs", show=False),
    ]
    LETTER_ACTIONS = frozenset(
        {"move_claim", "accept", "reject", "edit", "undo", "review_claim", "review_doc",
         "rereview_stale", "chain", "open_editor", "export", "focus_docs"}
    )

    def __init__(self, session: Session, initial_doc: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.initial_doc = initial_doc
        self.doc: DocEntry | None = None
        self.claims: list[Claim] = []
        self.states: dict[str, ClaimState] = {}
        self._prefilled = False  # the query text came from a claim, not from typing
        self._init_live()

    def compose(self) -> ComposeResult:
        yield QueryBar(id="query-bar")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield DocList(id="docs", classes="pane")
                yield ClaimList(id="claims", classes="pane")
            with Vertical(id="center"):
                yield DocView(id="doc", classes="pane")
                yield ScrollPane("Pick a claim: its verdict shows here.", id="verdict", classes="pane")
            with Vertical(id="right"):
                yield HitTable(id="hits", classes="pane")
                yield HitPreview(id="preview", classes="pane")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        titles = {"#docs": "Docs", "#claims": "Claims", "#doc": "Doc", "#verdict": "Verdict",
                  "#hits": "Evidence", "#preview": "Hit"}
        for selector, title in titles.items():
            self.query_one(selector).border_title = title
        self.query_one(DocView).clear("Building the index…")
        self.open_project()

    # -- focus-aware bindings ---------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.LETTER_ACTIONS and isinstance(self.app.focused, Input):
            return None  # typing in the query box: letters are text, not commands
        if action == "rereview_stale":
            return self.has_stale()  # offered (in the footer) only while something is stale
        return True

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def on_descendant_blur(self) -> None:
        self.refresh_bindings()

    # -- opening the project ----------------------------------------------------------
    @work(thread=True, exclusive=True, group="open", exit_on_error=False)
    def open_project(self) -> None:
        status = self.query_one(StatusLine)

        def progress(stage: str, done: int, total: int) -> None:
            self.app.call_from_thread(status.message, f"Indexing {self.session.root.name}: {stage} {done}/{total}")
            self.app.call_from_thread(status.progress, done, total)

        def notify(message: str) -> None:
            self.app.call_from_thread(self.app.notify, message, markup=False)

        self.app.call_from_thread(status.message, f"Opening {self.session.root.name}…")
        self.app.call_from_thread(status.progress, 0, None)
        try:
            engine = self.session.open(progress=progress, notify=notify)
            docs = self.session.docs()
        except CaasError as exc:
            self.app.call_from_thread(self._failed_open, str(exc))
            return
        n_chunks, n_files = len(engine.chunks()), len({c.path for c in engine.chunks()})
        self.app.call_from_thread(self._project_ready, docs, n_chunks, n_files)

    def _failed_open(self, message: str) -> None:
        status = self.query_one(StatusLine)
        status.progress(None, None)
        status.message(f"Cannot open {self.session.root.name}: {message}")
        self.query_one(DocView).clear(message)
        self.app.notify(message, title="Cannot open project", severity="error", markup=False, timeout=10)

    def _project_ready(self, docs: list[DocEntry], n_chunks: int, n_files: int) -> None:
        status = self.query_one(StatusLine)
        status.progress(None, None)
        status.message(f"{self.session.root.name}: {n_files} files, {n_chunks} chunks, {len(docs)} docs")
        doc_list = self.query_one(DocList)
        doc_list.show(docs)
        self.start_watch()
        if not docs:
            self.query_one(DocView).clear("No docs found in this project.")
            return
        paths = [d.path for d in docs]
        doc_list.highlighted = paths.index(self.initial_doc) if self.initial_doc in paths else 0
        self.query_one(ClaimList).focus()

    # -- docs and claims --------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#docs")
    def _doc_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        doc_list = self.query_one(DocList)
        if event.option_id is not None:
            self.load_doc(event.option_id, next(d.language for d in doc_list.docs if d.path == event.option_id))

    @work(exclusive=True, group="doc", exit_on_error=False)
    async def load_doc(self, path: str, language: str, keep: tuple[str, int] | None = None) -> None:
        """Show a doc and its claims. ``keep`` (claim id, line): a reload of the open doc
        after its file changed, keeping the selection, the query and the evidence."""
        await asyncio.sleep(0.05)  # arrowing through the docs list only loads where it stops
        try:
            text, claims, states = await asyncio.to_thread(self._read_doc, path)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.doc = DocEntry(path, language)
        self.claims, self.states = claims, states
        claim_list = self.query_one(ClaimList)
        claim_list.border_title = f"Claims ({len(claims)})"
        self.query_one(DocView).show_doc(path, text, self._marks(None))
        if keep is None:
            claim_list.show(claims, states)  # the highlight shows the first claim and searches for it
        else:
            # Moving the highlight here must not refill the query box the writer typed in.
            with claim_list.prevent(OptionList.OptionHighlighted):
                claim_list.show(claims, states)
                claim_list.select_near(*keep)
            if (claim := self.current_claim) is not None:
                self._show_claim(claim)
                if self._prefilled and claim.id != keep[0]:
                    self._prefill_query(claim)  # the claim's text changed: so does its query
        if not claims:
            self.query_one("#verdict", ScrollPane).show(verdict_placeholder(path))
        self._update_tally()
        self.note_stale()

    def _read_doc(self, path: str) -> tuple[str, list[Claim], dict[str, ClaimState]]:
        text = self.session.read_doc(path)
        claims = self.session.claims(path)
        states = self.session.store_call_sync(self.session.need_port().states, claims)
        return text, claims, states

    def _marks(self, selected: str | None) -> list[ClaimMark]:
        return [ClaimMark(c, self.states.get(c.id, PENDING).label, c.id == selected) for c in self.claims]

    @property
    def current_claim(self) -> Claim | None:
        return self.query_one(ClaimList).current

    @on(OptionList.OptionHighlighted, "#claims")
    def _claim_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        claim = self.current_claim
        if claim is None:
            return
        self._show_claim(claim)
        self._prefill_query(claim)

    def _show_claim(self, claim: Claim) -> None:
        view = self.query_one(DocView)
        if self.doc is not None and view.path == self.doc.path:
            view.show_doc(self.doc.path, view.text, self._marks(claim.id))
            view.reveal_line(claim.start_line)
        state = self.states.get(claim.id, PENDING)
        pane = self.query_one("#verdict", ScrollPane)
        pane.show(verdict_view(claim, state, view.lines, pane.background_hex))

    def action_move_claim(self, step: int) -> None:
        claims = self.query_one(ClaimList)
        if claims.option_count:
            claims.action_cursor_down() if step > 0 else claims.action_cursor_up()

    # -- live search (the worker is in SearchActions) ----------------------------------
    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        self._prefilled = False
        self.search(event.value, prefix_last=True)

    @on(FilterBar.Changed)
    def _filters_changed(self, event: FilterBar.Changed) -> None:
        self.search(self.query_one("#query", Input).value, prefix_last=not self._prefilled)

    @on(DataTable.RowHighlighted, "#hits")
    def _hit_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.query_one(HitPreview).show_hit(self.query_one(HitTable).current)

    # -- small actions ----------------------------------------------------------------
    def action_focus_query(self) -> None:
        self.query_one("#query", Input).focus()

    def action_focus_docs(self) -> None:
        self.query_one(DocList).focus()

    def action_escape(self) -> None:
        if isinstance(self.app.focused, Input) or not self.cancel_review():
            self.query_one(ClaimList).focus()

    def action_cycle_mode(self) -> None:
        self.query_one(FilterBar).cycle_mode()

    # -- used by the command palette --------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.query_one(FilterBar).set_mode(mode)

    def toggle_kind(self, kind: str) -> None:
        self.query_one(FilterBar).toggle_kind(kind)

    def doc_paths(self) -> list[str]:
        return [d.path for d in self.query_one(DocList).docs]

    def open_doc(self, path: str) -> None:
        self.query_one(DocList).select_path(path)


def verdict_placeholder(path: str) -> Text:
    return Text(f"No checkable claims found in {path}.", style="dim")
