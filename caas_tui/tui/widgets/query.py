"""The live query box and its filter chips (search mode and kinds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input

from caas_tui.models import KINDS, MODES


@dataclass(frozen=True, slots=True)
class Query:
    """What the query bar asks for: the text, the search mode, the kinds (``None``: every kind)."""

    text: str
    mode: str
    kinds: tuple[str, ...] | None
    own_doc: bool = False  # a claim's own doc section counts as evidence (off: it is hidden)


OWN_DOC = "own doc"
_SHORT = {"hybrid": "hyb", "dense": "dns", "code": "c", "test": "t", "doc": "d", "upstream": "u", "api": "a",
          OWN_DOC: "own"}


class FilterBar(Widget, can_focus=True):
    """One line of chips: ``hybrid bm25 dense │ code test doc upstream api │ own doc``.

    Left/right move between chips, space toggles a kind (or picks a mode), enter
    keeps only that kind (enter again shows all). No kind on means no filter.
    ``own doc`` brings back the claim's own doc section as evidence. ``compact``
    (a narrow terminal) shortens the chips to fit beside the query box.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous chip", show=False),
        Binding("right", "move(1)", "Next chip", show=False),
        Binding("space", "toggle_chip", "Toggle", show=False),
        Binding("enter", "solo", "Only this kind", show=False),
    ]
    DEFAULT_CSS = "FilterBar { height: 1; width: auto; }"

    mode: reactive[str] = reactive("hybrid")
    kinds: reactive[frozenset[str]] = reactive(frozenset(KINDS))
    cursor: reactive[int] = reactive(0)
    own_doc: reactive[bool] = reactive(False)
    compact: reactive[bool] = reactive(False, layout=True)

    class Changed(Message):
        def __init__(self, mode: str, kinds: tuple[str, ...]) -> None:
            super().__init__()
            self.mode = mode
            self.kinds = kinds

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._spans: list[tuple[int, int]] = []

    @property
    def chips(self) -> tuple[str, ...]:
        return (*MODES, *KINDS, OWN_DOC)

    @property
    def kind_filter(self) -> tuple[str, ...] | None:
        """Kinds to pass to the engine: ``None`` when every kind is on."""
        if self.kinds == frozenset(KINDS) or not self.kinds:
            return None
        return tuple(k for k in KINDS if k in self.kinds)

    def render(self) -> Text:
        out = Text(no_wrap=True)
        spans: list[tuple[int, int]] = []
        for i, chip in enumerate(self.chips):
            if i in (len(MODES), len(MODES) + len(KINDS)):
                out.append("│" if self.compact else " │ ", style="dim")
            on = chip == self.mode if chip in MODES else self.own_doc if chip == OWN_DOC else chip in self.kinds
            style = ("bold reverse" if chip in MODES else "bold") if on else "dim"
            if self.has_focus and i == self.cursor:
                style += " underline"
            start = out.cell_len
            out.append(f" {_SHORT.get(chip, chip) if self.compact else chip} ", style=style)
            spans.append((start, out.cell_len))
        self._spans = spans
        return out

    def _post(self) -> None:
        self.post_message(self.Changed(self.mode, self.kind_filter or ()))

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.chips)

    def action_toggle_chip(self) -> None:
        self._activate(self.chips[self.cursor])

    def action_solo(self) -> None:
        chip = self.chips[self.cursor]
        if chip in MODES or chip == OWN_DOC:
            self._activate(chip)
            return
        self.kinds = frozenset(KINDS) if self.kinds == {chip} else frozenset({chip})
        self._post()

    def _activate(self, chip: str) -> None:
        if chip in MODES:
            self.mode = chip
        elif chip == OWN_DOC:
            self.own_doc = not self.own_doc
        else:
            self.kinds = self.kinds - {chip} if chip in self.kinds else self.kinds | {chip}
        self._post()

    def cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        self._post()

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self._post()

    def toggle_kind(self, kind: str) -> None:
        self._activate(kind)

    def on_click(self, event: Click) -> None:
        for i, (start, end) in enumerate(self._spans):
            if start <= event.x < end:
                self.cursor = i
                self._activate(self.chips[i])
                break


class QueryBar(Horizontal):
    """The query box beside its chips; one ``Changed`` message for either."""

    DEFAULT_CSS = "QueryBar { height: auto; }"

    class Changed(Message):
        """``typed``: the writer typed in the box (else a filter chip moved)."""

        def __init__(self, query: Query, *, typed: bool) -> None:
            super().__init__()
            self.query = query
            self.typed = typed

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Search as you type  (ctrl+f to focus, esc to leave)", id="query")
        yield FilterBar(id="filters")

    @property
    def input(self) -> Input:
        return self.query_one("#query", Input)

    @property
    def filters(self) -> FilterBar:
        return self.query_one(FilterBar)

    def current(self, text: str | None = None) -> Query:
        """The query as it stands (``text``: the box's text as a message reported it)."""
        filters = self.filters
        return Query(self.input.value if text is None else text, filters.mode, filters.kind_filter, filters.own_doc)

    def prefill(self, text: str) -> Query:
        """Put ``text`` in the box without it counting as typing; returns the query it makes."""
        box = self.input
        with box.prevent(Input.Changed):
            box.value = text
        box.cursor_position = 0
        return self.current()

    def on_resize(self) -> None:
        self.filters.compact = self.size.width < 120

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self.current(event.value), typed=True))

    def on_filter_bar_changed(self, event: FilterBar.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self.current(), typed=False))
