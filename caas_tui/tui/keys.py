"""The triage screen's keys and how the footer ranks them: one table, read by the screen
(its bindings), the footer (what fits) and the help screen (through the screen's bindings)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# Letter keys live on the screen, not on the app: a focused query box consumes printable keys
# before they bubble up, and the screen's check_action hides them while it has focus.
TRIAGE_BINDINGS: list[BindingType] = [
    Binding("ctrl+f", "focus_query", "Search"),
    Binding("slash", "focus_query", "Search", show=False),
    Binding("escape", "escape", "Leave/cancel", show=False),
    Binding("j", "move_claim(1)", "Next claim", show=False),
    Binding("k", "move_claim(-1)", "Prev claim", show=False),
    Binding("a", "accept", "Accept"),
    Binding("r", "reject", "Reject"),
    Binding("e", "edit", "Edit fix"),
    Binding("u", "undo", "Undo"),
    Binding("c", "review_claim", "Review"),
    Binding("C", "review_doc", "Review doc"),
    Binding("E", "run_code", "Run code"),
    Binding("ctrl+r", "review_claude", "Claude"),
    Binding("R", "rereview_stale", "Re-review stale"),
    Binding("x", "chain", "Chain"),
    Binding("o", "open_editor", "Editor"),
    Binding("p", "export", "Export"),
    Binding("f2", "cycle_mode", "Mode"),
    Binding("d", "focus_docs", "Docs"),
    Binding("ctrl+p", "focus_docs", "Docs", show=False),
]
# The actions on printable keys: not offered while the query box has focus.
LETTER_ACTIONS = frozenset({"move_claim", "accept", "reject", "edit", "undo", "review_claim", "review_doc", "run_code",
                            "rereview_stale", "chain", "open_editor", "export", "focus_docs"})

# Footer keys, most useful first: those that don't fit the width are left out (F1 lists all).
FOOTER_PRIORITY = ("help", "legend", "accept", "reject", "edit", "review_claim", "review_doc", "rereview_stale",
                   "focus_docs", "focus_query", "undo", "chain", "open_editor", "export", "run_code", "review_claude",
                   "cycle_mode", "quit")
# Shorter words below 120 columns, so more keys fit.
FOOTER_SHORT = {"edit": "Edit", "review_doc": "Doc", "rereview_stale": "Stale", "open_editor": "Edit file",
                "review_claude": "Claude", "focus_query": "Find", "run_code": "Run"}
