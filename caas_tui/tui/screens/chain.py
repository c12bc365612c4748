"""The chain view: related code across files as a tree; each hop opens to its text."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static, Tree
from textual.widgets.tree import TreeNode

from caas_tui.errors import CaasError
from caas_tui.models import Claim, Hit
from caas_tui.tui.chain_port import ChainItem, build_chains, short_name, targets_for
from caas_tui.tui.editor import open_in_editor
from caas_tui.tui.render import code_view
from caas_tui.tui.screens.base import CaasScreen
from caas_tui.tui.session import Session
from caas_tui.tui.widgets.panes import ScrollPane

_ROLE_STYLE = {"definition": "bold #5fd787", "called by": "#87afff", "calls": "#87d7ff", "delegates to": "#5fd7af",
               "test": "#d7af5f", "tested by": "#d7af5f",
               "example": "#ffaf00", "doc": "#afd787", "documented in": "#afd787", "upstream": "#d787d7",
               "upstream doc": "#d787d7", "mentioned by": "#d787d7"}


class ChainScreen(CaasScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back"),
        Binding("o", "open_editor", "Editor"),
        Binding("tab", "focus_next", "Switch pane", show=False),
    ]

    def __init__(self, session: Session, *, claim: Claim | None = None, hit: Hit | None = None) -> None:
        super().__init__()
        self.session = session
        self.claim = claim
        self.hit = hit
        self.names = targets_for(claim, hit)

    def compose(self) -> ComposeResult:
        with Horizontal(id="chain-body"):
            tree: Tree[ChainItem] = Tree("chain", id="chain-tree", classes="pane")
            tree.show_root = False
            yield tree
            yield ScrollPane("Pick a hop on the left to see its text.", id="chain-preview", classes="pane")
        yield Static(id="chain-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one(Tree)
        origin = self.hit.chunk.symbol if self.hit is not None else (
            f"{self.claim.doc_path}:{self.claim.start_line}" if self.claim else "")
        tree.border_title = f"Chain from {origin}"
        self.query_one("#chain-preview").border_title = "Hop"
        tree.focus()
        if not self.names:
            self._status("No symbol to follow: this claim names no code (select a hit and press x instead).")
            return
        self._status(f"Following {', '.join(self.names)}…")
        self.load()

    def _status(self, message: str) -> None:
        self.query_one("#chain-status", Static).update(Text(message, style="dim"))

    @work(exclusive=True, group="chain", exit_on_error=False)
    async def load(self) -> None:
        try:
            roots = await asyncio.to_thread(build_chains, self.session.need_engine(), self.names)
        except CaasError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        tree = self.query_one(Tree)
        for root in roots:
            node = tree.root.add(self._root_label(root), data=root, expand=True)
            self._grow(node, root)
        hops = sum(len(g.children) for r in roots for g in r.children)
        self._status(f"{hops} hops from {', '.join(self.names)}  ·  enter expands, o opens in $EDITOR")
        tree.move_cursor(tree.root.children[0] if tree.root.children else None)

    def _grow(self, node: TreeNode[ChainItem], item: ChainItem) -> None:
        for child in item.children:
            if child.children:
                sub = node.add(self._label(child), data=child, expand=child.path is None)
                self._grow(sub, child)
            else:
                node.add_leaf(self._label(child), data=child)

    @staticmethod
    def _root_label(item: ChainItem) -> Text:
        label = Text()
        label.append(item.symbol or item.label, style="bold")
        if item.path is not None:
            label.append(f"  {item.path}:{item.start_line}-{item.end_line}", style="dim")
        else:
            label.append("  (not in the symbol graph: related code found by search)", style="dim italic")
        return label

    @staticmethod
    def _label(item: ChainItem) -> Text:
        if item.path is None:
            return Text(item.label, style="bold")
        # The group heading names the relation; a coloured bullet keeps it visible per hop.
        label = Text()
        label.append("● ", style=_ROLE_STYLE.get(item.label, "dim"))
        name = short_name(item.symbol, item.path)
        if name:
            label.append(name + "  ")
        label.append(f"{item.path}:{item.start_line}", style="dim")
        return label

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[ChainItem]) -> None:
        item = event.node.data
        if item is not None and item.path is not None:
            self.show_hop(item)

    @work(exclusive=True, group="hop", exit_on_error=False)
    async def show_hop(self, item: ChainItem) -> None:
        assert item.path is not None
        text = item.text
        if text is None:
            try:
                text = await asyncio.to_thread(
                    self.session.need_engine().read_span, item.path, item.start_line, item.end_line)
            except CaasError as exc:
                self.app.notify(str(exc), severity="error", markup=False)
                return
        pane = self.query_one("#chain-preview", ScrollPane)
        pane.border_title = f"{item.label}: {item.path}:{item.start_line}-{item.end_line}"
        head = Text(item.symbol or item.path, style="bold")
        pane.show(Group(head, code_view(text, item.language, item.start_line, pane.background_hex)))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_open_editor(self) -> None:
        node = self.query_one(Tree).cursor_node
        item = node.data if node is not None else None
        if item is None or item.path is None:
            self.app.notify("Pick a hop (not a group) to open.", severity="warning")
            return
        open_in_editor(self.app, self.session, item.path, item.start_line)
