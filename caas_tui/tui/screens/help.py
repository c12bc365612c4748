"""Every key binding, read from the classes that define them (so the list can't go stale),
followed by the legend (``caas_tui.tui.screens.legend``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

from caas_tui.tui.screens.legend import legend_table

INTRO = (
    "Letter keys act on the panes; while the query box has focus they type text instead "
    "(escape leaves the box). d or ctrl+p picks a doc; ctrl+k opens the command palette."
)


def _sections(app_bindings: Iterable[BindingType]) -> list[tuple[str, list[Binding]]]:
    # Imported here: the screens import this module's neighbours, not the other way round.
    # The app's own bindings come from the running app (the app imports this screen).
    from caas_tui.tui.screens.chain import ChainScreen
    from caas_tui.tui.screens.docpicker import DocPicker
    from caas_tui.tui.screens.export import ExportScreen
    from caas_tui.tui.screens.main import MainScreen
    from caas_tui.tui.screens.modals import ConfirmScreen, EditFixScreen
    from caas_tui.tui.widgets.evidence import HitTable
    from caas_tui.tui.widgets.lists import ClaimList
    from caas_tui.tui.widgets.query import FilterBar

    def binds(cls: type[DOMNode]) -> list[Binding]:
        return [b for b in cls.BINDINGS if isinstance(b, Binding)]

    return [
        ("Everywhere", [b for b in app_bindings if isinstance(b, Binding)]
         + [Binding("ctrl+k", "command_palette", "Command palette")]),
        ("Triage screen", binds(MainScreen)),
        ("Lists and tables", binds(ClaimList) + binds(HitTable)
         + [Binding("up,down", "", "Move"), Binding("tab,shift+tab", "", "Next / previous pane")]),
        ("Filter chips (tab to them)", binds(FilterBar)),
        ("Doc picker", binds(DocPicker)),
        ("Chain view", binds(ChainScreen)),
        ("Export", binds(ExportScreen)),
        ("Edit fix", binds(EditFixScreen)),
        ("Confirm", binds(ConfirmScreen)),
    ]


def _key_name(key: str) -> str:
    names = {"slash": "/", "question_mark": "?", "escape": "esc", "space": "space"}
    return ", ".join(names.get(k.strip(), k.strip()) for k in key.split(","))


def help_table(app_bindings: Iterable[BindingType]) -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2), expand=False)
    table.add_column("key", style="bold #ffaf00", no_wrap=True, width=18)
    table.add_column("does")
    for title, bindings in _sections(app_bindings):
        table.add_row(Text(title, style="bold underline"), "")
        seen: set[tuple[str, str]] = set()
        for b in bindings:
            desc = b.description or b.action.replace("_", " ")
            key = _key_name(b.key)
            if (key, desc) in seen:
                continue
            seen.add((key, desc))
            table.add_row(Text(key), Text(desc))
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,question_mark", "dismiss_help", "Close help")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static(Text(INTRO, style="italic"), markup=False)
            with VerticalScroll():
                yield Static(help_table(type(self.app).BINDINGS), markup=False)
                yield Static(legend_table(), markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
