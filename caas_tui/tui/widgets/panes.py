"""Read-only panes: the doc (a line-API view), the verdict and the hit preview; the doc
panel (the doc over the selected claim's verdict)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from caas_tui.models import Claim
from caas_tui.tui.render import ClaimMark, render_doc, verdict_view
from caas_tui.tui.state import ClaimState


class ScrollPane(VerticalScroll, can_focus=True):
    """A focusable scrolling pane around one Static (arrow keys scroll it)."""

    def __init__(self, placeholder: str = "", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._placeholder = placeholder
        self.renderable: RenderableType = Text(placeholder)  # what the pane shows now

    def compose(self) -> ComposeResult:
        yield Static(Text(self._placeholder, style="dim"), classes="pane-body")

    @property
    def background_hex(self) -> str:
        """This pane's own background, for Syntax blocks (Rich's "default" would paint the terminal's)."""
        return self.background_colors[1].hex

    def show(self, renderable: RenderableType, *, home: bool = True) -> None:
        self.renderable = renderable
        self.query_one(".pane-body", Static).update(renderable)
        if home:
            self.scroll_home(animate=False)


class DocView(ScrollView, can_focus=True):
    """The open doc: a gutter of line numbers, prose wrapped under it, claims tinted.

    A line-API widget rather than one big Static: wrapping is done here, so the row of
    every source line is known and a claim can be scrolled into view exactly.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Scroll up", show=False),
        Binding("down", "scroll_down", "Scroll down", show=False),
        Binding("pageup", "page_up", show=False),
        Binding("pagedown", "page_down", show=False),
        Binding("home", "scroll_home", show=False),
        Binding("end", "scroll_end", show=False),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.path: str | None = None
        self.text: str = ""
        self.lines: list[str] = []
        self._pairs: list[tuple[Text, Text]] = [(Text(), Text("Pick a doc on the left.", style="dim"))]
        self._rows: list[Strip] = []
        self._row_of_line: list[int] = []
        self._built_width = -1

    def show_doc(self, path: str, text: str, marks: Iterable[ClaimMark]) -> None:
        changed = path != self.path
        self.path, self.text, self.lines = path, text, text.split("\n")
        self.border_title = path
        self._pairs = render_doc(text, marks)
        self._rebuild(force=True)
        if changed:
            self.scroll_to(y=0, animate=False)

    def clear(self, message: str) -> None:
        self.path, self.text, self.lines = None, "", []
        self._pairs = [(Text(), Text(message, style="dim"))]
        self._rebuild(force=True)

    def _rebuild(self, force: bool = False) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or (width == self._built_width and not force):
            return
        self._built_width = width
        console = self.app.console
        rows: list[Strip] = []
        row_of_line: list[int] = []
        for gutter, line in self._pairs:
            row_of_line.append(len(rows))
            gw = gutter.cell_len
            wrapped = line.wrap(console, max(8, width - gw), overflow="fold", no_wrap=False) if line.plain else [Text()]
            for i, part in enumerate(wrapped):
                lead = gutter if i == 0 else Text(" " * gw)
                segs = list(lead.render(console)) + list(part.render(console))
                rows.append(Strip(segs))
        self._rows, self._row_of_line = rows, row_of_line
        self.virtual_size = Size(width, len(rows))
        self.refresh()

    def on_resize(self, event: Resize) -> None:
        self._rebuild()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        style = self.rich_style
        if index >= len(self._rows):
            return Strip.blank(width, style)
        return self._rows[index].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)

    def reveal_line(self, line: int) -> None:
        """Scroll so ``line`` (1-based) is visible, a few rows below the top if it was not."""
        if not self._row_of_line:
            return
        row = self._row_of_line[max(0, min(line - 1, len(self._row_of_line) - 1))]
        top = round(self.scroll_y)
        height = max(1, self.scrollable_content_region.height)
        if top <= row < top + height - 2:
            return
        self.scroll_to(y=max(0, row - min(3, height // 4)), animate=False)


class DocPanel(Vertical):
    """The open doc, its claims tinted by verdict, over the selected claim's verdict."""

    def compose(self) -> ComposeResult:
        yield DocView(id="doc", classes="pane")
        yield ScrollPane("Pick a claim: its verdict shows here.", id="verdict", classes="pane")

    @property
    def view(self) -> DocView:
        return self.query_one(DocView)

    @property
    def verdict(self) -> ScrollPane:
        return self.query_one("#verdict", ScrollPane)

    def show_claim(self, claim: Claim, state: ClaimState, doc_path: str | None, marks: Iterable[ClaimMark]) -> None:
        """Select ``claim`` in the doc (if ``doc_path`` is the one shown) and show its verdict."""
        view = self.view
        if doc_path is not None and view.path == doc_path:
            view.show_doc(doc_path, view.text, marks)
            view.reveal_line(claim.start_line)
        pane = self.verdict
        pane.show(verdict_view(claim, state, view.lines, pane.background_hex))

    def no_claims(self, path: str) -> None:
        self.verdict.show(Text(f"No checkable claims found in {path}.", style="dim"))

    def gone(self, path: str) -> None:
        self.view.clear(f"{path} is gone.")
        self.verdict.show(Text(f"{path} was removed or renamed.", style="dim"))
