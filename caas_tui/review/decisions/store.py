"""Durable verdicts and decisions: ``<caas_dir>/verdicts.sqlite``.

WAL with ``synchronous=FULL`` and one transaction per call, so every decision is on
disk when ``decide`` returns (a crash loses nothing). Re-running a review upserts by
(doc path, claim id, reviewer) and never overwrites a decided verdict unmarked: the
verdict a decision was made on is kept in ``decided`` beside the newest one; a newer
verdict with another label sets the decision to "needs another look", a new proposed fix
(same label) sets it back to pending, and only an unchanged verdict keeps it (README,
"Decisions and export"). Every decision change is journalled in ``history`` for undo. A claim that
moved in its doc takes its verdicts (and their fixes) along (``relocate``); verdicts a
review of the claim now on their lines replaced are archived in ``retired``
(``retire``). Which verdicts went stale is decided by ``staleness``, beside this
module. One connection guarded by a lock serves all of the app's threads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from caas_tui.config import Config
from caas_tui.errors import CaasError, IndexStoreError
from caas_tui.models import DECISIONS, NEEDS_LOOK, Claim, Verdict
from caas_tui.review.decisions.codec import (
    StoredVerdict,
    checks_json,
    evidence_json,
    fix_json,
    is_noop_edit,
    row_to_stored,
    rows_to_stored,
    verdict_from,
    verdict_json,
)
from caas_tui.review.decisions.relocate import shift_fix_json, shift_original

STORE_FILE = "verdicts.sqlite"
SCHEMA_VERSION = 2  # v2: ``decided`` (the verdict a decision was made on), ``history.old_decided``
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS verdicts (
    doc_path TEXT NOT NULL, claim_id TEXT NOT NULL, reviewer TEXT NOT NULL,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL,
    symbols TEXT, code_spans TEXT, section TEXT, context TEXT,
    verdict TEXT NOT NULL, model TEXT, rationale TEXT, evidence TEXT, fix TEXT, checks TEXT, doc_sha256 TEXT,
    original TEXT,
    decision TEXT NOT NULL DEFAULT 'pending', edited_fix TEXT,
    created_at REAL NOT NULL, updated_at REAL NOT NULL, decided_at REAL, applied_at REAL, decided TEXT,
    PRIMARY KEY (doc_path, claim_id, reviewer)
);
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    doc_path TEXT NOT NULL, claim_id TEXT NOT NULL, reviewer TEXT NOT NULL,
    old_decision TEXT NOT NULL, old_edited_fix TEXT, old_decided_at REAL,
    new_decision TEXT NOT NULL, new_edited_fix TEXT, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
    old_decided TEXT
);
CREATE INDEX IF NOT EXISTS verdicts_doc ON verdicts(doc_path, start_line);
CREATE TABLE IF NOT EXISTS retired (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    doc_path TEXT NOT NULL, claim_id TEXT NOT NULL, reviewer TEXT NOT NULL,
    row TEXT NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL
);
"""


class VerdictStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=30000")
            with self._tx():
                for stmt in _SCHEMA.strip().split(";"):
                    if stmt.strip():
                        self._db.execute(stmt)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is not None and int(row["value"]) > SCHEMA_VERSION:
                    raise IndexStoreError(f"{path}: verdict store schema v{row['value']}, expected v{SCHEMA_VERSION}")
                self._migrate()
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            raise IndexStoreError(f"{path}: cannot open the verdict store ({exc})") from exc

    def _migrate(self) -> None:
        """Bring a store made by an older version up to this schema, keeping every row."""
        columns = {r["name"] for r in self._db.execute("PRAGMA table_info(verdicts)")}
        if "applied_at" not in columns:  # stores made before fixes were tracked as applied
            self._db.execute("ALTER TABLE verdicts ADD COLUMN applied_at REAL")
        if "decided" not in columns:
            # v1 kept no decided verdict: a decision was made on the verdict stored now (its
            # original, if it went stale since).
            self._db.execute("ALTER TABLE verdicts ADD COLUMN decided TEXT")
            for row in self._db.execute("SELECT * FROM verdicts WHERE decision != 'pending'").fetchall():
                judged = row["original"] if row["verdict"] == "stale" and row["original"] else None
                self._db.execute(
                    "UPDATE verdicts SET decided=? WHERE doc_path=? AND claim_id=? AND reviewer=?",
                    (judged or verdict_json(row_to_stored(row).verdict), row["doc_path"], row["claim_id"], row["reviewer"]),
                )
        if "old_decided" not in {r["name"] for r in self._db.execute("PRAGMA table_info(history)")}:
            self._db.execute("ALTER TABLE history ADD COLUMN old_decided TEXT")

    @classmethod
    def open(cls, cfg: Config) -> VerdictStore:
        return cls(cfg.caas_dir / STORE_FILE)

    @classmethod
    def open_existing(cls, cfg: Config) -> VerdictStore | None:
        """The store if one exists; never creates it (nothing reviewed yet: nothing to check)."""
        path = cfg.caas_dir / STORE_FILE
        return cls(path) if path.is_file() else None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> VerdictStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _row(self, doc_path: str, claim_id: str, reviewer: str) -> sqlite3.Row | None:
        return self._db.execute(
            "SELECT * FROM verdicts WHERE doc_path=? AND claim_id=? AND reviewer=?", (doc_path, claim_id, reviewer)
        ).fetchone()

    # -- recording -----------------------------------------------------------------------
    def record(self, claim: Claim, verdict: Verdict) -> StoredVerdict:
        self.record_many([(claim, verdict)])
        got = self.get(claim.doc_path, claim.id, verdict.reviewer)
        assert got is not None
        return got

    def record_many(self, pairs: Iterable[tuple[Claim, Verdict]]) -> None:
        now = time.time()
        with self._tx() as db:
            for claim, verdict in pairs:
                self._upsert(db, claim, verdict, now)

    def record_review(
        self, doc_path: str, reviewer: str, pairs: Sequence[tuple[Claim, Verdict]], *,
        present: Collection[str] | None = None,
    ) -> None:
        """Store one full review of a doc: upsert its verdicts; verdicts of an earlier run the
        review did not keep are dropped, or marked stale if a decision was made on them.
        ``present``: ids of every claim the doc has now (default: those of ``pairs``). A review
        that stores only the verdicts that decide (a run of the code beside a static review)
        passes them, so a kept-out claim still in the doc is said to be outranked, not gone."""
        now = time.time()
        keep = {c.id for c, _ in pairs}
        there = set(present) if present is not None else keep
        with self._tx() as db:
            for claim, verdict in pairs:
                self._upsert(db, claim, verdict, now)
            old = db.execute("SELECT * FROM verdicts WHERE doc_path=? AND reviewer=?", (doc_path, reviewer)).fetchall()
            for row in old:
                if row["claim_id"] in keep:
                    continue
                if row["decision"] == "pending":
                    db.execute("DELETE FROM verdicts WHERE doc_path=? AND claim_id=? AND reviewer=?",
                               (doc_path, row["claim_id"], reviewer))
                elif row["claim_id"] in there:
                    self._stale(db, row, f"the newest {reviewer} review of the claim does not outrank "
                                "another reviewer's verdict", now)
                else:
                    self._stale(db, row, "the claim is no longer in the doc", now)

    def _upsert(self, db: sqlite3.Connection, claim: Claim, verdict: Verdict, now: float) -> None:
        key = (claim.doc_path, claim.id, verdict.reviewer)
        old = db.execute("SELECT * FROM verdicts WHERE doc_path=? AND claim_id=? AND reviewer=?", key).fetchone()
        new_fix = fix_json(verdict.fix)
        decision, edited, decided_at, created, applied, decided = "pending", None, None, now, None, None
        if old is not None:
            created = old["created_at"]
            decision, edited, decided_at = old["decision"], old["edited_fix"], old["decided_at"]
            applied, decided = old["applied_at"], old["decided"]
            basis = verdict_from(decided) if decided else None
            if basis is None:
                stored = row_to_stored(old)
                basis = stored.original if stored.original is not None else stored.verdict
            if decision != "pending" and (basis.verdict != verdict.verdict or fix_json(basis.fix) != new_fix):
                # The verdict changed under the decision: the old decision can't be undone onto it.
                db.execute("UPDATE history SET undone=1 WHERE doc_path=? AND claim_id=? AND reviewer=?", key)
                applied = None
                # Another label asks for a look; a new proposal (same label) is a new question.
                decision = NEEDS_LOOK if basis.verdict != verdict.verdict else "pending"
                if decision == "pending":
                    edited = None
        db.execute(
            "INSERT OR REPLACE INTO verdicts (doc_path, claim_id, reviewer, start_line, end_line, text, kind,"
            " symbols, code_spans, section, context, verdict, model, rationale, evidence, fix, checks, doc_sha256,"
            " original, decision, edited_fix, created_at, updated_at, decided_at, applied_at, decided)"
            " VALUES (?,?,?, ?,?,?,?, ?,?,?,?, ?,?,?,?,?,?,?, ?, ?,?, ?,?,?,?,?)",
            (
                *key, claim.start_line, claim.end_line, claim.text, claim.kind,
                json.dumps(list(claim.symbols)), json.dumps(list(claim.code_spans)), claim.section, claim.context,
                verdict.verdict, verdict.model, verdict.rationale, evidence_json(verdict.evidence), new_fix,
                checks_json(verdict), verdict.doc_sha256, None, decision, edited, created, now, decided_at,
                applied, decided,
            ),
        )

    # -- decisions -----------------------------------------------------------------------
    def decide(
        self, doc_path: str, claim_id: str, reviewer: str, decision: str, edited_fix: str | None = None
    ) -> StoredVerdict:
        if decision not in DECISIONS:
            raise CaasError(f"unknown decision {decision!r} (choose from {', '.join(DECISIONS)})")
        if decision == "edited" and edited_fix is None:
            raise CaasError("an edited decision needs the edited fix text")
        now = time.time()
        with self._tx() as db:
            row = self._row(doc_path, claim_id, reviewer)
            if row is None:
                raise CaasError(f"{doc_path}: no verdict for claim {claim_id} by {reviewer}")
            current = row_to_stored(row)
            if decision == "edited" and is_noop_edit(current, edited_fix):
                return current  # the proposed fix, unchanged: no decision was made
            new_edit = edited_fix if decision == "edited" else None
            basis = verdict_json(current.original if current.original is not None else current.verdict)
            db.execute(
                "UPDATE verdicts SET decision=?, edited_fix=?, decided_at=?, decided=? "
                "WHERE doc_path=? AND claim_id=? AND reviewer=?",
                (decision, new_edit, now, None if decision == "pending" else basis, doc_path, claim_id, reviewer),
            )
            db.execute(
                "INSERT INTO history (doc_path, claim_id, reviewer, old_decision, old_edited_fix, old_decided_at,"
                " new_decision, new_edited_fix, at, old_decided) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (doc_path, claim_id, reviewer, row["decision"], row["edited_fix"], row["decided_at"], decision, new_edit,
                 now, row["decided"]),
            )
        got = self.get(doc_path, claim_id, reviewer)
        assert got is not None
        return got

    def undo_last_decision(self) -> StoredVerdict | None:
        """Restore the decision before the latest one; None when there is nothing to undo."""
        with self._tx() as db:
            last = db.execute("SELECT * FROM history WHERE undone=0 ORDER BY id DESC LIMIT 1").fetchone()
            if last is None:
                return None
            key = (last["doc_path"], last["claim_id"], last["reviewer"])
            db.execute(
                "UPDATE verdicts SET decision=?, edited_fix=?, decided_at=?, decided=? "
                "WHERE doc_path=? AND claim_id=? AND reviewer=?",
                (last["old_decision"], last["old_edited_fix"], last["old_decided_at"], last["old_decided"], *key),
            )
            db.execute("UPDATE history SET undone=1 WHERE id=?", (last["id"],))
        return self.get(*key)

    # -- staleness -----------------------------------------------------------------------
    def _stale(self, db: sqlite3.Connection, row: sqlite3.Row, reason: str, now: float) -> None:
        if row["verdict"] == "stale":
            return
        original = verdict_json(row_to_stored(row).verdict)
        db.execute(
            "UPDATE verdicts SET verdict='stale', original=?, rationale=?, updated_at=? "
            "WHERE doc_path=? AND claim_id=? AND reviewer=?",
            (original, f"stale: {reason}", now, row["doc_path"], row["claim_id"], row["reviewer"]),
        )

    def mark_stale(
        self, doc_path: str, claim_ids: Iterable[str] | None = None, reviewer: str | None = None,
        reason: str = "the doc changed",
    ) -> int:
        """Mark verdicts of ``doc_path`` (optionally only these claims / this reviewer) stale."""
        wanted = set(claim_ids) if claim_ids is not None else None
        now = time.time()
        count = 0
        with self._tx() as db:
            for row in db.execute("SELECT * FROM verdicts WHERE doc_path=?", (doc_path,)).fetchall():
                if row["verdict"] == "stale":
                    continue
                if (wanted is None or row["claim_id"] in wanted) and (reviewer is None or row["reviewer"] == reviewer):
                    self._stale(db, row, reason, now)
                    count += 1
        return count

    # -- claims that moved or were replaced ----------------------------------------------
    def relocate(
        self, doc_path: str, claim_id: str, start_line: int, end_line: int, doc_sha256: str | None = None,
        reviewer: str | None = None,
    ) -> int:
        """The claim now lies, unchanged, on ``start_line..end_line``: move its verdicts
        (one reviewer's, or all) there, their fixes by the same offset, and pin
        ``doc_sha256`` (if given) as the hash of the new lines, so export and the app work
        on the lines it is on now. Returns how many verdicts moved."""
        return self.relocate_many([(doc_path, claim_id, start_line, end_line, doc_sha256, reviewer)])

    def relocate_many(self, moves: Iterable[tuple[str, str, int, int, str | None, str | None]]) -> int:
        """``relocate`` for many (doc, claim id, start, end, doc hash, reviewer) in one
        transaction: a line inserted at the top of a doc moves every claim below it."""
        count = 0
        with self._tx() as db:
            for doc_path, claim_id, start, end, doc_sha256, reviewer in moves:
                rows = db.execute("SELECT * FROM verdicts WHERE doc_path=? AND claim_id=?", (doc_path, claim_id))
                for row in rows.fetchall():
                    if reviewer is None or row["reviewer"] == reviewer:
                        count += self._move(db, row, start, end, doc_sha256)
        return count

    def _move(self, db: sqlite3.Connection, row: sqlite3.Row, start: int, end: int, doc_sha256: str | None) -> int:
        offset = start - row["start_line"]
        new_hash = doc_sha256 or row["doc_sha256"]
        if offset == 0 and end == row["end_line"] and new_hash == row["doc_sha256"]:
            return 0
        # A stale verdict's proposal lives in ``original``: it moves too. An edited fix is
        # text only: it follows its base fix's (or the claim's) lines. updated_at stays: a
        # move is no new judgement, and it orders reviewers' verdicts in the app.
        db.execute(
            "UPDATE verdicts SET start_line=?, end_line=?, fix=?, original=?, doc_sha256=? "
            "WHERE doc_path=? AND claim_id=? AND reviewer=?",
            (start, end, shift_fix_json(row["fix"], offset), shift_original(row["original"], offset, doc_sha256),
             new_hash, row["doc_path"], row["claim_id"], row["reviewer"]),
        )
        return 1

    def retire(self, doc_path: str, claim_ids: Iterable[str], reason: str = "replaced by a re-review") -> int:
        """Remove every reviewer's verdicts on these claims of ``doc_path``: a review of the
        claim now on their lines replaced them. Each row is archived in ``retired`` and its
        decision history is kept for audit, marked undone (no verdict is left to undo onto).
        Returns how many verdicts were retired."""
        now = time.time()
        count = 0
        with self._tx() as db:
            for cid in sorted(set(claim_ids)):
                key = (doc_path, cid)
                for row in db.execute("SELECT * FROM verdicts WHERE doc_path=? AND claim_id=?", key).fetchall():
                    db.execute("INSERT INTO retired (doc_path, claim_id, reviewer, row, reason, at)"
                               " VALUES (?,?,?,?,?,?)", (*key, row["reviewer"], json.dumps(dict(row)), reason, now))
                    count += 1
                db.execute("DELETE FROM verdicts WHERE doc_path=? AND claim_id=?", key)
                db.execute("UPDATE history SET undone=1 WHERE doc_path=? AND claim_id=?", key)
        return count

    # -- queries -------------------------------------------------------------------------
    def get(self, doc_path: str, claim_id: str, reviewer: str) -> StoredVerdict | None:
        with self._lock:
            row = self._row(doc_path, claim_id, reviewer)
        return row_to_stored(row) if row is not None else None

    def all(self, doc_path: str | None = None) -> list[StoredVerdict]:
        query = "SELECT * FROM verdicts"
        args: tuple[str, ...] = ()
        if doc_path is not None:
            query += " WHERE doc_path=?"
            args = (doc_path,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY doc_path, start_line, end_line, reviewer", args).fetchall()
        return rows_to_stored(rows)

    def docs(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT DISTINCT doc_path FROM verdicts ORDER BY doc_path")]

    def accepted_fixes(self) -> list[StoredVerdict]:
        """Verdicts whose fix was accepted or edited and not yet applied, in doc order."""
        return [
            sv for sv in self.all()
            if sv.decision in ("accepted", "edited") and sv.effective_fix is not None and sv.applied_at is None
        ]

    def mark_applied(self, keys: Iterable[tuple[str, str, str]]) -> None:
        """Record that these (doc, claim id, reviewer) fixes were written to the docs."""
        now = time.time()
        with self._tx() as db:
            for key in keys:
                db.execute("UPDATE verdicts SET applied_at=? WHERE doc_path=? AND claim_id=? AND reviewer=?", (now, *key))

