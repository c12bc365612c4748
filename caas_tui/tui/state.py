"""Plain values the screens pass around (no Textual, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass

from caas_tui.models import Verdict


@dataclass(frozen=True, slots=True)
class DocEntry:
    path: str
    language: str  # markdown | rst | text | python


@dataclass(frozen=True, slots=True)
class ClaimState:
    """What the writer sees for one claim: latest verdict, their decision, staleness."""

    verdict: Verdict | None
    decision: str = "pending"  # pending | accepted | rejected | edited
    replacement: str | None = None  # the writer's edited fix text, if they edited it
    stale: bool = False

    @property
    def label(self) -> str:
        if self.stale:
            return "stale"
        return self.verdict.verdict if self.verdict is not None else "pending"


PENDING = ClaimState(None)
