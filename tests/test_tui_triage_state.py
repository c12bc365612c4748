"""The triage screen's plain state: no Textual, no app, no index."""

from __future__ import annotations

import subprocess
import sys

from caas_tui.models import Claim, Verdict
from caas_tui.tui.state import ClaimState, DocEntry
from caas_tui.tui.triage import TriageState

GUIDE = DocEntry("docs/guide.md", "markdown")


def claim(cid: str, line: int, doc: str = GUIDE.path) -> Claim:
    return Claim(cid, doc, line, line, f"claim {cid}", "prose")


def reviewed(cid: str, label: str = "consistent", **kw: object) -> ClaimState:
    return ClaimState(Verdict(cid, label, "static", "because"), **kw)  # type: ignore[arg-type]


def opened(states: dict[str, ClaimState] | None = None) -> TriageState:
    t = TriageState()
    t.open(GUIDE, [claim("a", 1), claim("b", 2), claim("c", 3)], states or {})
    return t


def test_module_needs_no_textual() -> None:
    code = "import sys, caas_tui.tui.triage; print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_claim_without_a_state_is_pending() -> None:
    t = opened()
    assert t.state("a").label == "pending" and t.unreviewed(claim("a", 1))
    assert t.doc_path == GUIDE.path and t.has_claim("b") and not t.has_claim("zz")


def test_apply_keeps_only_the_open_docs_states() -> None:
    t = opened()
    mine = t.apply({"a": reviewed("a"), "elsewhere": reviewed("elsewhere")})
    assert set(mine) == {"a"}
    assert "elsewhere" not in t.states and t.state("a").label == "consistent"


def test_tally_counts_labels_and_decisions() -> None:
    t = opened({"a": reviewed("a"), "b": reviewed("b", "contradicted", decision="rejected")})
    tally = t.tally()
    assert dict(tally.counts) == {"consistent": 1, "contradicted": 1, "pending": 1}
    assert (tally.decided, tally.total) == (1, 3)
    t.close()
    assert t.doc is None and t.tally().total == 0


def test_stale_verdicts_of_the_open_doc_are_announced_once() -> None:
    t = opened({"a": reviewed("a", stale=True), "b": reviewed("b", stale=True)})
    assert t.note_stale() == f"2 stale verdicts in {GUIDE.path}: R re-reviews them"
    assert t.note_stale() is None  # told already
    assert t.has_stale() and t.stale_to_rereview() == [GUIDE.path]
    t.apply({"a": reviewed("a"), "b": reviewed("b")})  # re-reviewed: fresh again
    assert t.note_stale() is None and not t.has_stale() and t.stale_to_rereview() == []


def test_stale_docs_elsewhere_are_kept_until_their_rereview_starts() -> None:
    t = opened()
    notice = t.stale_reported(["docs/z.md", "docs/y.md", "docs/z.md"])
    assert notice == "3 verdicts went stale in docs/y.md, docs/z.md: R re-reviews them"
    assert "and 1 more" in t.stale_reported(["docs/a.md", "docs/b.md", "docs/c.md"])
    assert t.has_stale() and t.stale_to_rereview() == ["docs/a.md", "docs/b.md", "docs/c.md", "docs/y.md", "docs/z.md"]
    t.rereview_started(["docs/y.md", "docs/a.md", "docs/b.md", "docs/c.md", GUIDE.path])
    assert t.stale_to_rereview() == ["docs/z.md"]


def test_the_open_doc_stays_listed_while_its_claims_are_stale() -> None:
    t = opened({"a": reviewed("a", stale=True)})
    t.stale_reported([GUIDE.path])
    t.rereview_started([GUIDE.path])
    assert t.stale_to_rereview() == [GUIDE.path]  # follows its claim states, not the list
    assert t.note_stale() is None  # announced with the refresh already


def test_marks_and_why_a_key_cannot_act() -> None:
    t = opened({"a": reviewed("a", "contradicted")})
    marks = t.marks("b")
    assert [(m.claim.id, m.label, m.selected) for m in marks] == [
        ("a", "contradicted", False), ("b", "pending", True), ("c", "pending", False)]
    assert t.cannot_act(None, reviewed=False) == "No claim selected."
    assert t.cannot_act(claim("b", 2), reviewed=True) is not None  # no verdict to accept yet
    assert t.cannot_act(claim("b", 2), reviewed=False) is None
    assert t.cannot_act(claim("a", 1), reviewed=True) is None


def test_same_claims_tells_a_reload_from_another_doc() -> None:
    t = opened()
    assert t.same_claims([claim("a", 1), claim("b", 2), claim("c", 3)])
    assert not t.same_claims([claim("a", 1)])
