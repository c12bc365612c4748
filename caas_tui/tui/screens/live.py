"""Live updates of the triage screen (a mixin: MainScreen owns the panes).

The project watcher (``caas_tui.live.watch_project``) runs in one async worker from the
moment the project is open until the screen unmounts; while the app runs it is the only
thing that refreshes the index (no other refresh, no ``refresh_staleness``: the watcher
marks verdicts stale itself, see ``caas_tui.live.freshness``). Each ``RefreshEvent``
moves the panes: the docs list, the open doc (keeping the selected claim), the verdict
colours, the evidence of the current query, and an offer to re-review what went stale.

Quitting sets the watcher's stop flag and waits for the worker before the session
closes the engine: a refresh thread must not outlive the index it writes.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.widgets import Input, OptionList
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from caas_tui.errors import CaasError
from caas_tui.live import RefreshEvent, watch_project
from caas_tui.tui.render import one_line
from caas_tui.tui.state import PENDING, DocEntry
from caas_tui.tui.widgets.evidence import HitTable
from caas_tui.tui.widgets.lists import ClaimList, DocList
from caas_tui.tui.widgets.panes import DocView, ScrollPane
from caas_tui.tui.widgets.status import StatusLine

if TYPE_CHECKING:
    from caas_tui.tui.screens.main import MainScreen

    _Base = MainScreen
else:
    _Base = object

STOP_TIMEOUT_S = 10.0  # quitting waits this long for a refresh in flight, then cancels it
NOTE_CHARS = 160  # one-line notices from the watcher are cut here


class LiveActions(_Base):
    watch_ready: bool = False  # the watch is in place and has caught up: no save is missed from now on
    _watch_stop: threading.Event | None = None
    _watch_worker: Worker[None] | None = None

    def _init_live(self) -> None:
        self.stale_docs: set[str] = set()  # docs with stale verdicts that "re-review stale" should visit
        self._stale_told: set[str] = set()  # docs whose stale verdicts were already announced

    # -- the watcher ------------------------------------------------------------------
    def start_watch(self) -> None:
        if self._watch_worker is not None and not self._watch_worker.is_finished:
            return
        self._watch_stop = threading.Event()
        self._watch_worker = self.watch(self._watch_stop)

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch(self, stop: threading.Event) -> None:
        engine = self.session.need_engine()
        loop = asyncio.get_running_loop()

        def notify(message: str) -> None:  # called from the refresh thread (index rebuild notices)
            loop.call_soon_threadsafe(self._notice, message)

        def ready() -> None:
            self.watch_ready = True

        try:
            async for event in watch_project(engine, stop, notify=notify, on_ready=ready):
                if stop.is_set():
                    break
                try:
                    await self.on_refresh(event)
                except Exception as exc:  # noqa: BLE001 - a bug showing one event must not stop the watching
                    self.log.error(f"showing a refresh failed: {type(exc).__name__}", exc)
                    self.app.notify(f"Internal error showing a refresh: {type(exc).__name__}: "
                                    f"{one_line(str(exc), NOTE_CHARS)}", severity="error", markup=False)
        except (CaasError, OSError) as exc:  # watchfiles: no inotify watches left, say
            self.app.notify(f"Not watching for changes any more: {one_line(str(exc), NOTE_CHARS)}",
                            severity="warning", markup=False, timeout=10)
        finally:
            self.watch_ready = False

    def _notice(self, message: str) -> None:
        self.app.notify(one_line(message, NOTE_CHARS), markup=False, timeout=5)

    async def stop_watch(self) -> None:
        """Stop the watcher and wait for it (a refresh in flight finishes first, within bounds)."""
        if self._watch_stop is not None:
            self._watch_stop.set()
        worker = self._watch_worker
        if worker is None or worker.is_finished:
            return
        if worker.state == WorkerState.PENDING:
            worker.cancel()
            return
        try:
            await asyncio.wait_for(worker.wait(), STOP_TIMEOUT_S)
        except TimeoutError:
            worker.cancel()  # wait_for has cancelled the task already; this marks the worker
        except (WorkerFailed, WorkerCancelled) as exc:  # its failure was reported when it happened
            self.log.warning(f"watcher ended with {type(exc).__name__}: {exc}")

    async def on_unmount(self) -> None:
        # Runs before Textual's own unmount handler cancels this screen's workers: stopping
        # through the flag lets a refresh in flight finish instead of being abandoned.
        await self.stop_watch()

    # -- one refresh ------------------------------------------------------------------
    async def on_refresh(self, event: RefreshEvent) -> None:
        stats = event.stats
        everything = stats.rebuilt or stats.reloaded  # paths don't say what changed
        changed = set(event.paths)
        self.query_one(StatusLine).message(Text(event.summary()))
        if event.error:
            self.app.notify(one_line(event.error, NOTE_CHARS), title="Live refresh", severity="warning",
                            markup=False, timeout=8)
        if event.messages and (changed or everything):
            more = f" (+{len(event.messages) - 1} more)" if len(event.messages) > 1 else ""
            self.app.notify(one_line(event.messages[0], NOTE_CHARS) + more, severity="warning", markup=False)
        if everything:
            self.session.forget_claims()
        for path in changed:
            self.session.forget_claims(path)
        open_doc = self.doc.path if self.doc is not None else None
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
        elif self.claims:
            self.refresh_states()  # evidence under the verdicts may have changed
        self._rerun_search()
        if event.stale_verdicts:
            self._announce_stale(event)

    def _update_doc_list(self, docs: list[DocEntry]) -> bool:
        """Show the new docs list, keeping the open doc; False if the open doc is gone."""
        doc_list = self.query_one(DocList)
        if docs == doc_list.docs:
            return True
        open_path = self.doc.path if self.doc is not None else None
        with doc_list.prevent(OptionList.OptionHighlighted):
            doc_list.show(docs)
            if open_path is not None:
                doc_list.select_path(open_path)
        if open_path is None or open_path in {d.path for d in docs}:
            return True
        self.doc, self.claims, self.states = None, [], {}
        self.query_one(ClaimList).show([], {})
        self.query_one(DocView).clear(f"{open_path} is gone.")
        self.query_one("#verdict", ScrollPane).show(Text(f"{open_path} was removed or renamed.", style="dim"))
        self._update_tally()
        if docs:
            doc_list.highlighted = 0  # posts OptionHighlighted: the first doc loads
        return False

    def reload_doc(self) -> None:
        """Re-read the open doc (its file changed), keeping the selected claim: by id, else by line."""
        if self.doc is None:
            return
        self.session.forget_claims(self.doc.path)
        claim = self.current_claim
        keep = (claim.id, claim.start_line) if claim is not None else ("", 1)
        self.load_doc(self.doc.path, self.doc.language, keep=keep)

    @work(exclusive=True, group="states", exit_on_error=False)
    async def refresh_states(self) -> None:
        claims = list(self.claims)
        if not claims:
            return
        try:
            states = await self.session.store_call(self.session.need_port().states, claims)
        except CaasError as exc:
            self.app.notify(str(exc), severity="warning", markup=False)
            return
        if [c.id for c in self.claims] == [c.id for c in claims]:  # still the same doc and text
            self._apply_states(states)

    def _rerun_search(self) -> None:
        query = self.query_one("#query", Input).value
        if query.strip():
            current = self.query_one(HitTable).current
            self.search(query, prefix_last=not self._prefilled, delay=0.0,
                        keep=current.chunk.id if current is not None else None)

    # -- stale verdicts ---------------------------------------------------------------
    def open_doc_stale(self) -> int:
        return sum(1 for c in self.claims if self.states.get(c.id, PENDING).stale)

    def _announce_stale(self, event: RefreshEvent) -> None:
        docs = sorted({s.doc for s in event.stale_verdicts})
        self.stale_docs.update(docs)
        self._stale_told.update(docs)
        n = len(event.stale_verdicts)
        where = ", ".join(docs[:2]) + (f" and {len(docs) - 2} more" if len(docs) > 2 else "")
        self.app.notify(f"{n} verdict{'' if n == 1 else 's'} went stale in {where}: R re-reviews them",
                        title="Stale verdicts", severity="warning", markup=False, timeout=8)
        self.refresh_bindings()

    def note_stale(self) -> None:
        """After the open doc's states changed: track its stale claims, announce them once per doc."""
        if self.doc is None:
            return
        path, n = self.doc.path, self.open_doc_stale()
        if n == 0:
            self.stale_docs.discard(path)
        else:
            self.stale_docs.add(path)
            if path not in self._stale_told:
                self._stale_told.add(path)
                self.app.notify(f"{n} stale verdict{'' if n == 1 else 's'} in {path}: R re-reviews them",
                                title="Stale verdicts", severity="warning", markup=False, timeout=6)
        self.refresh_bindings()

    def has_stale(self) -> bool:
        return bool(self.stale_docs) or self.open_doc_stale() > 0

    def action_rereview_stale(self) -> None:
        docs = set(self.stale_docs)
        if self.doc is not None and self.open_doc_stale():
            docs.add(self.doc.path)
        if not docs:
            self.app.notify("No stale verdicts to re-review.", severity="warning", timeout=3)
            return
        self.rereview_stale(sorted(docs))

    @work(group="review-stale", exit_on_error=False)
    async def rereview_stale(self, docs: list[str]) -> None:
        """Run the static reviewer on exactly the claims whose verdicts are stale."""
        try:
            claims = await self.session.store_call(self.session.need_port().stale_claims, docs)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        # Docs elsewhere leave the list now; the open doc's entry follows its claim states.
        self.stale_docs.difference_update(d for d in docs if self.doc is None or d != self.doc.path)
        self.refresh_bindings()
        if not claims:
            self.app.notify("No stale claims left to re-review (their claims are gone from the docs).",
                            severity="warning", timeout=4)
            return
        self.start_review(claims, "static")
