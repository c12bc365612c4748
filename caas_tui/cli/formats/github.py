"""``--format github``: GitHub Actions workflow commands and a Markdown step summary.

``::error`` for contradicted claims, ``::warning`` for incomplete ones, on the doc
lines. GitHub shows only about ten of each per step, so the first ten errors and ten
warnings become commands and the rest one summary line; the step summary (written to
``$GITHUB_STEP_SUMMARY`` by the CLI) lists every finding. Suppressed findings are
not annotated; the summary counts them.
"""

from __future__ import annotations

from caas_tui.review.report import DocOutcome, Outcome, Report, rule_id

MAX_PER_LEVEL = 10
_LEVEL = {"contradicted": "error", "incomplete": "warning"}


def escape_data(text: str) -> str:
    """The message part of a workflow command (GitHub's ``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A ``key=value`` property of a workflow command (GitHub's ``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _path(prefix: str, doc: str) -> str:
    return f"{prefix.rstrip('/')}/{doc}" if prefix else doc


def command(doc: DocOutcome, outcome: Outcome, prefix: str = "") -> str:
    claim, verdict = outcome.claim, outcome.verdict
    props = ",".join(
        f"{key}={escape_property(str(value))}"
        for key, value in (
            ("file", _path(prefix, doc.doc_path)),
            ("line", claim.start_line),
            ("endLine", claim.end_line),
            ("title", f"{verdict.verdict} ({rule_id(claim, verdict)})"),
        )
    )
    message = verdict.rationale
    if verdict.fix is not None:
        message += f"\nSuggested fix (lines {verdict.fix.start_line}-{verdict.fix.end_line}):\n{verdict.fix.replacement}"
    return f"::{_LEVEL[verdict.verdict]} {props}::{escape_data(message)}"


def github_commands(report: Report, prefix: str = "") -> list[str]:
    """Workflow command lines, then (when some were held back) one summary line."""
    lines: list[str] = []
    shown = {"error": 0, "warning": 0}
    held = {"error": 0, "warning": 0}
    for doc, outcome in report.findings():
        if outcome.suppressed is not None:
            continue
        level = _LEVEL[outcome.verdict.verdict]
        if shown[level] < MAX_PER_LEVEL:
            lines.append(command(doc, outcome, prefix))
            shown[level] += 1
        else:
            held[level] += 1
    if held["error"] or held["warning"]:
        lines.append(
            f"caas-tui: {held['error']} more contradicted and {held['warning']} more incomplete claims not annotated "
            f"(GitHub shows {MAX_PER_LEVEL} errors and {MAX_PER_LEVEL} warnings per step); see the job summary"
        )
    return lines


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def github_summary(report: Report, prefix: str = "") -> str:
    """Markdown for ``$GITHUB_STEP_SUMMARY``: counts, then one table row per finding."""
    failing = len(report.failing())
    head = "✅ no failing findings" if not failing else f"❌ {failing} failing finding{'s' if failing != 1 else ''}"
    out = [f"## caas-tui review: {head}", "", f"{report.summary()}; fail on `{report.fail_on}` and above.", ""]
    findings = report.findings()
    if findings:
        out += ["| verdict | where | claim | why |", "| --- | --- | --- | --- |"]
        for doc, outcome in findings:
            claim, verdict = outcome.claim, outcome.verdict
            label = verdict.verdict + (f" (suppressed: {_cell(outcome.suppressed)})" if outcome.suppressed else "")
            text = claim.text if len(claim.text) <= 160 else claim.text[:159] + "…"
            out.append(f"| {label} | `{_path(prefix, doc.doc_path)}:{claim.start_line}` | {_cell(text)} "
                       f"| {_cell(verdict.rationale)} |")
    return "\n".join(out) + "\n"
