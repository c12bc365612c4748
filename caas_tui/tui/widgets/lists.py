"""The docs list and the claims list (left column)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from caas_tui.models import Claim
from caas_tui.tui.doc_groups import doc_groups
from caas_tui.tui.render import claim_prompt
from caas_tui.tui.state import PENDING, ClaimState, DocEntry

_DOC_ICON = {"markdown": "md ", "rst": "rst", "python": "py ", "text": "txt"}


class DocList(OptionList):
    """Project docs: guides and tutorials first, then Python modules (for their docstrings).

    ``docs`` is the list as given; the options add a heading per group, so select docs by path."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.docs: list[DocEntry] = []

    def show(self, docs: Sequence[DocEntry]) -> None:
        """List ``docs`` grouped as the doc picker groups them, under a heading per group."""
        self.docs = list(docs)
        options = []
        for title, group in doc_groups(docs):
            heading = Text(f"{title} ({len(group)})", style="bold underline", no_wrap=True, overflow="ellipsis")
            options.append(Option(heading, disabled=True))
            for doc in group:
                prompt = Text()
                prompt.append(_DOC_ICON.get(doc.language, "   ") + " ", style="dim")
                prompt.append(doc.path)
                options.append(Option(prompt, id=doc.path))
        self.set_options(options)
        modules = sum(1 for d in docs if d.language == "python")
        self.border_title = f"Docs {len(docs) - modules}+{modules} · d"

    def select_path(self, path: str) -> None:
        with contextlib.suppress(OptionDoesNotExist):  # not listed (any more): the highlight stays
            self.highlighted = self.get_option_index(path)

    def replace(self, docs: Sequence[DocEntry], keep: str | None) -> None:
        """Show a new list, the highlight staying on ``keep`` without loading it again."""
        with self.prevent(OptionList.OptionHighlighted):
            self.show(docs)
            if keep is not None:
                self.select_path(keep)


class ClaimList(OptionList):
    """Claims of the open doc, each marked with its verdict colour and decision."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Next claim", show=False),
        Binding("k", "cursor_up", "Previous claim", show=False),
    ]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.claims: list[Claim] = []

    def show(self, claims: Sequence[Claim], states: Mapping[str, ClaimState]) -> None:
        self.claims = list(claims)
        self.set_options(Option(self._prompt(c, states.get(c.id)), id=c.id) for c in claims)
        if claims:
            self.highlighted = 0

    def refresh_states(self, states: Mapping[str, ClaimState]) -> None:
        """Repaint the prompts of claims whose state changed (keeps the highlight)."""
        for claim in self.claims:
            if claim.id in states:
                self.replace_option_prompt(claim.id, self._prompt(claim, states[claim.id]))

    @staticmethod
    def _prompt(claim: Claim, state: ClaimState | None) -> Text:
        return claim_prompt(claim, state or PENDING)

    @property
    def current(self) -> Claim | None:
        idx = self.highlighted
        if idx is None or not 0 <= idx < len(self.claims):
            return None
        return self.claims[idx]

    def move(self, step: int) -> None:
        if self.option_count:
            self.action_cursor_down() if step > 0 else self.action_cursor_up()

    def select_claim(self, claim_id: str) -> None:
        with contextlib.suppress(OptionDoesNotExist):  # not listed (any more): the highlight stays
            self.highlighted = self.get_option_index(claim_id)

    def select_near(self, claim_id: str, line: int) -> None:
        """Highlight ``claim_id``; if an edit changed its text (and so its id), the claim
        now covering ``line``, else the nearest one."""
        if not self.claims:
            return
        ids = [c.id for c in self.claims]
        if claim_id in ids:
            self.highlighted = ids.index(claim_id)
            return
        def distance(c: Claim) -> int:
            return 0 if c.start_line <= line <= c.end_line else min(abs(c.start_line - line), abs(c.end_line - line))

        self.highlighted = min(range(len(self.claims)), key=lambda i: (distance(self.claims[i]), i))
