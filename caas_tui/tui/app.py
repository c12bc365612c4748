"""The review app: a thin shell that opens a Session and shows the triage screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from caas_tui.tui.commands import CaasCommands
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.session import Session


class CaasApp(App[None]):
    """``caas-tui [DIR]``: triage a project's doc claims against its code."""

    CSS_PATH = "app.tcss"
    TITLE = "caas-tui"
    COMMANDS = App.COMMANDS | {CaasCommands}
    COMMAND_PALETTE_BINDING = "ctrl+k"  # ctrl+p picks a doc (the editor habit), see MainScreen
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit"),
    ]
    # Below 120 columns the layout tightens (see app.tcss: `.-narrow`).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    def __init__(
        self,
        root: Path | str = ".",
        *,
        index_dir: Path | str | None = None,
        model: str | None = None,
        initial_doc: str | None = None,
    ) -> None:
        super().__init__()
        self.session = Session(root, index_dir=index_dir, model=model)
        self.initial_doc = initial_doc
        self.sub_title = self.session.root.name

    def get_default_screen(self) -> Screen[None]:
        return MainScreen(self.session, self.initial_doc)

    def action_help(self) -> None:
        from caas_tui.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def on_unmount(self) -> None:
        # Closing flushes the store and releases the index lock; off the UI thread.
        await asyncio.to_thread(self.session.close)
