"""``--format sarif``: SARIF 2.1.0, the format GitHub code scanning ingests.

One rule per verdict and kind of check (``caas/contradicted/parameter``...), each
finding a result on the doc lines, its evidence as related locations, its fix as a
``fixes`` entry (the claim's lines replaced), the claim id as a partial fingerprint
(so code scanning follows a claim that moves), and inline or baseline suppressions as
SARIF ``suppressions`` (``inSource`` / ``external``).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

from caas_tui.models import EvidenceSpan
from caas_tui.review.report import RULE_HELP, DocOutcome, Outcome, Report, rule_id

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID = "SRCROOT"
_LEVEL = {"contradicted": "error", "incomplete": "warning"}


def _tool_version() -> str:
    try:
        return version("caas-tui")
    except PackageNotFoundError:
        return "0"


def _location(path: str, start: int, end: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": BASE_ID},
            "region": {"startLine": max(1, start), "endLine": max(1, start, end)},
        }
    }


def _related(index: int, span: EvidenceSpan, prefix: str) -> dict[str, Any]:
    loc = _location(_join(prefix, span.path), span.start_line, span.end_line)
    loc["id"] = index
    loc["message"] = {"text": f"evidence: {span.symbol}" if span.symbol else "evidence"}
    return loc


def _join(prefix: str, path: str) -> str:
    return f"{prefix.rstrip('/')}/{path}" if prefix else path


def _result(doc: DocOutcome, outcome: Outcome, rule_index: int, prefix: str) -> dict[str, Any]:
    claim, verdict = outcome.claim, outcome.verdict
    path = _join(prefix, doc.doc_path)
    result: dict[str, Any] = {
        "ruleId": rule_id(claim, verdict),
        "ruleIndex": rule_index,
        "level": _LEVEL[verdict.verdict],
        "message": {"text": verdict.rationale or verdict.verdict},
        "locations": [_location(path, claim.start_line, claim.end_line)],
        "partialFingerprints": {"caasClaimId/v1": claim.id},
        "properties": {"verdict": verdict.verdict, "reviewer": verdict.reviewer, "claim": claim.text},
    }
    if verdict.evidence:
        result["relatedLocations"] = [_related(i, e, prefix) for i, e in enumerate(verdict.evidence, start=1)]
    if verdict.fix is not None:
        fix = verdict.fix
        result["fixes"] = [{
            "description": {"text": f"Replace lines {fix.start_line}-{fix.end_line} of {doc.doc_path}"},
            "artifactChanges": [{
                "artifactLocation": {"uri": path, "uriBaseId": BASE_ID},
                "replacements": [{
                    "deletedRegion": {"startLine": fix.start_line, "endLine": max(fix.start_line, fix.end_line)},
                    "insertedContent": {"text": fix.replacement},
                }],
            }],
        }]
    if outcome.suppressed is not None:
        result["suppressions"] = [{
            "kind": "inSource" if outcome.suppressed_by == "inline" else "external",
            "status": "accepted",
            "justification": outcome.suppressed,
        }]
    return result


def _rule(rid: str, kind: str, label: str) -> dict[str, Any]:
    return {
        "id": rid,
        "name": "".join(part.capitalize() for part in f"{label}-{kind}".split("-")),
        "shortDescription": {"text": f"{label}: {RULE_HELP[kind]}"},
        "defaultConfiguration": {"level": _LEVEL[label]},
        "properties": {"verdict": label, "check": kind},
    }


def sarif_log(report: Report, *, prefix: str = "", root_uri: str | None = None) -> dict[str, Any]:
    """The SARIF log of ``report``'s findings (unverified and consistent claims are not results)."""
    findings = report.findings()
    rule_ids = sorted({rule_id(o.claim, o.verdict) for _d, o in findings})
    index = {rid: i for i, rid in enumerate(rule_ids)}
    rules: list[dict[str, Any]] = []
    for rid in rule_ids:
        _caas, label, kind = rid.split("/", 2)
        rules.append(_rule(rid, kind, label))
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "caas-tui",
            "version": _tool_version(),
            "rules": rules,
        }},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, o, index[rule_id(o.claim, o.verdict)], prefix) for d, o in findings],
        "properties": {"failOn": report.fail_on, "exitCode": report.exit_code},
    }
    if root_uri is not None:
        run["originalUriBaseIds"] = {BASE_ID: {"uri": root_uri if root_uri.endswith("/") else root_uri + "/"}}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


__all__ = ["SCHEMA", "sarif_log"]
