"""The doc picker (``d``, ctrl+p): guides and tutorials first, API modules apart, a fuzzy
filter as you type, and per doc how many claims it has, how many are flagged and decided.

The counts come from the verdict store in a thread worker, so the picker opens at once
and fills its numbers in when they are ready.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from caas_tui.errors import CaasError
from caas_tui.tui.doc_groups import doc_groups, fuzzy_score, ordered
from caas_tui.tui.session import Session
from caas_tui.tui.state import DocEntry

__all__ = ["DocCounts", "DocPicker", "doc_counts", "fuzzy_score", "ordered"]

FLAGGED = frozenset({"contradicted", "incomplete", "stale"})


@dataclass(frozen=True, slots=True)
class DocCounts:
    claims: int
    flagged: int
    decided: int


def doc_counts(session: Session, path: str) -> DocCounts:
    """Claims, flagged and decided verdicts of one doc (blocks: call from a worker thread).
    Read-only: a verdict whose doc lines changed counts as flagged (stale) but is marked
    stale only when the doc is opened, as opening it shows why."""
    claims = session.claims(path)
    states = session.store_call_sync(session.need_port().states, claims, mark=False) if claims else {}
    return DocCounts(
        len(claims),
        sum(1 for s in states.values() if s.label in FLAGGED),
        sum(1 for s in states.values() if s.decision != "pending"),
    )


class DocPicker(ModalScreen[str | None]):
    """Type to filter; up/down to move; enter opens the doc; escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close the picker"),
        Binding("down", "move(1)", "Next doc", show=False),
        Binding("up", "move(-1)", "Previous doc", show=False),
        Binding("enter", "pick", "Open the doc", show=False),
    ]

    def __init__(self, session: Session, docs: Sequence[DocEntry], current: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.docs = list(docs)
        self.current = current
        self.counts: dict[str, DocCounts] = {}
        self.filled_width = 0  # the width the shown rows were padded to (0: not filled yet)
        self.shows_counts = False  # whether the shown rows carry the counts

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog picker"):
            yield Input(placeholder="Type to filter docs (fuzzy): tut, api gd, scene.py", id="picker-query")
            yield OptionList(id="picker-list")
            yield Static("", id="picker-status", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._fill("")
        self.count_all()

    @property
    def options(self) -> OptionList:
        return self.query_one(OptionList)

    def _prompt(self, doc: DocEntry, width: int) -> Text:
        counts = self.counts.get(doc.path)
        tail = Text(no_wrap=True)
        if counts is None:
            tail.append("…", style="dim")
        else:
            plural = "claims" if counts.claims != 1 else "claim "
            tail.append(f"{counts.claims:>3} {plural}", style="dim" if not counts.claims else "")
            tail.append(f" {counts.flagged:>3} flagged", style="bold #ff5f5f" if counts.flagged else "dim")
            tail.append(f" {counts.decided:>3} decided", style="dim" if not counts.decided else "")
        room = max(10, width - tail.cell_len - 2)
        name = doc.path if len(doc.path) <= room else "…" + doc.path[-(room - 1):]  # keep the file name
        line = Text(no_wrap=True)
        line.append(name, style="bold" if doc.path == self.current else "")
        line.append(" " * max(1, width - len(name) - tail.cell_len))
        line.append_text(tail)
        return line

    def on_resize(self) -> None:
        self.call_after_refresh(self._refill)

    def _refill(self) -> None:
        if self.is_attached:
            self._fill(self.query_one(Input).value)

    def _fill(self, query: str) -> None:
        region = self.options.scrollable_content_region.width
        if region <= 0:
            # Before the first layout the list has no width to pad the counts to: fill once it has
            # one, or the counts would sit at a made-up column (and differ by timing).
            self.call_after_refresh(self._refill)
            return
        groups = doc_groups(self.docs, query)
        width = max(30, region - 1)
        options: list[Option | None] = []
        for title, docs in groups:
            if options:
                options.append(None)
            options.append(Option(Text(f"{title} ({len(docs)})", style="bold underline"), disabled=True))
            options += [Option(self._prompt(d, width), id=d.path) for d in docs]
        listing = self.options
        highlighted = listing.highlighted_option.id if listing.highlighted_option is not None else None
        listing.set_options(options)
        keep = highlighted if query == "" and highlighted else (self.current if not query else None)
        ids = [o.id for o in options if o is not None and o.id is not None and not o.disabled]
        if ids:
            listing.highlighted = listing.get_option_index(keep if keep in ids else ids[0])
        self.filled_width, self.shows_counts = width, bool(self.counts)
        shown = sum(len(docs) for _, docs in groups)
        self.query_one("#picker-status", Static).update(Text(
            f"{shown} of {len(self.docs)} docs · flagged: contradicted, incomplete or stale",
            style="dim"))

    @on(Input.Changed, "#picker-query")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#picker-query")
    def _submitted(self) -> None:
        self.action_pick()

    @on(OptionList.OptionSelected, "#picker-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is not None:
            self.dismiss(event.option_id)

    def action_move(self, step: int) -> None:
        self.options.action_cursor_down() if step > 0 else self.options.action_cursor_up()

    def action_pick(self) -> None:
        option = self.options.highlighted_option
        if option is not None and option.id is not None:
            self.dismiss(option.id)

    def action_close(self) -> None:
        self.dismiss(None)

    @work(thread=True, exclusive=True, group="doc-counts", exit_on_error=False)
    def count_all(self) -> None:
        worker = get_current_worker()
        counts: dict[str, DocCounts] = {}
        for doc in self.docs:
            if worker.is_cancelled:
                return
            try:
                counts[doc.path] = doc_counts(self.session, doc.path)
            except CaasError:
                continue  # an unreadable doc shows no numbers; opening it says why
        if not worker.is_cancelled:
            self.app.call_from_thread(self._counted, counts)

    def _counted(self, counts: dict[str, DocCounts]) -> None:
        self.counts = counts
        self._refill()
