"""Reviewer verdicts against every findings manifest, per project and category (a script).

    python bench/review.py [--reviewer static|claude ...] [--root PROJECT ...] [--json]

For each manifest (``sample_project/FINDINGS.toml``, ``demo_projects/*/FINDINGS.toml``)
every doc it names is reviewed, and each entry is matched to the claim(s) covering its
doc line (the rule of tests/test_static_reviewer_findings.py). A finding's label is the
most severe label among its matched claims (contradicted > incomplete > unverified >
consistent). Reported per project, per category, over the project's ``all``, and split into API-surface
entries (``surface = true``: names, signatures, types, defaults) and behaviour entries:

- detected: defects (manifest verdict contradicted/incomplete) labelled contradicted or incomplete;
- label_accuracy: entries whose label equals the manifest's verdict (defects and correct claims);
- false_flags: correct claims (verdict ``consistent``) labelled contradicted or incomplete;
- defects_consistent / defects_unverified: share of defects labelled ``consistent`` / ``unverified``.

Projects are never pooled. Results go to ``bench/results/review.json``.
The Claude run needs ANTHROPIC_API_KEY; without one it is skipped with a line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import load_findings
from caas_tui.review import make_reviewer, review_doc
from caas_tui.review.base import Reviewer
from caas_tui.review.manifest import matching
from caas_tui.review.merge import merge_reviews

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "review.json"
FLAGS = ("contradicted", "incomplete")
SEVERITY = ("contradicted", "incomplete", "unverified", "stale", "consistent")  # most severe first
CATEGORIES = ("single-file", "cross-file", "cross-system")


def manifest_roots() -> list[Path]:
    """Every project under the repo that keeps a findings manifest."""
    roots = [REPO / "sample_project"]
    roots += sorted(p.parent for p in (REPO / "demo_projects").glob("*/FINDINGS.toml"))
    return [r for r in roots if (r / "FINDINGS.toml").is_file()]


def finding_label(pairs: Sequence[tuple[Claim, Verdict]]) -> str:
    """The most severe label among the matched claims; ``no-claim`` when nothing covers the line."""
    labels = {v.verdict for _, v in pairs}
    return next((label for label in SEVERITY if label in labels), "no-claim")


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _row(category: str, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    defects = [e for e in entries if e["expected"] != "consistent"]
    correct = [e for e in entries if e["expected"] == "consistent"]
    n_detected = sum(e["label"] in FLAGS for e in defects)
    n_false = sum(e["label"] in FLAGS for e in correct)
    return {
        "category": category,
        "defects": len(defects),
        "correct": len(correct),
        "detected": n_detected,
        "detected_rate": _ratio(n_detected, len(defects)),
        "label_correct": sum(e["label"] == e["expected"] for e in entries),
        "label_accuracy": _ratio(sum(e["label"] == e["expected"] for e in entries), len(entries)),
        "false_flags": n_false,
        "false_flag_rate": _ratio(n_false, len(correct)),
        "defects_consistent": _ratio(sum(e["label"] == "consistent" for e in defects), len(defects)),
        "defects_unverified": _ratio(sum(e["label"] == "unverified" for e in defects), len(defects)),
        "no_claim": sum(e["label"] == "no-claim" for e in entries),
    }


def evaluate(root: Path, reviewer: Reviewer, index_dir: Path, *, also: Reviewer | None = None) -> dict[str, Any]:
    """Review every doc the manifest at ``root`` names and score each entry against it.

    With ``also`` (the ``execute`` reviewer), each doc is reviewed by both and the verdicts are
    merged as ``review --execute`` merges them: the deciding verdict per claim.
    """
    findings = load_findings(root / "FINDINGS.toml")
    engine = Engine.open(root, index_dir=index_dir)
    try:
        reviews = {}
        for doc in sorted({f.doc for f in findings}):
            review = review_doc(engine, doc, reviewer)
            if also is not None:
                review, _ = merge_reviews(review, review_doc(engine, doc, also))
            reviews[doc] = review
    finally:
        engine.close()
    entries: list[dict[str, Any]] = []
    for f in findings:
        pairs = matching(reviews[f.doc], f)
        entries.append({
            "id": f.id, "doc": f.doc, "line": f.line, "category": f.category, "surface": f.surface,
            "expected": f.verdict, "label": finding_label(pairs),
            "rationale": " | ".join(v.rationale for _, v in pairs)[:400],
        })
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        by_cat[e["category"]].append(e)
    cats = [c for c in CATEGORIES if c in by_cat] + sorted(set(by_cat) - set(CATEGORIES))
    # API-surface facts are what a static checker can decide; the split shows where detection is lost.
    by_surface = [_row(name, [e for e in entries if e["surface"] is want])
                  for name, want in (("surface", True), ("behaviour", False))]
    rows = [_row(c, by_cat[c]) for c in cats] + [_row("all", entries)]
    name = reviewer.name if also is None else f"{reviewer.name}+{also.name}"
    return {"project": root.name, "root": _display(root), "reviewer": name, "rows": rows,
            "by_surface": by_surface, "findings": entries}


def _display(root: Path) -> str:
    return root.relative_to(REPO).as_posix() if root.is_relative_to(REPO) else str(root)


def pick_reviewer(name: str, root: Path) -> tuple[Reviewer | None, str | None]:
    """The product's reviewer called ``name``, or None and the reason it cannot run here."""
    if name == "claude" and not os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return None, "no ANTHROPIC_API_KEY"
    from caas_tui.config import load_config

    reviewer, fallback = make_reviewer(name, load_config(root))
    if fallback is not None and reviewer.name != name:
        return None, fallback
    return reviewer, None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def table(results: Sequence[dict[str, Any]]) -> str:
    out = ["| project | reviewer | category | defects | detected | label acc | false flags | "
           "defects consistent | defects unverified |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for row in [*r["rows"], *r.get("by_surface", [])]:
            n_all = row["defects"] + row["correct"]
            out.append(
                f"| {r['project']} | {r['reviewer']} | {row['category']} | {row['defects']} | "
                f"{row['detected']}/{row['defects']} ({_pct(row['detected_rate'])}) | "
                f"{row['label_correct']}/{n_all} ({_pct(row['label_accuracy'])}) | "
                f"{row['false_flags']}/{row['correct']} ({_pct(row['false_flag_rate'])}) | "
                f"{_pct(row['defects_consistent'])} | {_pct(row['defects_unverified'])} |"
            )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--reviewer", action="append", choices=("static", "claude", "static+execute"),
                    help="reviewer(s) to run (repeatable; default: static and claude)")
    ap.add_argument("--root", type=Path, action="append", help="project root(s) with a FINDINGS.toml (default: all)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    ap.add_argument("--out", type=Path, default=RESULTS, help=f"results file (default: {_display(RESULTS)})")
    args = ap.parse_args(argv)
    roots = [r.resolve() for r in args.root] if args.root else manifest_roots()
    results: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for name in args.reviewer or ["static", "claude"]:
        base, _, extra = name.partition("+")
        for root in roots:
            reviewer, why = pick_reviewer(base, root)
            if reviewer is None:
                skipped[name] = why or "unavailable"
                break
            also = None
            if extra == "execute":
                from caas_tui.review.execute import ExecuteReviewer  # the sandbox: only when asked for

                also = ExecuteReviewer()
            with tempfile.TemporaryDirectory(prefix="caas-bench-review-") as tmp:
                results.append(evaluate(root, reviewer, Path(tmp), also=also))
    for name, why in skipped.items():
        print(f"{name}: skipped ({why})", file=sys.stderr if args.json else sys.stdout)
    payload = {"results": results, "skipped": skipped}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(payload, indent=2) if args.json else table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
