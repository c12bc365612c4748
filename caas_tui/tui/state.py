"""Plain values the screens pass around (no Textual, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass

from caas_tui.models import Fix, Verdict


@dataclass(frozen=True, slots=True)
class DocEntry:
    path: str
    language: str  # markdown | rst | text | python


@dataclass(frozen=True, slots=True)
class ClaimState:
    """What the writer sees for one claim: latest verdict, their decision, staleness."""

    verdict: Verdict | None
    decision: str = "pending"  # pending | accepted | rejected | edited | needs another look
    replacement: str | None = None  # the writer's edited fix text, if they edited it
    stale: bool = False
    original: Verdict | None = None  # the verdict as judged, once it went stale
    proposed_fix: Fix | None = None  # the reviewer's fix (kept through staleness)
    decided: Verdict | None = None  # the verdict the decision was made on, when a later review changed it
    decided_at: float | None = None
    also: tuple[Verdict, ...] = ()  # another reviewer's verdict on the claim (static beside a run of the code)

    @property
    def label(self) -> str:
        if self.stale:
            return "stale"
        return self.verdict.verdict if self.verdict is not None else "pending"

    @property
    def fix(self) -> Fix | None:
        """The fix export would write: the edited text over the proposed lines, or the proposal."""
        base = self.proposed_fix or (self.verdict.fix if self.verdict is not None else None)
        if self.replacement is not None and base is not None:
            return Fix(base.start_line, base.end_line, self.replacement)
        return base


PENDING = ClaimState(None)
