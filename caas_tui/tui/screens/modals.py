"""Small modal dialogs: edit a fix, confirm, ask for a path."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea
from textual.widgets.text_area import LanguageDoesNotExist


class EditFixScreen(ModalScreen[str | None]):
    """Edit the replacement text for a claim's doc lines. ctrl+s saves, escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save fix", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, text: str, where: str, doc_path: str) -> None:
        super().__init__()
        self._text = text
        self._where = where
        self._language = "markdown" if doc_path.endswith((".md", ".markdown")) else None

    def compose(self) -> ComposeResult:
        with Vertical(id="edit-box", classes="dialog"):
            yield Label(Text(f"Replacement for {self._where}", style="bold"), markup=False)
            yield TextArea(self._text, soft_wrap=True, show_line_numbers=True, id="fix-text")
            yield Label(Text("ctrl+s save as an edited fix · escape cancel", style="dim"), markup=False)

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        try:
            area.language = self._language
        except LanguageDoesNotExist:
            # tree-sitter without this grammar (other grammars pulled it in): plain text, as without tree-sitter.
            area.language = None
        area.focus()

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Yes/no. ``y``/enter confirm, ``n``/escape cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm"):
            yield Label(Text(self._question), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="warning")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PathScreen(ModalScreen[str | None]):
    """Ask for a file path (prefilled); enter accepts, escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, prompt: str, default: str) -> None:
        super().__init__()
        self._prompt = prompt
        self._default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm"):
            yield Label(Text(self._prompt), markup=False)
            yield Input(self._default, id="path")
            yield Label(Text("enter write · escape cancel", style="dim"), markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
