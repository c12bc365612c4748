"""``--format json``: one JSON object per doc (JSON Lines), every claim with its verdict.

A suppressed claim carries ``"suppressed": {"by": "inline" | "baseline", "reason": ...}``;
the key is absent on claims that count, so the shape of unsuppressed claims is unchanged.
A claim asserting more than names carries ``"coverage": ["names:checked", "returns:unchecked"]``
(each assertion kind and whether it was checked; an unchecked one keeps it from ``consistent``).
"""

from __future__ import annotations

from typing import Any

from caas_tui.review.report import DocOutcome, Outcome


def claim_json(outcome: Outcome) -> dict[str, Any]:
    claim, verdict = outcome.claim, outcome.verdict
    out: dict[str, Any] = {
        "id": claim.id,
        "line": claim.start_line,
        "end_line": claim.end_line,
        "text": claim.text,
        "verdict": verdict.verdict,
        "rationale": verdict.rationale,
        "evidence": [e.to_json() for e in verdict.evidence],
        "fix": verdict.fix.to_json() if verdict.fix else None,
    }
    if any(c != "names:checked" for c in verdict.coverage):
        out["coverage"] = list(verdict.coverage)
    if outcome.suppressed is not None:
        out["suppressed"] = {"by": outcome.suppressed_by, "reason": outcome.suppressed}
    return out


def doc_json(doc: DocOutcome) -> dict[str, Any]:
    return {"doc": doc.doc_path, "reviewer": doc.reviewer, "claims": [claim_json(o) for o in doc.outcomes]}
