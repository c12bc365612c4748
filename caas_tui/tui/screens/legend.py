"""The legend: what each verdict glyph, decision letter and evidence column means.

Its own module because two places show it: the help screen (after the keys) and ``?`` on
the evidence pane; the help screen reads every screen's bindings, so the evidence widget
importing it would close a circle through the triage screen.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from caas_tui.tui.hits_view import LEGEND
from caas_tui.tui.render import VERDICT_FG, VERDICT_GLYPH, VERDICT_ORDER

VERDICT_MEANING = {
    "consistent": "the code agrees with the claim",
    "contradicted": "the code says otherwise (a fix is usually proposed)",
    "incomplete": "partly right: something the code needs is missing",
    "unverified": "nothing in the code to check it against",
    "stale": "the doc or its evidence changed since the review: R re-reviews",
    "pending": "not reviewed yet: c this claim, C the doc",
}
DECISION_MEANING = {"accepted": "A", "rejected": "R", "edited": "E", "needs another look": "!"}


def legend_table(*, columns_first: bool = False) -> Table:
    """Verdict glyphs and decision letters and the evidence table's columns (``columns_first``:
    the columns on top, for ``?`` on the evidence pane)."""
    table = Table(box=None, show_header=False, padding=(0, 2), expand=False)
    table.add_column("mark", style="bold", no_wrap=True, width=20)
    table.add_column("means")
    def verdicts() -> None:
        table.add_row(Text("Verdicts", style="bold underline"), "")
        for label in VERDICT_ORDER:
            table.add_row(Text(f"{VERDICT_GLYPH[label]} {label}", style=f"bold {VERDICT_FG[label]}"),
                          Text(VERDICT_MEANING[label]))
        table.add_row(Text("Decisions", style="bold underline"),
                      Text("the letter after the glyph in the claims list", style="dim"))
        for decision, letter in DECISION_MEANING.items():
            table.add_row(Text(f"{letter} {decision}"), Text(""))
        table.add_row("", "")

    def columns() -> None:
        table.add_row(Text("Evidence columns", style="bold underline"),
                      Text("a narrow pane keeps location, then #, rel, why, kind, agree, symbol", style="dim"))
        for column, meaning in LEGEND:
            table.add_row(Text(column, style="bold #ffaf00"), Text(meaning))
        table.add_row("", "")

    for part in (columns, verdicts) if columns_first else (verdicts, columns):
        part()
    return table


class LegendScreen(ModalScreen[None]):
    """``?`` on the evidence pane: what the glyphs and the columns mean."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss_legend", "Close legend")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static(Text("Legend  (esc closes; F1 lists every key)", style="italic"), markup=False)
            with VerticalScroll():
                yield Static(legend_table(columns_first=True), markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_dismiss_legend(self) -> None:
        self.dismiss(None)
