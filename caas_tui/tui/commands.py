"""Command palette entries (ctrl+k): review, export, search mode and kinds, chain, docs."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from caas_tui.models import KINDS, MODES
from caas_tui.tui.screens.main import MainScreen


class CaasCommands(Provider):
    """Every triage action by name, plus "Open doc: <path>" for each doc."""

    def _main(self) -> MainScreen | None:
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, MainScreen):
                return screen
        return None

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        main = self._main()
        if main is None:
            return []
        # Run actions on the triage screen even when the palette was opened elsewhere.

        def act(name: str) -> Callable[[], object]:
            return partial(main.run_action, name)

        cmds: list[tuple[str, Callable[[], object], str]] = [
            ("Review claim (static)", act("review_claim"), "Check the selected claim with the static reviewer"),
            ("Review doc (static)", act("review_doc"), "Check every claim of the open doc"),
            ("Review doc with Claude", act("review_claude"), "Needs ANTHROPIC_API_KEY"),
            ("Re-review stale verdicts", act("rereview_stale"), "Check again, statically, every claim whose verdict went stale"),
            ("Cancel review", partial(main.cancel_review), "Stop the running review"),
            ("Accept verdict", act("accept"), "Accept the selected claim's verdict and fix"),
            ("Reject verdict", act("reject"), "Reject the selected claim's verdict"),
            ("Edit fix", act("edit"), "Write your own replacement for the claim"),
            ("Undo last decision", act("undo"), "Undo the most recent accept/reject/edit"),
            ("Export accepted fixes", act("export"), "Show the patch; write or apply it"),
            ("Open chain", act("chain"), "Related code around the selected claim or hit"),
            ("Open in $EDITOR", act("open_editor"), "The selected hit or claim, at its line"),
            ("Help: key bindings", partial(self.app.run_action, "help"), "Every key binding"),
        ]
        for mode in MODES:
            cmds.append((f"Search mode: {mode}", partial(main.set_mode, mode), f"Rank hits by {mode}"))
        for kind in KINDS:
            cmds.append((f"Toggle kind: {kind}", partial(main.toggle_kind, kind), f"Show or hide {kind} hits"))
        for path in main.doc_paths():
            cmds.append((f"Open doc: {path}", partial(main.open_doc, path), "Show this doc and its claims"))
        return cmds

    async def discover(self) -> Hits:
        for name, run, help_text in self._commands():
            if not name.startswith("Open doc:"):
                yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
