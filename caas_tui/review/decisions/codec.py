"""JSON encoding of verdict parts for the SQLite store, and the row type it returns."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from caas_tui.errors import VerdictStoreError
from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict

log = logging.getLogger(__name__)
# What a corrupt cell raises while decoding: bad JSON, a missing key, a value of the wrong shape.
_DECODE_ERRORS = (ValueError, KeyError, TypeError, AttributeError, IndexError, OverflowError, RecursionError)


@dataclass(frozen=True, slots=True)
class StoredVerdict:
    claim: Claim
    verdict: Verdict
    decision: str  # pending | accepted | rejected | edited | needs another look
    edited_fix: str | None
    created_at: float
    updated_at: float
    decided_at: float | None
    original: Verdict | None = None  # the verdict as judged, when it has since gone stale
    applied_at: float | None = None  # when its fix was written into the doc (export --apply / the app)
    decided: Verdict | None = None  # the verdict the decision was made on (``verdict`` is the newest)

    @property
    def decided_differs(self) -> bool:
        """A later review changed the verdict the decision was made on (label or fix)."""
        d, newest = self.decided, self.original if self.original is not None else self.verdict
        return d is not None and (d.verdict != newest.verdict or d.fix != newest.fix)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.claim.doc_path, self.claim.id, self.verdict.reviewer)

    @property
    def proposed_fix(self) -> Fix | None:
        if self.verdict.fix is not None:
            return self.verdict.fix
        return self.original.fix if self.original is not None else None

    @property
    def effective_fix(self) -> Fix | None:
        """What export writes: the accepted fix, or the edited replacement text."""
        if self.decision == "edited" and self.edited_fix is not None:
            base = self.proposed_fix
            start, end = (base.start_line, base.end_line) if base else (self.claim.start_line, self.claim.end_line)
            return Fix(start, end, self.edited_fix)
        if self.decision == "accepted":
            return self.proposed_fix
        return None

    @property
    def judged_doc_sha256(self) -> str | None:
        if self.verdict.doc_sha256:
            return self.verdict.doc_sha256
        return self.original.doc_sha256 if self.original is not None else None


def fix_json(fix: Fix | None) -> str | None:
    return None if fix is None else json.dumps(fix.to_json(), sort_keys=True)


def _corrupt(what: str, text: object, exc: Exception) -> VerdictStoreError:
    shown = repr(text)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return VerdictStoreError(f"corrupt {what} in the verdict store ({type(exc).__name__}): {shown}")


def fix_from(text: str | None) -> Fix | None:
    if not text:
        return None
    try:
        data = json.loads(text)
        return Fix(int(data["start_line"]), int(data["end_line"]), str(data["replacement"]))
    except _DECODE_ERRORS as exc:
        raise _corrupt("fix", text, exc) from exc


def evidence_json(spans: tuple[EvidenceSpan, ...]) -> str:
    return json.dumps([
        {"path": s.path, "start_line": s.start_line, "end_line": s.end_line, "symbol": s.symbol,
         "sha256": s.sha256, "note": s.note}
        for s in spans
    ])


def evidence_from(text: str | None) -> tuple[EvidenceSpan, ...]:
    if not text:
        return ()
    try:
        data = json.loads(text)
        if not isinstance(data, list):
            raise TypeError(f"a list was expected, not {type(data).__name__}")
        return tuple(
            EvidenceSpan(str(d["path"]), int(d["start_line"]), int(d["end_line"]), _opt_str(d.get("symbol")),
                         _opt_str(d.get("sha256")), _opt_str(d.get("note")))
            for d in data
        )
    except _DECODE_ERRORS as exc:
        raise _corrupt("evidence", text, exc) from exc


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


def checks_json(v: Verdict) -> str:
    """The ``checks`` column: a plain list (old rows, and verdicts without coverage), or
    ``{"checks": [...], "coverage": [...]}`` so the schema needs no new column."""
    if not v.coverage:
        return json.dumps(list(v.checks))
    return json.dumps({"checks": list(v.checks), "coverage": list(v.coverage)})


def checks_from(text: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    try:
        data = json.loads(text or "[]")
        if isinstance(data, dict):
            return tuple(map(str, data.get("checks") or ())), tuple(map(str, data.get("coverage") or ()))
        if not isinstance(data, list):
            raise TypeError(f"a list was expected, not {type(data).__name__}")
        return tuple(map(str, data)), ()
    except _DECODE_ERRORS as exc:
        raise _corrupt("checks", text, exc) from exc


def verdict_json(v: Verdict) -> str:
    return json.dumps({
        "claim_id": v.claim_id, "verdict": v.verdict, "reviewer": v.reviewer, "rationale": v.rationale,
        "evidence": json.loads(evidence_json(v.evidence)), "fix": v.fix.to_json() if v.fix else None,
        "model": v.model, "doc_sha256": v.doc_sha256, "checks": list(v.checks),
        "coverage": list(v.coverage),
    })


def verdict_from(text: str | None) -> Verdict | None:
    if not text:
        return None
    try:
        d: dict[str, Any] = json.loads(text)
        return Verdict(
            claim_id=d["claim_id"], verdict=d["verdict"], reviewer=d["reviewer"], rationale=d["rationale"],
            evidence=evidence_from(json.dumps(d.get("evidence") or [])),
            fix=fix_from(json.dumps(d["fix"]) if d.get("fix") else None),
            model=d.get("model"), doc_sha256=d.get("doc_sha256"), checks=tuple(d.get("checks") or ()),
            coverage=tuple(d.get("coverage") or ()),
        )
    except _DECODE_ERRORS as exc:
        raise _corrupt("verdict", text, exc) from exc


def row_to_stored(row: Any) -> StoredVerdict:
    """One row, or a one-line ``VerdictStoreError`` naming the row when a cell is corrupt."""
    try:
        return _row_to_stored(row)
    except VerdictStoreError as exc:
        raise VerdictStoreError(f"{_row_name(row)}: {exc}") from exc
    except _DECODE_ERRORS as exc:
        raise VerdictStoreError(f"{_row_name(row)}: corrupt row in the verdict store ({type(exc).__name__})") from exc


def rows_to_stored(rows: Iterable[Any]) -> list[StoredVerdict]:
    """Every readable row: a corrupt one is skipped with one warning line, so one bad row
    (a disk fault, a hand edit) never hides the user's other decisions. The row itself is
    left in the file untouched: nothing the user decided is deleted by reading."""
    out: list[StoredVerdict] = []
    for row in rows:
        try:
            out.append(row_to_stored(row))
        except VerdictStoreError as exc:
            log.warning("skipped: %s", exc)
    return out


def _row_name(row: Any) -> str:
    try:
        return f"{row['doc_path']} claim {row['claim_id']} ({row['reviewer']})"
    except (KeyError, IndexError, TypeError):
        return "a verdict row"


def _row_to_stored(row: Any) -> StoredVerdict:
    claim = Claim(
        id=row["claim_id"], doc_path=row["doc_path"], start_line=row["start_line"], end_line=row["end_line"],
        text=row["text"], kind=row["kind"], symbols=tuple(json.loads(row["symbols"] or "[]")),
        code_spans=tuple(json.loads(row["code_spans"] or "[]")), section=row["section"], context=row["context"] or "",
    )
    checks, coverage = checks_from(row["checks"])
    verdict = Verdict(
        claim_id=row["claim_id"], verdict=row["verdict"], reviewer=row["reviewer"], rationale=row["rationale"] or "",
        evidence=evidence_from(row["evidence"]), fix=fix_from(row["fix"]), model=row["model"],
        doc_sha256=row["doc_sha256"], checks=checks, coverage=coverage,
    )
    return StoredVerdict(
        claim, verdict, row["decision"], row["edited_fix"], row["created_at"], row["updated_at"], row["decided_at"],
        verdict_from(row["original"]), row["applied_at"], verdict_from(row["decided"]),
    )


def is_noop_edit(sv: StoredVerdict, edited_fix: str | None) -> bool:
    """An edit that leaves the proposed fix (or, with none, the claim) as it was, trailing
    whitespace aside: not a decision."""
    if edited_fix is None:
        return False
    fix = sv.proposed_fix
    return edited_fix.rstrip() == (fix.replacement if fix is not None else sv.claim.text).rstrip()
