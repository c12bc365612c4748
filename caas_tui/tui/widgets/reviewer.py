"""Reviews and decisions in workers, reported as messages.

Decisions go straight to the verdict store on its own thread, in key-press order, so
killing the app right after a key press loses nothing. Reviews run in a thread worker
that reports progress (and, for Claude, the running token/cost tally) and can be
cancelled. The runner knows no pane: what it learns comes back as ``StatesChanged``,
``Progress``, ``Finished`` and ``StaleClaims`` for the screen to show.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from caas_tui.errors import CaasError
from caas_tui.models import Claim
from caas_tui.review.textutil import counted
from caas_tui.tui.session import Session
from caas_tui.tui.state import ClaimState

_WHO = {"claude": "Claude", "execute": "the code run", "static": "static reviewer"}


class ReviewRunner(Widget):
    """Invisible; one per triage screen."""

    DEFAULT_CSS = "ReviewRunner { display: none; }"

    class StatesChanged(Message):
        """New claim states from the store (``select``: the claim to put the cursor on)."""

        def __init__(self, states: Mapping[str, ClaimState], select: str | None = None) -> None:
            super().__init__()
            self.states = dict(states)
            self.select = select

    class Progress(Message):
        """``done`` of ``total``, or ``done=None`` to leave the bar alone; ``right``: the cost tally."""

        def __init__(self, text: str | Text | None, done: int | None = None, total: int | None = None,
                     right: Text | None = None) -> None:
            super().__init__()
            self.text, self.done, self.total, self.right = text, done, total, right

    class Finished(Message):
        """``warnings``: what the reviewed docs' structure made the claims work around, and the
        claims-per-doc limit (the CLI prints the same lines)."""

        def __init__(self, states: Mapping[str, ClaimState], message: str, severity: str,
                     warnings: Sequence[str] = ()) -> None:
            super().__init__()
            self.states = dict(states)
            self.message = message
            self.severity = severity
            self.warnings = tuple(warnings)

    class StaleClaims(Message):
        """The claims behind the stale verdicts of ``docs``, ready to be re-reviewed."""

        def __init__(self, docs: list[str], claims: list[Claim]) -> None:
            super().__init__()
            self.docs = docs
            self.claims = claims

    def __init__(self, session: Session, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.session = session
        self._cancel: threading.Event | None = None

    # -- decisions --------------------------------------------------------------------
    @work(group="store", exit_on_error=False)
    async def decide(self, claim: Claim, decision: str, replacement: str | None = None) -> None:
        try:
            state = await self.session.store_call(self.session.need_port().decide, claim, decision, replacement)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.post_message(self.StatesChanged({claim.id: state}))
        if decision == "edited" and state.decision != "edited":
            self.app.notify("The edited fix is the proposed one: nothing decided (a accepts it as it is).", timeout=4)
        elif decision == "accepted" and state.verdict is not None and state.verdict.fix is None:
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
        self.post_message(self.StatesChanged({claim_id: state}, select=claim_id))
        self.app.notify(f"Undone: back to {state.decision}.", timeout=3)

    @work(exclusive=True, group="states", exit_on_error=False)
    async def refresh_states(self, claims: list[Claim]) -> None:
        """Re-read the states of ``claims`` (evidence under their verdicts may have changed)."""
        if not claims:
            return
        try:
            states = await self.session.store_call(self.session.need_port().states, claims)
        except CaasError as exc:
            self.app.notify(str(exc), severity="warning", markup=False)
            return
        self.post_message(self.StatesChanged(states))

    # -- reviews ----------------------------------------------------------------------
    @property
    def reviewing(self) -> bool:
        return self._cancel is not None and not self._cancel.is_set()

    def review_doc(self, claims: list[Claim], *, claude: bool) -> None:
        """Review every claim of the open doc; with Claude only given an API key (else statically, saying so)."""
        if claude and not os.environ.get("ANTHROPIC_API_KEY", "").strip():
            self.app.notify("ANTHROPIC_API_KEY is not set: reviewing the doc with the static reviewer instead.",
                            severity="warning", timeout=6)
            claude = False
        if not claims:
            self.app.notify("This doc has no claims to review.", severity="warning")
            return
        self.start_review(list(claims), "claude" if claude else "static", whole_doc=True)

    def run_code(self, claims: list[Claim]) -> None:
        """Run the open doc's code blocks in the sandbox (reviewer ``execute``)."""
        if not any(c.kind == "code" for c in claims):
            self.app.notify("This doc has no code blocks to run.", severity="warning")
            return
        self.start_review(list(claims), "execute", whole_doc=True)

    def start_review(self, claims: list[Claim], reviewer: str, *, whole_doc: bool = False) -> None:
        """Review ``claims`` in a worker; ``whole_doc``: they are every claim of the open doc."""
        if self.reviewing:
            self.app.notify("A review is already running (escape cancels it).", severity="warning")
            return
        self._cancel = threading.Event()
        self.run_review(claims, reviewer, self._cancel, whole_doc)

    def cancel(self) -> bool:
        """Ask the running review to stop; False if none runs."""
        if self._cancel is None or self._cancel.is_set():
            return False
        self._cancel.set()
        self.post_message(self.Progress("Cancelling the review…"))
        return True

    @work(thread=True, group="review", exit_on_error=False)
    def run_review(self, claims: list[Claim], reviewer: str, cancel: threading.Event, whole_doc: bool) -> None:
        who = _WHO.get(reviewer, "static reviewer")
        cost: list[str] = [""]  # the latest running tally (usage arrives from Claude's pool threads)

        def progress(done: int, total: int, message: str) -> None:
            self.post_message(self.Progress(Text(f"Reviewing with {who}: {done}/{total}  {message}"), done, total))

        def on_usage(usage: Any) -> None:
            describe = getattr(usage, "describe", None)
            cost[0] = describe() if callable(describe) else str(usage)
            self.post_message(self.Progress(None, right=Text(f"Claude: {cost[0]}")))

        self.post_message(self.Progress(f"Reviewing {counted(len(claims), 'claim')} with {who}…", 0, len(claims)))
        port = self.session.need_port()
        try:
            batch = port.review(claims, reviewer, progress=progress, on_usage=on_usage, cancel=cancel)
            states = self.session.store_call_sync(port.record, claims, batch.verdicts, whole_doc=whole_doc,
                                                  executed=reviewer == "execute" and batch.complete)
        except CaasError as exc:
            self.post_message(self.Finished({}, f"Review failed: {exc}", "error"))
            return
        finally:
            cancel.set()
        short = reviewer != "execute" and len(batch.verdicts) < len(claims)  # a run stores only the runs that decide
        cancelled = get_current_worker().is_cancelled or not batch.complete or short
        if reviewer == "execute":
            note = f"Ran the code of {claims[0].doc_path}: {counted(len(batch.verdicts), 'block')} judged by the run"
        else:
            note = f"Reviewed {len(batch.verdicts)}/{counted(len(claims), 'claim')} with {who}"
        if reviewer == "claude" and cost[0]:
            note += f" ({cost[0]})"
        note += " — cancelled" if cancelled else ""
        note += "".join(f"\n{line}" for line in batch.notes)
        self.post_message(self.Finished(states, note, "information", batch.warnings))

    @work(group="review-stale", exit_on_error=False)
    async def find_stale(self, docs: list[str]) -> None:
        """Find exactly the claims whose verdicts are stale in ``docs``."""
        try:
            claims = await self.session.store_call(self.session.need_port().stale_claims, docs)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.post_message(self.StaleClaims(docs, claims))
