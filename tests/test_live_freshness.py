"""Freshness judges a verdict where its claim is now: a claim that only moved (a line
inserted above it) keeps its verdict, which follows it; an edited claim goes stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.index.refresh import RefreshStats
from caas_tui.live.freshness import mark_stale
from caas_tui.models import Claim, Fix, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.staleness import check, stale_verdicts, update
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import span_sha256, split_lines

GUIDE = "docs/guide.md"
SENTENCE = "Call `World.remove_body` to delete a body immediately."


@pytest.fixture()
def engine(tiny_project: Path):
    eng = Engine.open(tiny_project)
    yield eng
    eng.close()


def _claim(engine: Engine, needle: str) -> Claim:
    text = (engine.root / GUIDE).read_text()
    return next(c for c in extract_claims(GUIDE, text) if needle in c.text)


def _review(engine: Engine, needle: str) -> Claim:
    """A static verdict with a fix on the claim, accepted, as the app would record it."""
    claim = _claim(engine, needle)
    lines = split_lines((engine.root / GUIDE).read_text())
    fix = Fix(claim.start_line, claim.end_line, "Call `World.remove_body` to delete a body at frame end.")
    verdict = Verdict(claim.id, "contradicted", "static", "deferred", fix=fix,
                      doc_sha256=span_sha256(lines, claim.start_line, claim.end_line))
    with VerdictStore.open(engine.cfg) as store:
        store.record(claim, verdict)
        store.decide(GUIDE, claim.id, "static", "accepted")
    return claim


def _insert_above(engine: Engine, line: int, text: str) -> None:
    path = engine.root / GUIDE
    lines = path.read_text().split("\n")
    lines[line - 1 : line - 1] = text.split("\n")
    path.write_text("\n".join(lines))


def test_blank_line_above_a_reviewed_claim_moves_its_verdict_not_stale(engine: Engine) -> None:
    claim = _review(engine, "remove_body")
    _insert_above(engine, claim.start_line, "")
    with VerdictStore.open(engine.cfg) as store:
        assert check(engine, store.all()) == []  # read-only: moved, not stale
        assert stale_verdicts(engine) == []  # what `caas-tui status` reports
        assert store.get(GUIDE, claim.id, "static").claim.start_line == claim.start_line  # nothing written yet
        assert update(engine, store) == []
        sv = store.get(GUIDE, claim.id, "static")
    assert sv is not None and sv.verdict.verdict == "contradicted" and sv.decision == "accepted"
    new = claim.start_line + 1
    assert (sv.claim.start_line, sv.claim.end_line) == (new, claim.end_line + 1)
    assert sv.effective_fix is not None and (sv.effective_fix.start_line, sv.effective_fix.end_line) == (new, new)
    lines = split_lines((engine.root / GUIDE).read_text())
    assert lines[new - 1] == SENTENCE
    assert sv.verdict.doc_sha256 == span_sha256(lines, new, new)


def test_edited_claim_text_is_stale(engine: Engine) -> None:
    claim = _review(engine, "remove_body")
    path = engine.root / GUIDE
    path.write_text(path.read_text().replace("immediately", "right away"))
    with VerdictStore.open(engine.cfg) as store:
        [stale] = update(engine, store)
        assert stale.claim_id == claim.id and f"{GUIDE}:{claim.start_line}" in stale.reason
        assert store.get(GUIDE, claim.id, "static").verdict.verdict == "stale"


def test_moved_and_edited_at_once_is_stale(engine: Engine) -> None:
    claim = _review(engine, "remove_body")
    path = engine.root / GUIDE
    path.write_text(path.read_text().replace(SENTENCE, "Intro.\n\n" + SENTENCE.replace("immediately", "now")))
    with VerdictStore.open(engine.cfg) as store:
        assert [s.claim_id for s in check(engine, store.all())] == [claim.id]


def test_refresh_moves_verdicts_of_the_changed_doc_and_reports_none_stale(engine: Engine) -> None:
    """What the watcher runs after each refresh: the moved claim's verdict follows it, and
    a stale verdict elsewhere in the doc (its evidence changed) is re-pointed too."""
    claim = _review(engine, "remove_body")
    code = _claim(engine, "add_body")
    with VerdictStore.open(engine.cfg) as store:
        store.record(code, Verdict(code.id, "consistent", "static", "ok", doc_sha256=span_sha256(
            split_lines((engine.root / GUIDE).read_text()), code.start_line, code.end_line)))
        store.mark_stale(GUIDE, [code.id], reason="evidence pkg/world.py:1-2 changed")
    _insert_above(engine, 1, "<!-- generated -->\n")
    stats = engine.refresh()
    assert GUIDE in stats.changed
    assert mark_stale(engine, stats) == ()
    assert mark_stale(engine, RefreshStats()) == ()  # nothing changed: nothing to check
    with VerdictStore.open(engine.cfg) as store:
        moved = {sv.claim.id: sv for sv in store.all()}
    assert moved[claim.id].claim.start_line == claim.start_line + 2
    assert moved[claim.id].verdict.verdict == "contradicted"
    assert moved[code.id].claim.start_line == code.start_line + 2 and moved[code.id].verdict.verdict == "stale"
    [reported] = stale_verdicts(engine)
    assert (reported.claim_id, reported.start_line) == (code.id, code.start_line + 2)
