"""Export: the patch of accepted fixes, then write it to a file or apply it to the docs."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from caas_tui.errors import CaasError
from caas_tui.review.textutil import counted
from caas_tui.tui.render import diff_view
from caas_tui.tui.screens.base import CaasScreen
from caas_tui.tui.screens.modals import ConfirmScreen, PathScreen
from caas_tui.tui.session import Session
from caas_tui.tui.widgets.panes import ScrollPane


class ExportScreen(CaasScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "write", "Write patch"),
        Binding("A", "apply", "Apply to docs"),
        Binding("escape,q", "back", "Back"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.patch: str = ""
        self.summary: str = ""  # the status: counts, then one line per accepted verdict
        self.applied = False  # the docs on disk changed: the triage screen reloads

    def compose(self) -> ComposeResult:
        yield ScrollPane("Building the patch…", id="patch", classes="pane")
        yield Static(id="export-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#patch").border_title = "Accepted fixes"
        self.query_one("#patch").focus()
        self.load()

    def _status(self, message: str) -> None:
        self.query_one("#export-status", Static).update(Text(message, style="dim"))

    @work(exclusive=True, group="export", exit_on_error=False)
    async def load(self) -> None:
        summary: list[str] = []
        try:
            self.patch, summary = await self.session.store_call(self.session.need_port().export_preview)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            self.patch = ""
        pane = self.query_one("#patch", ScrollPane)
        pane.show(diff_view(self.patch, pane.background_hex))
        files = sum(1 for line in self.patch.split("\n") if line.startswith("+++ "))
        hunks = sum(1 for line in self.patch.split("\n") if line.startswith("@@"))
        message = (f"{counted(hunks, 'change')} in {counted(files, 'file')}  ·  w writes a patch, A applies them to the docs"
                   if self.patch.strip() else "No fixes to export.")
        # One line per accepted verdict, then the refusals: whole sentences (the status wraps);
        # a reason cut mid-sentence says nothing.
        message += "".join(f"\n{line}" for line in summary)
        self.summary = message
        self._status(message)

    def action_write(self) -> None:
        if not self.patch.strip():
            self.app.notify("Nothing to write: accept some fixes first.", severity="warning")
            return

        def chosen(path: str | None) -> None:
            if path:
                self.write(path)

        self.app.push_screen(PathScreen("Write the patch to (relative to the project root):",
                                        self.session.default_export_path()), chosen)

    @work(group="export-write", exit_on_error=False)
    async def write(self, path: str) -> None:
        try:
            written = await asyncio.to_thread(self.session.write_patch, self.patch, path)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.app.notify(f"Wrote {written}", markup=False)
        self._status(f"Wrote {written}\n{self.summary}")  # where it went, and the summary still there

    def action_apply(self) -> None:
        if not self.patch.strip():
            self.app.notify("Nothing to apply: accept some fixes first.", severity="warning")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.apply()

        self.app.push_screen(ConfirmScreen("Apply the accepted fixes to the doc files on disk?"), confirmed)

    @work(group="export-write", exit_on_error=False)
    async def apply(self) -> None:
        try:
            changed, refused = await self.session.store_call(self.session.need_port().apply)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.app.notify(f"Applied fixes to {counted(len(changed), 'file')}: {', '.join(changed)}", markup=False)
        for reason in refused:
            self.app.notify(reason, severity="warning", markup=False)
        self.applied = True
        self.load()

    def action_back(self) -> None:
        self.dismiss(None)
