"""Review and decision actions of the triage screen (a mixin: MainScreen owns the panes).

Decisions go straight to the verdict store on its own thread, in key-press order, so
killing the app right after a key press loses nothing. Reviews run in a thread worker
that reports progress (and, for Claude, the running token/cost tally) and can be
cancelled with escape.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import SuspendNotSupported
from textual.worker import get_current_worker

from caas_tui.errors import CaasError
from caas_tui.models import Claim, Verdict
from caas_tui.tui.render import fix_for, tally_text
from caas_tui.tui.screens.modals import EditFixScreen
from caas_tui.tui.state import PENDING, ClaimState
from caas_tui.tui.widgets.evidence import HitPreview, HitTable
from caas_tui.tui.widgets.lists import ClaimList
from caas_tui.tui.widgets.status import StatusLine

if TYPE_CHECKING:
    from caas_tui.tui.screens.main import MainScreen

    _Base = MainScreen
else:
    _Base = object


class ReviewActions(_Base):
    _review_cancel: threading.Event | None = None

    # -- shared helpers ---------------------------------------------------------------
    def _apply_states(self, states: dict[str, ClaimState]) -> None:
        """Take new claim states from the store and repaint every pane that shows them."""
        shown = {c.id for c in self.claims}
        states = {cid: st for cid, st in states.items() if cid in shown}  # a re-review may span docs
        self.states.update(states)
        self.query_one(ClaimList).refresh_states(states)
        claim = self.current_claim
        if claim is not None:
            self._show_claim(claim)
        self._update_tally()
        self.note_stale()

    def _update_tally(self) -> None:
        counts = Counter(self.states.get(c.id, PENDING).label for c in self.claims)
        decided = sum(1 for c in self.claims if self.states.get(c.id, PENDING).decision != "pending")
        compact = self.app.size.width < 120
        text = tally_text(counts, compact=compact)
        if self.claims:
            text.append(f" {decided}/{len(self.claims)} decided" if compact else f"decided {decided}/{len(self.claims)}",
                        style="dim")
        self.query_one(StatusLine).right(text)

    def _need_claim(self, *, reviewed: bool) -> Claim | None:
        claim = self.current_claim
        if claim is None:
            self.app.notify("No claim selected.", severity="warning")
            return None
        if reviewed and self.states.get(claim.id, PENDING).verdict is None:
            self.app.notify("Review this claim first: c (static) or ctrl+r (Claude).", severity="warning")
            return None
        return claim

    # -- decisions --------------------------------------------------------------------
    def action_accept(self) -> None:
        if (claim := self._need_claim(reviewed=True)) is not None:
            self.decide(claim, "accepted")

    def action_reject(self) -> None:
        if (claim := self._need_claim(reviewed=True)) is not None:
            self.decide(claim, "rejected")

    def action_edit(self) -> None:
        claim = self._need_claim(reviewed=True)
        if claim is None:
            return
        state = self.states.get(claim.id, PENDING)
        fix = fix_for(claim, state)
        lines = self.query_one("#doc").lines  # type: ignore[attr-defined]
        if fix is not None:
            initial = fix.replacement
        else:
            initial = "\n".join(lines[claim.start_line - 1 : claim.end_line])
        title = f"{claim.doc_path}:{claim.start_line}-{claim.end_line}"

        def done(text: str | None) -> None:
            if text is not None:
                self.decide(claim, "edited", text)

        self.app.push_screen(EditFixScreen(initial, title, claim.doc_path), done)

    def action_undo(self) -> None:
        self.undo()

    @work(group="store", exit_on_error=False)
    async def decide(self, claim: Claim, decision: str, replacement: str | None = None) -> None:
        try:
            state = await self.session.store_call(self.session.need_port().decide, claim, decision, replacement)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self._apply_states({claim.id: state})
        if decision == "accepted" and state.verdict is not None and state.verdict.fix is None:
            self.app.notify("Accepted (no fix to export for this claim).", timeout=3)

    @work(group="store", exit_on_error=False)
    async def undo(self) -> None:
        try:
            undone = await self.session.store_call(self.session.need_port().undo)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        if undone is None:
            self.app.notify("Nothing to undo.", severity="warning", timeout=3)
            return
        claim_id, state = undone
        if claim_id in {c.id for c in self.claims}:
            self._apply_states({claim_id: state})
            self.query_one(ClaimList).select_claim(claim_id)
        self.app.notify(f"Undone: back to {state.decision}.", timeout=3)

    # -- reviews ----------------------------------------------------------------------
    def action_review_claim(self) -> None:
        if (claim := self._need_claim(reviewed=False)) is not None:
            self.start_review([claim], "static")

    def action_review_doc(self) -> None:
        if not self.claims:
            self.app.notify("This doc has no claims to review.", severity="warning")
            return
        self.start_review(list(self.claims), "static", whole_doc=True)

    def action_review_claude(self) -> None:
        if not os.environ.get("ANTHROPIC_API_KEY", "").strip():
            self.app.notify("ANTHROPIC_API_KEY is not set: reviewing the doc with the static reviewer instead.",
                            severity="warning", timeout=6)
            self.action_review_doc()
            return
        if not self.claims:
            self.app.notify("This doc has no claims to review.", severity="warning")
            return
        self.start_review(list(self.claims), "claude", whole_doc=True)

    def start_review(self, claims: list[Claim], reviewer: str, *, whole_doc: bool = False) -> None:
        """Review ``claims`` in a worker; ``whole_doc``: they are every claim of the open doc."""
        if self._review_cancel is not None and not self._review_cancel.is_set():
            self.app.notify("A review is already running (escape cancels it).", severity="warning")
            return
        self._review_cancel = threading.Event()
        self.run_review(claims, reviewer, self._review_cancel, whole_doc)

    def cancel_review(self) -> bool:
        if self._review_cancel is None or self._review_cancel.is_set():
            return False
        self._review_cancel.set()
        self.query_one(StatusLine).message("Cancelling the review…")
        return True

    @work(thread=True, group="review", exit_on_error=False)
    def run_review(self, claims: list[Claim], reviewer: str, cancel: threading.Event, whole_doc: bool) -> None:
        status = self.query_one(StatusLine)
        call = self.app.call_from_thread
        who = "Claude" if reviewer == "claude" else "static reviewer"
        cost: list[str] = [""]  # the latest running tally (usage arrives from Claude's pool threads)

        def progress(done: int, total: int, message: str) -> None:
            call(status.progress, done, total)
            call(status.message, Text(f"Reviewing with {who}: {done}/{total}  {message}"))

        def on_usage(usage: Any) -> None:
            describe = getattr(usage, "describe", None)
            cost[0] = describe() if callable(describe) else str(usage)
            call(status.right, Text(f"Claude: {cost[0]}"))

        call(status.progress, 0, len(claims))
        call(status.message, f"Reviewing {len(claims)} claim(s) with {who}…")
        port = self.session.need_port()
        try:
            verdicts: list[Verdict] = port.review(claims, reviewer, progress=progress, on_usage=on_usage, cancel=cancel)
            states = self.session.store_call_sync(port.record, claims, verdicts, whole_doc=whole_doc)
        except CaasError as exc:
            call(self._review_done, {}, f"Review failed: {exc}", "error")
            return
        finally:
            cancel.set()
        worker = get_current_worker()
        cancelled = worker.is_cancelled or len(verdicts) < len(claims)
        note = f"Reviewed {len(verdicts)}/{len(claims)} claim(s) with {who}"
        if reviewer == "claude" and cost[0]:
            note += f" ({cost[0]})"
        call(self._review_done, states, note + (" — cancelled" if cancelled else ""), "information")

    def _review_done(self, states: dict[str, ClaimState], message: str, severity: str) -> None:
        status = self.query_one(StatusLine)
        status.progress(None, None)
        status.message(message)
        self.app.notify(message, severity=severity, markup=False)  # type: ignore[arg-type]
        self._apply_states(states)

    # -- chain, editor, export --------------------------------------------------------
    def _focused_hit(self) -> Any:
        focused = self.app.focused
        if isinstance(focused, (HitTable, HitPreview)):
            return self.query_one(HitTable).current
        return None

    def action_chain(self) -> None:
        from caas_tui.tui.screens.chain import ChainScreen

        hit = self._focused_hit()
        claim = self.current_claim
        if hit is None and claim is None:
            self.app.notify("Pick a claim or a hit first.", severity="warning")
            return
        self.app.push_screen(ChainScreen(self.session, claim=None if hit else claim, hit=hit))

    def action_open_editor(self) -> None:
        hit = self._focused_hit()
        if hit is not None:
            path, line = hit.chunk.path, hit.chunk.start_line
        elif (claim := self.current_claim) is not None:
            path, line = claim.doc_path, claim.start_line
        else:
            self.app.notify("Nothing to open: pick a claim or a hit.", severity="warning")
            return
        if open_in_editor(self, path, line):
            # Show the edited doc now; the live watcher refreshes the index (the only refresher).
            self.reload_doc()

    def action_export(self) -> None:
        from caas_tui.tui.screens.export import ExportScreen

        def closed(_: object) -> None:
            self.session.forget_claims()  # an applied patch changes docs: reload what is open
            self.reload_doc()

        self.app.push_screen(ExportScreen(self.session), closed)


def open_in_editor(owner: Any, path: str, line: int) -> bool:
    """Suspend the app and run ``$EDITOR +LINE path``; True if the editor ran.

    Blocking here is the point: the editor owns the terminal until it exits.
    """
    app = owner.app
    try:
        command = owner.session.editor_command(path, line)
    except CaasError as exc:
        app.notify(str(exc), severity="warning", markup=False, timeout=6)
        return False
    try:
        with app.suspend():
            subprocess.run(command, check=False)
    except OSError as exc:  # editor binary missing
        app.notify(f"cannot run {command[0]}: {exc.strerror or exc}", severity="error", markup=False)
        return False
    except SuspendNotSupported:  # headless or web: nothing to hand the terminal to
        app.notify("This terminal can't hand over to an editor.", severity="warning")
        return False
    app.refresh()
    return True
