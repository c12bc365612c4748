"""The verdict store: durable decisions, undo, upserts without duplicates, staleness."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from caas_tui.config import load_config
from caas_tui.errors import CaasError
from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.staleness import update
from caas_tui.review.decisions.store import STORE_FILE, VerdictStore
from caas_tui.review.textutil import span_sha256, split_lines


def claim(cid: str = "c1", line: int = 2, doc: str = "docs/a.md", text: str = "Use `x`.") -> Claim:
    return Claim(cid, doc, line, line, text, "prose", ("x",), ("x",), "A", "ctx")


FIX = Fix(2, 2, "Use `y`.")


def verdict(cid: str = "c1", fix: Fix | None = FIX, label: str = "contradicted",
            evidence: tuple[EvidenceSpan, ...] = (), doc_sha: str | None = None) -> Verdict:
    return Verdict(cid, label, "static", "`x` does not exist", evidence, fix, None, doc_sha, ("`x` exists",))


@pytest.fixture()
def store_path(tmp_path: Path) -> Path:
    return tmp_path / ".caas" / STORE_FILE


def test_opens_at_caas_dir_with_wal_and_full_sync(tmp_path: Path) -> None:
    cfg = load_config(tmp_path)
    with VerdictStore.open(cfg) as store:
        assert store.path == tmp_path / ".caas" / "verdicts.sqlite"
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_round_trip_and_decisions_survive_reopen(store_path: Path) -> None:
    ev = EvidenceSpan("pkg/m.py", 3, 9, "pkg.m.X", "abc", None)
    with VerdictStore(store_path) as store:
        stored = store.record(claim(), verdict(evidence=(ev,), doc_sha="h"))
        assert stored.decision == "pending" and stored.verdict.evidence == (ev,)
        store.decide("docs/a.md", "c1", "static", "accepted")
    # a new connection (as after a crash) sees the committed decision
    raw = sqlite3.connect(store_path)
    assert raw.execute("SELECT decision FROM verdicts").fetchall() == [("accepted",)]
    raw.close()
    with VerdictStore(store_path) as store:
        got = store.get("docs/a.md", "c1", "static")
        assert got is not None and got.decision == "accepted" and got.decided_at is not None
        assert got.claim == claim() and got.verdict == verdict(evidence=(ev,), doc_sha="h")
        assert got.effective_fix == Fix(2, 2, "Use `y`.")
        assert [sv.claim.id for sv in store.accepted_fixes()] == ["c1"]


def test_edited_fix_and_undo(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record(claim(), verdict())
        store.decide("docs/a.md", "c1", "static", "accepted")
        edited = store.decide("docs/a.md", "c1", "static", "edited", "Use `z` instead.")
        assert edited.effective_fix == Fix(2, 2, "Use `z` instead.")
        back = store.undo_last_decision()
        assert back is not None and back.decision == "accepted" and back.edited_fix is None
        back = store.undo_last_decision()
        assert back is not None and back.decision == "pending" and back.effective_fix is None
        assert store.undo_last_decision() is None
        with pytest.raises(CaasError):
            store.decide("docs/a.md", "c1", "static", "maybe")
        with pytest.raises(CaasError):
            store.decide("docs/a.md", "nope", "static", "accepted")


def test_rerun_upserts_and_keeps_decision_while_fix_unchanged(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_review("docs/a.md", "static", [(claim(), verdict())])
        store.decide("docs/a.md", "c1", "static", "accepted")
        store.record_review("docs/a.md", "static", [(claim(), verdict())])
        rows = store.all()
        assert len(rows) == 1 and rows[0].decision == "accepted"
        # a different proposal resets the decision, and the old one can't be undone onto it
        store.record_review("docs/a.md", "static", [(claim(), verdict(fix=Fix(2, 2, "Use `w`.")))])
        rows = store.all()
        assert len(rows) == 1 and rows[0].decision == "pending"
        assert store.undo_last_decision() is None
        # another reviewer's verdict on the same claim is a separate row
        store.record(claim(), Verdict("c1", "unverified", "claude", "no idea"))
        assert len(store.all()) == 2


def test_claims_gone_from_a_rerun_are_dropped_or_kept_stale(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_review("docs/a.md", "static", [(claim("c1"), verdict("c1")), (claim("c2", 3), verdict("c2", fix=None))])
        store.decide("docs/a.md", "c1", "static", "accepted")
        store.record_review("docs/a.md", "static", [])
        rows = store.all()
        assert [(r.claim.id, r.verdict.verdict) for r in rows] == [("c1", "stale")]
        assert rows[0].original is not None and rows[0].original.verdict == "contradicted"


def test_staleness_after_doc_or_evidence_edit(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / "pkg" / "m.py").write_text("def f(a):\n    return a\n\n\ndef g():\n    pass\n")
    doc = root / "docs" / "a.md"
    doc.write_text("# A\n\nCall `f(a)` now.\n\nCall `g()` later.\n")
    engine = Engine.open(root)
    try:
        doc_lines = split_lines(doc.read_text())
        code_lines = split_lines((root / "pkg" / "m.py").read_text())
        ev_f = EvidenceSpan("pkg/m.py", 1, 2, "pkg.m.f", span_sha256(code_lines, 1, 2))
        ev_g = EvidenceSpan("pkg/m.py", 5, 6, "pkg.m.g", span_sha256(code_lines, 5, 6))
        c1, c2 = claim("c1", 3, text="Call `f(a)` now."), claim("c2", 5, text="Call `g()` later.")
        with VerdictStore.open(engine.cfg) as store:
            store.record_many([
                (c1, verdict("c1", None, "consistent", (ev_f,), span_sha256(doc_lines, 3, 3))),
                (c2, verdict("c2", None, "consistent", (ev_g,), span_sha256(doc_lines, 5, 5))),
            ])
            assert update(engine, store) == []
            doc.write_text("# A\n\nCall `f(a, b)` now.\n\nCall `g()` later.\n")
            stale = [store.get(s.doc, s.claim_id, s.reviewer) for s in update(engine, store)]
            assert [s.claim.id for s in stale if s] == ["c1"]
            assert stale[0] is not None
            assert stale[0].verdict.verdict == "stale" and "docs/a.md:3-3 changed" in stale[0].verdict.rationale
            assert stale[0].original is not None and stale[0].original.verdict == "consistent"
            (root / "pkg" / "m.py").write_text("def f(a):\n    return a\n\n\ndef g():\n    return 1\n")
            engine.refresh()  # the engine judges evidence against the index as just refreshed, as the watcher runs it
            assert [s.claim_id for s in update(engine, store)] == ["c2"]
            assert store.mark_stale("docs/a.md") == 0  # already stale: nothing new
    finally:
        engine.close()


def test_concurrent_decisions_from_threads(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_many([(claim(f"c{i}", i + 1), verdict(f"c{i}", Fix(i + 1, i + 1, "x"))) for i in range(40)])
        errors: list[BaseException] = []

        def work(offset: int) -> None:
            try:
                for i in range(offset, 40, 4):
                    store.decide("docs/a.md", f"c{i}", "static", "accepted")
            except BaseException as exc:  # noqa: BLE001 - surfaced by the assert below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert len(store.accepted_fixes()) == 40


def test_applied_fixes_leave_the_export_queue_and_old_stores_migrate(store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    old = sqlite3.connect(store_path)  # a store from before ``applied_at`` existed
    old.execute(
        "CREATE TABLE verdicts (doc_path TEXT NOT NULL, claim_id TEXT NOT NULL, reviewer TEXT NOT NULL,"
        " start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL,"
        " symbols TEXT, code_spans TEXT, section TEXT, context TEXT, verdict TEXT NOT NULL, model TEXT,"
        " rationale TEXT, evidence TEXT, fix TEXT, checks TEXT, doc_sha256 TEXT, original TEXT,"
        " decision TEXT NOT NULL DEFAULT 'pending', edited_fix TEXT, created_at REAL NOT NULL,"
        " updated_at REAL NOT NULL, decided_at REAL, PRIMARY KEY (doc_path, claim_id, reviewer))"
    )
    old.commit()
    old.close()
    with VerdictStore(store_path) as store:
        store.record(claim(), verdict())
        store.decide("docs/a.md", "c1", "static", "accepted")
        assert len(store.accepted_fixes()) == 1
        store.mark_applied([("docs/a.md", "c1", "static")])
        assert store.accepted_fixes() == []
        got = store.get("docs/a.md", "c1", "static")
        assert got is not None and got.applied_at is not None and got.decision == "accepted"


def test_relocate_moves_lines_fix_edited_fix_and_doc_hash(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record(claim(), verdict(doc_sha="h2"))
        store.record(claim(), Verdict("c1", "contradicted", "claude", "no", fix=Fix(2, 2, "Use `q`."), doc_sha256="h2"))
        store.decide("docs/a.md", "c1", "static", "edited", "Use `z`.")
        before = store.get("docs/a.md", "c1", "static")
        assert before is not None
        # a line inserted above: the claim (text unchanged) is now on line 5; only static's verdict moves here
        assert store.relocate("docs/a.md", "c1", 5, 5, "h5", reviewer="static") == 1
        got = store.get("docs/a.md", "c1", "static")
        assert got is not None
        assert (got.claim.start_line, got.claim.end_line) == (5, 5)
        assert got.verdict.fix == Fix(5, 5, "Use `y`.") and got.verdict.doc_sha256 == "h5"
        assert got.effective_fix == Fix(5, 5, "Use `z`.")  # the edited text follows its base fix's lines
        assert got.decision == "edited" and got.updated_at == before.updated_at  # no new judgement
        other = store.get("docs/a.md", "c1", "claude")
        assert other is not None and other.claim.start_line == 2 and other.verdict.fix == Fix(2, 2, "Use `q`.")
        assert store.relocate("docs/a.md", "c1", 5, 5, "h5", reviewer="static") == 0  # already there
        # a stale verdict's proposal lives in ``original``: it moves too
        store.mark_stale("docs/a.md", ["c1"], "claude")
        assert store.relocate("docs/a.md", "c1", 7, 7, "h7") == 2
        stale = store.get("docs/a.md", "c1", "claude")
        assert stale is not None and stale.verdict.verdict == "stale" and stale.claim.start_line == 7
        assert stale.original is not None and stale.original.fix == Fix(7, 7, "Use `q`.")
        assert stale.proposed_fix == Fix(7, 7, "Use `q`.") and stale.judged_doc_sha256 == "h7"
        assert [sv.effective_fix for sv in store.accepted_fixes()] == [Fix(7, 7, "Use `z`.")]


def test_retire_removes_replaced_verdicts_and_keeps_their_history(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_many([(claim("c1"), verdict("c1")), (claim("c2", 3), verdict("c2", fix=None))])
        store.record(claim("c1"), Verdict("c1", "unverified", "claude", "no idea"))
        store.decide("docs/a.md", "c1", "static", "accepted")
        assert store.mark_stale("docs/a.md", ["c1"]) == 2
        assert store.retire("docs/a.md", ["c1"], reason="replaced") == 2
        assert [sv.key for sv in store.all()] == [("docs/a.md", "c2", "static")]
        assert store.accepted_fixes() == []
        assert store.mark_stale("docs/a.md") == 1  # only c2 was left to mark
        assert store.undo_last_decision() is None  # nothing left to undo the decision onto
        assert store.retire("docs/a.md", ["c1", "nope"]) == 0
    raw = sqlite3.connect(store_path)
    try:
        assert raw.execute("SELECT new_decision FROM history WHERE claim_id='c1'").fetchall() == [("accepted",)]
        archived = raw.execute("SELECT reviewer, row, reason FROM retired ORDER BY reviewer").fetchall()
    finally:
        raw.close()
    assert [(r, reason) for r, _, reason in archived] == [("claude", "replaced"), ("static", "replaced")]
    assert json.loads(archived[1][1])["decision"] == "accepted"


def test_staleness_follows_a_claim_that_only_moved(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    doc = root / "docs" / "a.md"
    doc.write_text("# A\n\nCall `f(a)` now.\n\nCall `g()` later.\n")
    engine = Engine.open(root)
    try:
        text = doc.read_text()
        c1, c2 = extract_claims("docs/a.md", text)
        lines = split_lines(text)
        with VerdictStore.open(engine.cfg) as store:
            store.record_many([
                (c, verdict(c.id, Fix(c.start_line, c.end_line, "x"), "contradicted",
                            doc_sha=span_sha256(lines, c.start_line, c.end_line)))
                for c in (c1, c2)
            ])
            doc.write_text("# A\n\nIntro.\n\nCall `f(a)` now.\n\nCall `g()` LATER.\n")
            stale = update(engine, store)
            assert [s.claim_id for s in stale] == [c2.id]  # edited: stale; moved only: not
            moved = store.get("docs/a.md", c1.id, "static")
            assert moved is not None and moved.verdict.verdict == "contradicted"
            assert (moved.claim.start_line, moved.verdict.fix) == (5, Fix(5, 5, "x"))
    finally:
        engine.close()


def test_a_changed_verdict_after_a_decision_needs_another_look_and_keeps_both(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_review("docs/a.md", "static", [(claim(), verdict(fix=None, label="incomplete"))])
        store.decide("docs/a.md", "c1", "static", "accepted")
        # the code changed; the re-review now finds the claim consistent
        store.record_review("docs/a.md", "static", [(claim(), verdict(fix=None, label="consistent"))])
        [row] = store.all()
        assert row.decision == "needs another look"
        assert row.verdict.verdict == "consistent"  # the newest verdict
        assert row.decided is not None and row.decided.verdict == "incomplete"  # the one decided on
        assert row.decided_differs and row.effective_fix is None and store.accepted_fixes() == []
        # deciding again settles it on the newest verdict
        again = store.decide("docs/a.md", "c1", "static", "accepted")
        assert again.decision == "accepted" and again.decided is not None and again.decided.verdict == "consistent"
        assert not again.decided_differs
        # an unchanged re-review keeps the decision
        store.record_review("docs/a.md", "static", [(claim(), verdict(fix=None, label="consistent"))])
        assert store.all()[0].decision == "accepted"


def test_a_noop_edit_is_not_a_decision(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record(claim(), verdict())
        same = store.decide("docs/a.md", "c1", "static", "edited", FIX.replacement + "\n")
        assert same.decision == "pending" and same.edited_fix is None
        assert store.undo_last_decision() is None  # nothing was journalled
        real = store.decide("docs/a.md", "c1", "static", "edited", "Use `z`.")
        assert real.decision == "edited"


def test_v1_stores_migrate_with_their_decided_verdicts(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record(claim(), verdict(label="contradicted"))
        store.decide("docs/a.md", "c1", "static", "accepted")
    raw = sqlite3.connect(store_path)  # make it a v1 store: no decided column, schema 1
    raw.execute("ALTER TABLE verdicts DROP COLUMN decided")
    raw.execute("ALTER TABLE history DROP COLUMN old_decided")
    raw.execute("UPDATE meta SET value='1' WHERE key='schema'")
    raw.commit()
    raw.close()
    with VerdictStore(store_path) as store:
        [row] = store.all()
        assert row.decision == "accepted" and row.decided is not None and row.decided.verdict == "contradicted"
        store.record_review("docs/a.md", "static", [(claim(), verdict(fix=None, label="consistent"))])
        assert store.all()[0].decision == "needs another look"
    raw = sqlite3.connect(store_path)
    assert raw.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
    raw.close()


def test_a_decided_run_that_no_longer_decides_is_stale_for_that_reason(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.tui.review_port import ReviewPort

    engine = Engine.open(tiny_project, index_dir=tmp_path / "index")
    port = ReviewPort(engine, engine.cfg)
    try:
        claims = port.claims("docs/guide.md")
        code = next(c for c in claims if c.kind == "code")
        ran = Verdict(code.id, "contradicted", "execute", "running it raises TypeError")
        port.record(claims, [ran], whole_doc=True, executed=True)
        port.decide(code, "accepted")
        # the next run of the doc keeps no verdict for the block: the static one decides now
        port.record(claims, [], whole_doc=True, executed=True)
        sv = port.store.get("docs/guide.md", code.id, "execute")
        assert sv is not None and sv.verdict.verdict == "stale"
        assert "no longer in the doc" not in sv.verdict.rationale
        assert sv.verdict.rationale == ("stale: the newest execute review of the claim does not outrank "
                                        "another reviewer's verdict")
    finally:
        port.close()
        engine.close()


def test_a_decided_verdict_whose_claim_is_gone_still_says_so(store_path: Path) -> None:
    with VerdictStore(store_path) as store:
        store.record_review("docs/a.md", "static", [(claim(), verdict())])
        store.decide("docs/a.md", "c1", "static", "accepted")
        store.record_review("docs/a.md", "static", [], present=["c2"])
        got = store.get("docs/a.md", "c1", "static")
        assert got is not None and got.verdict.rationale == "stale: the claim is no longer in the doc"
