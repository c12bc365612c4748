"""JSON encoding of verdict parts for the SQLite store, and the row type it returns."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict


@dataclass(frozen=True, slots=True)
class StoredVerdict:
    claim: Claim
    verdict: Verdict
    decision: str  # pending | accepted | rejected | edited
    edited_fix: str | None
    created_at: float
    updated_at: float
    decided_at: float | None
    original: Verdict | None = None  # the verdict as judged, when it has since gone stale
    applied_at: float | None = None  # when its fix was written into the doc (export --apply / the app)

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


def fix_from(text: str | None) -> Fix | None:
    if not text:
        return None
    data = json.loads(text)
    return Fix(int(data["start_line"]), int(data["end_line"]), str(data["replacement"]))


def evidence_json(spans: tuple[EvidenceSpan, ...]) -> str:
    return json.dumps([
        {"path": s.path, "start_line": s.start_line, "end_line": s.end_line, "symbol": s.symbol,
         "sha256": s.sha256, "note": s.note}
        for s in spans
    ])


def evidence_from(text: str | None) -> tuple[EvidenceSpan, ...]:
    if not text:
        return ()
    return tuple(
        EvidenceSpan(d["path"], int(d["start_line"]), int(d["end_line"]), d.get("symbol"), d.get("sha256"), d.get("note"))
        for d in json.loads(text)
    )


def verdict_json(v: Verdict) -> str:
    return json.dumps({
        "claim_id": v.claim_id, "verdict": v.verdict, "reviewer": v.reviewer, "rationale": v.rationale,
        "evidence": json.loads(evidence_json(v.evidence)), "fix": v.fix.to_json() if v.fix else None,
        "model": v.model, "doc_sha256": v.doc_sha256, "checks": list(v.checks),
    })


def verdict_from(text: str | None) -> Verdict | None:
    if not text:
        return None
    d: dict[str, Any] = json.loads(text)
    return Verdict(
        claim_id=d["claim_id"], verdict=d["verdict"], reviewer=d["reviewer"], rationale=d["rationale"],
        evidence=evidence_from(json.dumps(d.get("evidence") or [])), fix=fix_from(json.dumps(d["fix"]) if d.get("fix") else None),
        model=d.get("model"), doc_sha256=d.get("doc_sha256"), checks=tuple(d.get("checks") or ()),
    )


def row_to_stored(row: Any) -> StoredVerdict:
    claim = Claim(
        id=row["claim_id"], doc_path=row["doc_path"], start_line=row["start_line"], end_line=row["end_line"],
        text=row["text"], kind=row["kind"], symbols=tuple(json.loads(row["symbols"] or "[]")),
        code_spans=tuple(json.loads(row["code_spans"] or "[]")), section=row["section"], context=row["context"] or "",
    )
    verdict = Verdict(
        claim_id=row["claim_id"], verdict=row["verdict"], reviewer=row["reviewer"], rationale=row["rationale"] or "",
        evidence=evidence_from(row["evidence"]), fix=fix_from(row["fix"]), model=row["model"],
        doc_sha256=row["doc_sha256"], checks=tuple(json.loads(row["checks"] or "[]")),
    )
    return StoredVerdict(
        claim, verdict, row["decision"], row["edited_fix"], row["created_at"], row["updated_at"], row["decided_at"],
        verdict_from(row["original"]), row["applied_at"],
    )
