"""The hand-checked flags file of ``bench/drift.py`` (``bench/results/drift_flags.md``):
verdicts written there (``<!-- check: true|false positive — reason -->``) survive re-runs."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CHECK = re.compile(r"<!-- check: (true|false) positive\W+(.*?) -->")


def flag_id(f: dict[str, Any]) -> str:
    return f"{f['package']} {f['doc']}:{f['line']}"


def previous_checks(path: Path) -> dict[str, tuple[str, str]]:
    """Hand-check verdicts already in ``drift_flags.md``, by flag id (survive re-runs)."""
    if not path.is_file():
        return {}
    checks: dict[str, tuple[str, str]] = {}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^## \d+\. `(.+)`$", line)
        if m:
            current = m.group(1)
        c = CHECK.search(line)
        if c and current:
            checks[current] = (c.group(1), c.group(2))
    return checks


def write_flags(path: Path, flags: Sequence[dict[str, Any]]) -> tuple[int, int, int]:
    """Write the flags for hand-checking; returns (true, false, unchecked) counts."""
    checks = previous_checks(path)
    out = ["# Static reviewer flags on current releases' own guides (hand-checked)", "",
           "Each flag: the claim, the label, the rationale and evidence, then a hand check",
           "(`true positive` = the doc really disagrees with the code; `false positive` = it does not).",
           "Checks are kept across re-runs by flag id; new flags start unchecked.", ""]
    tally: Counter[str] = Counter()
    for i, f in enumerate(flags, 1):
        fid = flag_id(f)
        out += [f"## {i}. `{fid}`", "", f"- label: **{f['label']}**", f"- rationale: {f['rationale']}",
                f"- evidence: {', '.join(f['evidence']) or '-'}", "", "```text", f["text"].strip()[:800], "```", ""]
        if fid in checks:
            verdict, reason = checks[fid]
            tally[verdict] += 1
            out += [f"<!-- check: {verdict} positive — {reason} -->", f"**hand check: {verdict} positive** — {reason}", ""]
        else:
            tally["unchecked"] += 1
            out += ["**hand check: unchecked**", ""]
    out += ["## Summary", "", f"- true positives: {tally['true']}", f"- false positives (wrong flags): {tally['false']}",
            f"- unchecked: {tally['unchecked']}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
    return tally["true"], tally["false"], tally["unchecked"]
