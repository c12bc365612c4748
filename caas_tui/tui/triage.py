"""What the triage screen knows, without Textual: the open doc, its claims, their states,
the tally and which docs hold stale verdicts.

The screen moves widgets; this object decides what they should show. Every rule that
does not need a widget (which states belong to the open doc, when stale verdicts are
announced, what "re-review stale" visits) lives here, so tests can drive it directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.tui.render import ClaimMark
from caas_tui.tui.state import PENDING, ClaimState, DocEntry


@dataclass(frozen=True, slots=True)
class Tally:
    """Verdict labels of the open doc's claims and how many the writer has decided."""

    counts: Mapping[str, int]
    decided: int
    total: int


class TriageState:
    def __init__(self) -> None:
        self.doc: DocEntry | None = None
        self.claims: list[Claim] = []
        self.states: dict[str, ClaimState] = {}
        self.stale_docs: set[str] = set()  # docs with stale verdicts that "re-review stale" should visit
        self._stale_told: set[str] = set()  # docs whose stale verdicts were already announced

    # -- the open doc -----------------------------------------------------------------
    def open(self, doc: DocEntry, claims: list[Claim], states: Mapping[str, ClaimState]) -> None:
        self.doc, self.claims, self.states = doc, list(claims), dict(states)

    def close(self) -> None:
        """The open doc is gone (removed or renamed)."""
        self.doc, self.claims, self.states = None, [], {}

    @property
    def doc_path(self) -> str | None:
        return self.doc.path if self.doc is not None else None

    def state(self, claim_id: str) -> ClaimState:
        return self.states.get(claim_id, PENDING)

    def has_claim(self, claim_id: str) -> bool:
        return any(c.id == claim_id for c in self.claims)

    def same_claims(self, claims: Iterable[Claim]) -> bool:
        """Still the doc (and text) ``claims`` were read from."""
        return [c.id for c in self.claims] == [c.id for c in claims]

    def apply(self, states: Mapping[str, ClaimState]) -> dict[str, ClaimState]:
        """Take new states from the store; returns those of the open doc (a re-review may span docs)."""
        shown = {c.id for c in self.claims}
        mine = {cid: st for cid, st in states.items() if cid in shown}
        self.states.update(mine)
        return mine

    def marks(self, selected: str | None = None) -> list[ClaimMark]:
        """How the doc view tints each claim (``selected``: the claim under the cursor)."""
        return [ClaimMark(c, self.state(c.id).label, c.id == selected) for c in self.claims]

    def tally(self) -> Tally:
        counts = Counter(self.state(c.id).label for c in self.claims)
        decided = sum(1 for c in self.claims if self.state(c.id).decision != "pending")
        return Tally(counts, decided, len(self.claims))

    def unreviewed(self, claim: Claim) -> bool:
        return self.state(claim.id).verdict is None

    def cannot_act(self, claim: Claim | None, *, reviewed: bool) -> str | None:
        """Why a key that needs a claim (``reviewed``: with a verdict) can't act on ``claim``."""
        if claim is None:
            return "No claim selected."
        if reviewed and self.unreviewed(claim):
            return "Review this claim first: c (static) or ctrl+r (Claude)."
        return None

    # -- stale verdicts ---------------------------------------------------------------
    def open_doc_stale(self) -> int:
        return sum(1 for c in self.claims if self.state(c.id).stale)

    def stale_reported(self, docs: Iterable[str]) -> str:
        """The watcher marked verdicts stale in ``docs`` (one entry per verdict): kept for R;
        returns the announcement."""
        docs = list(docs)
        found = sorted(set(docs))
        self.stale_docs.update(found)
        self._stale_told.update(found)
        n = len(docs)
        where = ", ".join(found[:2]) + (f" and {len(found) - 2} more" if len(found) > 2 else "")
        return f"{n} verdict{'' if n == 1 else 's'} went stale in {where}: R re-reviews them"

    def note_stale(self) -> str | None:
        """After the open doc's states changed: track its stale claims. Returns the
        announcement, once per doc (``None``: nothing stale, or told already)."""
        if self.doc is None:
            return None
        path, n = self.doc.path, self.open_doc_stale()
        if n == 0:
            self.stale_docs.discard(path)
            return None
        self.stale_docs.add(path)
        if path in self._stale_told:
            return None
        self._stale_told.add(path)
        return f"{n} stale verdict{'' if n == 1 else 's'} in {path}: R re-reviews them"

    def has_stale(self) -> bool:
        return bool(self.stale_docs) or self.open_doc_stale() > 0

    def stale_to_rereview(self) -> list[str]:
        docs = set(self.stale_docs)
        if self.doc is not None and self.open_doc_stale():
            docs.add(self.doc.path)
        return sorted(docs)

    def rereview_started(self, docs: Iterable[str]) -> None:
        # Docs elsewhere leave the list now; the open doc's entry follows its claim states.
        self.stale_docs.difference_update(d for d in docs if d != self.doc_path)
