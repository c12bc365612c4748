"""What every reviewer is: claims in, verdicts out, each verdict naming its reviewer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine

ReviewProgress = Callable[[int, int, str], None]  # (done, total, message)


@runtime_checkable
class Reviewer(Protocol):
    name: str  # "static" | "claude": stored with every verdict

    def review(
        self, claims: Sequence[Claim], engine: Engine, *, progress: ReviewProgress | None = None
    ) -> list[Verdict]:
        """One verdict per claim, in order. Must not raise for one bad claim: that claim
        gets ``unverified`` with the reason as rationale."""


def needs_doc_context(reviewer: Reviewer) -> bool:
    """Whether the reviewer's verdict on a claim depends on the doc's claims before it
    (``doc_context``, default True: the static reviewer keeps the names earlier code blocks
    bound). Such a reviewer is given those claims too; reviewing more is slower, never wrong."""
    return bool(getattr(reviewer, "doc_context", True))
