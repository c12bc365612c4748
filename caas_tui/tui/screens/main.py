"""The triage screen: docs, claims, the doc, the verdict, the query box and the evidence.

Composed of widgets that own their state and report by messages: the evidence panel
runs the search, the ``ProjectWatcher`` posts a message per index refresh, the
``ReviewRunner`` runs reviews and decisions. What the screen knows (the open doc, its
claims and their states, the stale docs) is a plain ``TriageState``. Panes never call
each other; this screen listens to their messages and moves the others. All I/O
(index, doc reads, claims, search, review, store) runs in workers.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList

from caas_tui.errors import CaasError
from caas_tui.live import RefreshEvent
from caas_tui.models import Claim
from caas_tui.review.textutil import normalise_ws
from caas_tui.tui.app_state import last_doc, remember_doc
from caas_tui.tui.editor import open_in_editor
from caas_tui.tui.keys import LETTER_ACTIONS, TRIAGE_BINDINGS
from caas_tui.tui.render import fix_for
from caas_tui.tui.screens.base import CaasScreen
from caas_tui.tui.screens.chain import ChainScreen
from caas_tui.tui.screens.docpicker import DocPicker
from caas_tui.tui.screens.export import ExportScreen
from caas_tui.tui.screens.modals import EditFixScreen
from caas_tui.tui.session import Session
from caas_tui.tui.state import ClaimState, DocEntry
from caas_tui.tui.triage import TriageState
from caas_tui.tui.widgets.evidence import EvidencePanel, prefill_text
from caas_tui.tui.widgets.lists import ClaimList, DocList
from caas_tui.tui.widgets.panes import DocPanel, DocView
from caas_tui.tui.widgets.query import QueryBar
from caas_tui.tui.widgets.reviewer import ReviewRunner
from caas_tui.tui.widgets.status import CaasFooter, StatusLine
from caas_tui.tui.widgets.watcher import ProjectWatcher


class MainScreen(CaasScreen):
    BINDINGS: ClassVar[list[BindingType]] = TRIAGE_BINDINGS

    def __init__(self, session: Session, initial_doc: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.initial_doc = initial_doc
        self.triage = TriageState()
        # Held here, not looked up: the watcher is asked about after the screen's DOM is gone.
        self.watcher = ProjectWatcher(session)
        self.runner = ReviewRunner(session)
        self.evidence = EvidencePanel(session, id="right")
        self.status = StatusLine(id="status")

    # What the open doc shows, for tests and the command palette.
    @property
    def doc(self) -> DocEntry | None:
        return self.triage.doc

    @property
    def claims(self) -> list[Claim]:
        return self.triage.claims

    @property
    def states(self) -> dict[str, ClaimState]:
        return self.triage.states

    @property
    def watch_ready(self) -> bool:
        return self.watcher.watch_ready

    def compose(self) -> ComposeResult:
        yield QueryBar(id="query-bar")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield DocList(id="docs", classes="pane")
                yield ClaimList(id="claims", classes="pane")
            yield DocPanel(id="center")
            yield self.evidence
        yield self.status
        yield CaasFooter()
        yield self.watcher
        yield self.runner

    def on_mount(self) -> None:
        for selector, title in {"#docs": "Docs", "#claims": "Claims", "#doc": "Doc", "#verdict": "Verdict",
                                "#hits": "Evidence", "#preview": "Hit"}.items():
            self.query_one(selector).border_title = title
        self.query_one(DocView).clear("Building the index…")
        self.watcher.open_project()

    # -- focus-aware bindings ---------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in LETTER_ACTIONS and isinstance(self.app.focused, Input):
            return None  # typing in the query box: letters are text, not commands
        if action == "rereview_stale":
            return self.triage.has_stale()  # offered (in the footer) only while something is stale
        return True

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    on_descendant_blur = on_descendant_focus

    # -- opening the project ----------------------------------------------------------
    def on_project_watcher_status(self, message: ProjectWatcher.Status) -> None:
        self.status.report(message.text, message.done, message.total)

    def on_project_watcher_open_failed(self, message: ProjectWatcher.OpenFailed) -> None:
        self.status.progress(None, None)
        self.status.message(f"Cannot open {self.session.root.name}: {message.message}")
        self.query_one(DocView).clear(message.message)
        self.app.notify(message.message, title="Cannot open project", severity="error", markup=False, timeout=10)

    def on_project_watcher_opened(self, message: ProjectWatcher.Opened) -> None:
        docs, name = message.docs, self.session.root.name
        self.status.progress(None, None)
        self.status.message(f"{name}: {message.n_files} files, {message.n_chunks} chunks, {len(docs)} docs")
        doc_list = self.query_one(DocList)
        doc_list.show(docs)
        self.watcher.start_watching()
        if not docs:
            self.query_one(DocView).clear("No docs found in this project.")
            return
        paths = [d.path for d in docs]
        first = self.initial_doc or last_doc(self.session.need_engine().cfg.caas_dir)  # else the last doc opened
        doc_list.select_path(first if first in paths else paths[0])  # posts OptionHighlighted: the doc loads
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
            text, claims, states = await asyncio.to_thread(self.session.open_doc, path)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.triage.open(DocEntry(path, language), claims, states)
        await asyncio.to_thread(remember_doc, self.session.need_engine().cfg.caas_dir, path)
        claim_list = self.query_one(ClaimList)
        claim_list.border_title = f"Claims ({len(claims)})"
        self.query_one(DocView).show_doc(path, text, self.triage.marks())
        if keep is None:
            claim_list.show(claims, states)  # the highlight shows the first claim and searches for it
        else:
            # Moving the highlight here must not refill the query box the writer typed in.
            with claim_list.prevent(OptionList.OptionHighlighted):
                claim_list.show(claims, states)
                claim_list.select_near(*keep)
            if (claim := self.current_claim) is not None:
                self._show_claim(claim)
                if self.evidence.prefilled and claim.id != keep[0]:
                    self._prefill_query(claim)  # the claim's text changed: so does its query
        if not claims:
            self.query_one(DocPanel).no_claims(path)
        self._update_tally()
        self._note_stale()

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
        t = self.triage
        self.query_one(DocPanel).show_claim(claim, t.state(claim.id), t.doc_path, t.marks(claim.id))

    def _prefill_query(self, claim: Claim) -> None:
        self.evidence.search_claim(claim, self.query_one(QueryBar).prefill(prefill_text(claim)))

    def action_move_claim(self, step: int) -> None:
        self.query_one(ClaimList).move(step)

    def _apply_states(self, states: dict[str, ClaimState]) -> None:
        """Take new claim states from the store and repaint every pane that shows them."""
        mine = self.triage.apply(states)
        self.query_one(ClaimList).refresh_states(mine)
        claim = self.current_claim
        if claim is not None:
            self._show_claim(claim)
        self._update_tally()
        self._note_stale()

    def _update_tally(self) -> None:
        self.status.tally(self.triage.tally(), compact=self.app.size.width < 120)

    # -- live search ------------------------------------------------------------------
    @on(QueryBar.Changed)
    def _query_changed(self, event: QueryBar.Changed) -> None:
        if event.typed:
            self.evidence.search_typed(event.query)
        else:
            self.evidence.filters_changed(event.query)

    # -- live refresh -----------------------------------------------------------------
    async def on_project_watcher_refreshed(self, message: ProjectWatcher.Refreshed) -> None:
        try:
            await self.on_refresh(message.event)
        except Exception as exc:  # noqa: BLE001 - a bug showing one event must not stop the watching
            self.log.error(f"showing a refresh failed: {type(exc).__name__}", exc)
            self.app.notify(f"Internal error showing a refresh: {type(exc).__name__}: "
                            f"{normalise_ws(str(exc))}", severity="error", markup=False)

    async def on_refresh(self, event: RefreshEvent) -> None:
        """Move the panes after a refresh: the docs list, the open doc (keeping the selected
        claim), the verdict colours, the evidence of the current query, the stale offer."""
        stats = event.stats
        everything = stats.rebuilt or stats.reloaded  # paths don't say what changed
        changed = set(event.paths)
        self.status.message(Text(event.summary()))
        if event.error:
            self.app.notify(normalise_ws(event.error), title="Live refresh", severity="warning",
                            markup=False, timeout=8)
        if event.messages and (changed or everything):
            more = f" (+{len(event.messages) - 1} more)" if len(event.messages) > 1 else ""
            self.app.notify(normalise_ws(event.messages[0]) + more, severity="warning", markup=False)
        if everything:
            self.session.forget_claims()
        for path in changed:
            self.session.forget_claims(path)
        open_doc = self.triage.doc_path
        # Docs come from doc chunks and from Python docstrings: any add, remove or .py edit may change the list.
        if everything or stats.added or stats.removed or any(p.endswith(".py") for p in changed):
            try:
                docs = await asyncio.to_thread(self.session.docs)
            except CaasError as exc:
                self.app.notify(str(exc), severity="warning", markup=False)
                return
            if not self._update_doc_list(docs):
                open_doc = None  # the open doc is gone; the list moved on
        if open_doc is not None and (everything or open_doc in changed):
            self.reload_doc()
        elif self.triage.claims:
            self.runner.refresh_states(list(self.triage.claims))  # evidence under the verdicts may have changed
        self.evidence.rerun(self.query_one(QueryBar).current())
        if event.stale_verdicts:
            self._announce_stale(event)

    def _update_doc_list(self, docs: list[DocEntry]) -> bool:
        """Show the new docs list, keeping the open doc; False if the open doc is gone."""
        doc_list = self.query_one(DocList)
        if docs == doc_list.docs:
            return True
        open_path = self.triage.doc_path
        doc_list.replace(docs, keep=open_path)
        if open_path is None or open_path in {d.path for d in docs}:
            return True
        self.triage.close()
        self.query_one(ClaimList).show([], {})
        self.query_one(DocPanel).gone(open_path)
        self._update_tally()
        if docs:
            doc_list.select_path(docs[0].path)  # posts OptionHighlighted: the first doc loads
        return False

    def reload_doc(self) -> None:
        """Re-read the open doc (its file changed), keeping the selected claim: by id, else by line."""
        doc = self.triage.doc
        if doc is None:
            return
        self.session.forget_claims(doc.path)
        claim = self.current_claim
        keep = (claim.id, claim.start_line) if claim is not None else ("", 1)
        self.load_doc(doc.path, doc.language, keep=keep)

    # -- stale verdicts ---------------------------------------------------------------
    def _announce_stale(self, event: RefreshEvent) -> None:
        notice = self.triage.stale_reported(s.doc for s in event.stale_verdicts)
        self.app.notify(notice, title="Stale verdicts", severity="warning", markup=False, timeout=8)
        self.refresh_bindings()

    def _note_stale(self) -> None:
        if (notice := self.triage.note_stale()) is not None:
            self.app.notify(notice, title="Stale verdicts", severity="warning", markup=False, timeout=6)
        self.refresh_bindings()

    def action_rereview_stale(self) -> None:
        docs = self.triage.stale_to_rereview()
        if not docs:
            self.app.notify("No stale verdicts to re-review.", severity="warning", timeout=3)
            return
        self.runner.find_stale(docs)

    def on_review_runner_stale_claims(self, message: ReviewRunner.StaleClaims) -> None:
        self.triage.rereview_started(message.docs)
        self.refresh_bindings()
        if not message.claims:
            self.app.notify("No stale claims left to re-review (their claims are gone from the docs).",
                            severity="warning", timeout=4)
            return
        self.runner.start_review(message.claims, "static")

    # -- decisions and reviews --------------------------------------------------------
    def _need_claim(self, *, reviewed: bool) -> Claim | None:
        claim = self.current_claim
        if (problem := self.triage.cannot_act(claim, reviewed=reviewed)) is not None:
            self.app.notify(problem, severity="warning")
            return None
        return claim

    def action_accept(self) -> None:
        if (claim := self._need_claim(reviewed=True)) is not None:
            self.runner.decide(claim, "accepted")

    def action_reject(self) -> None:
        if (claim := self._need_claim(reviewed=True)) is not None:
            self.runner.decide(claim, "rejected")

    def action_edit(self) -> None:
        claim = self._need_claim(reviewed=True)
        if claim is None:
            return
        fix = fix_for(claim, self.triage.state(claim.id))
        lines = self.query_one(DocView).lines
        initial = fix.replacement if fix is not None else "\n".join(lines[claim.start_line - 1 : claim.end_line])
        title = f"{claim.doc_path}:{claim.start_line}-{claim.end_line}"

        def done(text: str | None) -> None:
            if text is not None:
                self.runner.decide(claim, "edited", text)

        self.app.push_screen(EditFixScreen(initial, title, claim.doc_path), done)

    def action_undo(self) -> None:
        self.runner.undo()

    def action_review_claim(self) -> None:
        if (claim := self._need_claim(reviewed=False)) is not None:
            self.runner.start_review([claim], "static")

    def action_review_doc(self) -> None:
        self.runner.review_doc(self.triage.claims, claude=False)

    def action_review_claude(self) -> None:
        self.runner.review_doc(self.triage.claims, claude=True)

    def action_run_code(self) -> None:
        self.runner.run_code(self.triage.claims)

    def cancel_review(self) -> bool:
        return self.runner.cancel()

    def on_review_runner_states_changed(self, message: ReviewRunner.StatesChanged) -> None:
        self._apply_states(message.states)
        if message.select is not None and self.triage.has_claim(message.select):
            self.query_one(ClaimList).select_claim(message.select)

    def on_review_runner_progress(self, message: ReviewRunner.Progress) -> None:
        self.status.report(message.text, message.done, message.total, message.right)

    def on_review_runner_finished(self, message: ReviewRunner.Finished) -> None:
        self.status.progress(None, None)
        self.status.message(message.message)
        self.app.notify(message.message, severity=message.severity, markup=False)  # type: ignore[arg-type]
        if message.warnings:
            self.app.notify("\n".join(message.warnings), title="Review warnings", severity="warning",
                            markup=False, timeout=10)
        self._apply_states(message.states)

    # -- small actions ----------------------------------------------------------------
    def action_focus_query(self) -> None:
        self.query_one("#query", Input).focus()

    def action_focus_docs(self) -> None:
        def picked(path: str | None) -> None:
            if path is not None:
                self.open_doc(path)

        docs = self.query_one(DocList).docs
        if not docs:
            self.app.notify("No docs yet: the index is still being built.", severity="warning", timeout=3)
            return
        self.app.push_screen(DocPicker(self.session, docs, self.triage.doc_path), picked)

    def action_escape(self) -> None:
        if isinstance(self.app.focused, Input) or not self.cancel_review():
            self.query_one(ClaimList).focus()

    def action_cycle_mode(self) -> None:
        self.query_one(QueryBar).filters.cycle_mode()

    def action_chain(self) -> None:
        hit = self.evidence.focused_hit()
        claim = self.current_claim
        if hit is None and claim is None:
            self.app.notify("Pick a claim or a hit first.", severity="warning")
            return
        self.app.push_screen(ChainScreen(self.session, claim=None if hit else claim, hit=hit))

    def action_open_editor(self) -> None:
        hit = self.evidence.focused_hit()
        if hit is not None:
            path, line = hit.chunk.path, hit.chunk.start_line
        elif (claim := self.current_claim) is not None:
            path, line = claim.doc_path, claim.start_line
        else:
            self.app.notify("Nothing to open: pick a claim or a hit.", severity="warning")
            return
        if open_in_editor(self.app, self.session, path, line):
            # Show the edited doc now; the live watcher refreshes the index (the only refresher).
            self.reload_doc()

    def action_export(self) -> None:
        def closed(_: object) -> None:
            self.session.forget_claims()  # an applied patch changes docs: reload what is open
            self.reload_doc()

        self.app.push_screen(ExportScreen(self.session), closed)

    # -- used by the command palette --------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.query_one(QueryBar).filters.set_mode(mode)

    def toggle_kind(self, kind: str) -> None:
        self.query_one(QueryBar).filters.toggle_kind(kind)

    def doc_paths(self) -> list[str]:
        return [d.path for d in self.query_one(DocList).docs]

    def open_doc(self, path: str) -> None:
        self.query_one(DocList).select_path(path)

