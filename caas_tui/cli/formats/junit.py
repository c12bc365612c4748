"""``--format junit``: JUnit XML, what most CI test-report widgets read.

One ``testsuite`` per doc (name = the doc path), one ``testcase`` per claim
(classname = the doc path, name = line and claim text, ``file``/``line`` attributes).
What a case reports follows the exit code, so the widget and the run agree:

- a finding at or above ``--fail-on`` -> ``<failure>`` (type = rule id, message = why,
  body = file:line, claim, evidence and fix);
- a suppressed finding (inline marker or baseline) -> ``<skipped>`` with the reason;
- ``unverified`` (nothing checkable) -> ``<skipped>``: neither passed nor failed;
- consistent claims, and findings below ``--fail-on`` -> passed (the latter with the
  finding in ``<system-out>``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from caas_tui.review.report import DocOutcome, Outcome, Report, fails, rule_id


def _name(outcome: Outcome) -> str:
    text = " ".join(outcome.claim.text.split())
    text = text if len(text) <= 100 else text[:99] + "…"
    return f"line {outcome.claim.start_line}: {text}"


def _details(doc: DocOutcome, outcome: Outcome) -> str:
    claim, verdict = outcome.claim, outcome.verdict
    lines = [f"{doc.doc_path}:{claim.start_line}-{claim.end_line}: {verdict.verdict}", claim.text, "",
             verdict.rationale]
    lines += [f"evidence: {e.path}:{e.start_line}-{e.end_line}" + (f" ({e.symbol})" if e.symbol else "")
              for e in verdict.evidence]
    if verdict.fix is not None:
        lines += [f"fix (lines {verdict.fix.start_line}-{verdict.fix.end_line}):", verdict.fix.replacement]
    return "\n".join(lines)


def _case(suite: ET.Element, doc: DocOutcome, outcome: Outcome, report: Report) -> str:
    """Add one testcase; returns its state: passed | failed | skipped."""
    claim, verdict = outcome.claim, outcome.verdict
    case = ET.SubElement(suite, "testcase", {
        "classname": doc.doc_path, "name": _name(outcome), "file": doc.doc_path, "line": str(claim.start_line),
        "time": "0",
    })
    if fails(outcome, report.fail_on):
        failure = ET.SubElement(case, "failure", {"type": rule_id(claim, verdict), "message": verdict.rationale})
        failure.text = _details(doc, outcome)
        return "failed"
    if outcome.suppressed is not None:
        ET.SubElement(case, "skipped", {"message": f"{verdict.verdict}, suppressed: {outcome.suppressed}"})
        return "skipped"
    if verdict.verdict == "unverified":
        ET.SubElement(case, "skipped", {"message": f"unverified: {verdict.rationale}"})
        return "skipped"
    if outcome.is_finding:
        ET.SubElement(case, "system-out").text = _details(doc, outcome)
    return "passed"


def junit_xml(report: Report) -> str:
    root = ET.Element("testsuites", {"name": "caas-tui review"})
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for doc in report.docs:
        suite = ET.SubElement(root, "testsuite", {"name": doc.doc_path})
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for outcome in doc.outcomes:
            state = _case(suite, doc, outcome, report)
            counts["tests"] += 1
            counts["failures"] += state == "failed"
            counts["skipped"] += state == "skipped"
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("errors", "0")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
