"""The evidence pane: ranked hits and the selected hit's text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from caas_tui.models import Hit
from caas_tui.tui.render import code_view, hit_cells, hit_header
from caas_tui.tui.widgets.panes import ScrollPane

COLUMNS = ("#", "kind", "bm25", "dense", "score", "location", "symbol")


class HitTable(DataTable[Text]):
    """One row per hit: rank, kind, path:lines, symbol, bm25 rank, dense rank, fused score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Next hit", show=False),
        Binding("k", "cursor_up", "Previous hit", show=False),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.hits: list[Hit] = []

    def on_mount(self) -> None:
        for name in COLUMNS:
            self.add_column(name, key=name)

    def show(self, hits: Sequence[Hit], keep: str | None = None) -> None:
        """Show ``hits``, the cursor on the hit of chunk ``keep`` if it is still there (a
        re-run after a file changed should not lose the writer's place), else the first."""
        self.hits = list(hits)
        self.clear()
        for hit in hits:
            self.add_row(*hit_cells(hit), key=hit.chunk.id)
        if hits:
            ids = [h.chunk.id for h in hits]
            self.move_cursor(row=ids.index(keep) if keep in ids else 0, animate=False)

    @property
    def current(self) -> Hit | None:
        if not self.hits or not 0 <= self.cursor_row < len(self.hits):
            return None
        return self.hits[self.cursor_row]


class HitPreview(ScrollPane):
    """The selected hit's text, syntax-highlighted, numbered from its first line in the file."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("Type a query or pick a claim: hits show here.", **kwargs)

    def show_hit(self, hit: Hit | None) -> None:
        if hit is None:
            self.show(Text("No hit selected.", style="dim"))
            return
        c = hit.chunk
        self.border_subtitle = f"{c.path}:{c.start_line}"
        self.show(Group(hit_header(hit), code_view(c.text, c.language, c.start_line, self.background_hex)))
