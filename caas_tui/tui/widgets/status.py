"""The status line: what is running (with a progress bar), the verdict tally, Claude's cost."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import ProgressBar, Static

from caas_tui.tui.render import tally_text
from caas_tui.tui.triage import Tally


class StatusLine(Horizontal):
    """One row above the footer. Shows no clock or timings, so screenshots are stable."""

    DEFAULT_CSS = """
    StatusLine { height: 1; }
    StatusLine > #status-msg { width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    StatusLine > ProgressBar { width: 32; height: 1; display: none; }
    StatusLine > ProgressBar.-busy { display: block; }
    StatusLine > #status-right { width: auto; height: 1; margin-left: 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="status-msg", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="status-bar")
        yield Static("", id="status-right", markup=False)

    def message(self, text: str | Text) -> None:
        self.query_one("#status-msg", Static).update(text if isinstance(text, Text) else Text(text))

    def right(self, text: str | Text) -> None:
        self.query_one("#status-right", Static).update(text if isinstance(text, Text) else Text(text))

    def progress(self, done: int | None, total: int | None) -> None:
        """Show the bar at ``done/total`` (``total=None``: indeterminate); ``done=None`` hides it."""
        bar = self.query_one(ProgressBar)
        if done is None:
            bar.remove_class("-busy")
            return
        bar.add_class("-busy")
        bar.update(total=total, progress=done)

    def report(self, text: str | Text | None, done: int | None = None, total: int | None = None,
               right: str | Text | None = None) -> None:
        """``text`` (if any) with the bar at ``done/total`` (if ``done`` is given), ``right`` (if any)."""
        if done is not None:
            self.progress(done, total)
        if text is not None:
            self.message(text)
        if right is not None:
            self.right(right)

    def tally(self, tally: Tally, *, compact: bool) -> None:
        """The open doc's verdicts and decisions, on the right."""
        text = tally_text(tally.counts, compact=compact)
        if tally.total:
            text.append(f" {tally.decided}/{tally.total} decided" if compact
                        else f"decided {tally.decided}/{tally.total}", style="dim")
        self.right(text)
