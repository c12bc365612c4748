"""The status line: what is running (with a progress bar), the verdict tally, Claude's cost;
and the footer, which shows the bindings that fit the terminal's width."""

from __future__ import annotations

from typing import Protocol, TypeGuard, runtime_checkable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer, ProgressBar, Static

from caas_tui.tui.keys import FOOTER_PRIORITY, FOOTER_SHORT
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


PALETTE_CELLS = 14  # the command palette key on the right


@runtime_checkable
class KeyItem(Protocol):
    """What the footer yields for a binding. Textual keeps its class private, so the footer
    recognises its key items by their public attributes instead of importing it."""

    key_display: str
    description: str
    action: str

    def has_class(self, *class_names: str) -> bool: ...


def _is_key(item: object) -> TypeGuard[KeyItem]:
    return isinstance(item, KeyItem) and not item.has_class("-command-palette")


class CaasFooter(Footer):
    """A footer that never overflows: keys by FOOTER_PRIORITY while they fit, short words when narrow."""

    def compose(self) -> ComposeResult:
        width = self.app.size.width
        narrow = width < 120
        items = list(super().compose())
        keys = [w for w in items if _is_key(w)]
        for key in keys:
            if narrow and key.action in FOOTER_SHORT:
                key.description = FOOTER_SHORT[key.action]
        rank = {action: i for i, action in enumerate(FOOTER_PRIORITY)}
        keys.sort(key=lambda k: rank.get(k.action, len(rank)))  # keys of other screens come last
        room, shown = width - PALETTE_CELLS, set()
        for key in keys:
            cells = len(key.key_display) + len(key.description) + (2 if narrow else 3)
            if cells <= room:
                room -= cells
                shown.add(id(key))
        for item in items:
            if not _is_key(item) or id(item) in shown:
                yield item

    async def on_resize(self) -> None:
        if self.size.width != getattr(self, "_laid_out_for", None):
            self._laid_out_for = self.size.width
            self.compact = self.app.size.width < 120
            await self.recompose()
