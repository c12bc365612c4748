"""``caas-tui review``: check docs against the code and store the verdicts.

``--check`` is for CI: one ``path:line: contradicted: rationale`` line per finding and
exit code 1 when any claim is contradicted.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from caas_tui.cli.common import add_root, announce_model_preparation, open_engine, progress_bar
from caas_tui.errors import CaasError
from caas_tui.models import Claim, Verdict
from caas_tui.review.runner import (
    DocReview,
    relative_doc_path,
    review_doc,
    reviewable_paths,
)
from caas_tui.review.select import REVIEWERS, make_reviewer
from caas_tui.review.store import VerdictStore

_STYLE = {"contradicted": "bold red", "incomplete": "yellow", "consistent": "green", "unverified": "dim", "stale": "magenta"}


def notify(message: str) -> None:
    """One line on stderr, never wrapped (CI logs and tests grep these)."""
    print(f"caas-tui: {message}", file=sys.stderr, flush=True)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="check docs against the code (verdicts are stored for the app and export)")
    add_root(p)
    p.add_argument("--reviewer", choices=REVIEWERS, default="static", help="who judges the claims (default: static)")
    p.add_argument("--json", action="store_true", help="print one JSON object per doc (JSON Lines)")
    p.add_argument("--check", action="store_true",
                   help="CI mode: print contradicted claims, exit 1 if any; without DOC reviews every doc and module")
    p.add_argument("docs", nargs="*", metavar="DOC", help="Markdown, reST or Python files to review")


def claim_json(claim: Claim, verdict: Verdict) -> dict[str, Any]:
    return {
        "id": claim.id,
        "line": claim.start_line,
        "end_line": claim.end_line,
        "text": claim.text,
        "verdict": verdict.verdict,
        "rationale": verdict.rationale,
        "evidence": [e.to_json() for e in verdict.evidence],
        "fix": verdict.fix.to_json() if verdict.fix else None,
    }


def doc_json(result: DocReview) -> dict[str, Any]:
    return {"doc": result.doc_path, "reviewer": result.reviewer,
            "claims": [claim_json(c, v) for c, v in result.pairs()]}


def check_lines(result: DocReview) -> list[str]:
    return [
        f"{result.doc_path}:{c.start_line}: contradicted: {' '.join(v.rationale.split())}"
        for c, v in result.pairs() if v.verdict == "contradicted"
    ]


def _summary(console: Console, result: DocReview) -> None:
    counts = ", ".join(f"{result.count(k)} {k}" for k in ("contradicted", "incomplete", "consistent", "unverified")
                       if result.count(k))
    console.print(Text(f"{result.doc_path}: {len(result.claims)} claims ({counts or 'none'})", style="bold"))
    flagged = [(c, v) for c, v in result.pairs() if v.verdict in ("contradicted", "incomplete")]
    if not flagged:
        return
    table = Table(show_header=True, expand=True, show_lines=False)
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("claim / why")
    for claim, verdict in flagged:
        body = Text(claim.text if len(claim.text) <= 200 else claim.text[:199] + "…")
        body.append("\n")
        body.append(Text(verdict.rationale, style="italic"))
        if verdict.fix is not None:
            body.append(Text(f"\nfix {verdict.fix.start_line}-{verdict.fix.end_line}: ", style="cyan"))
            body.append(Text(verdict.fix.replacement))
        table.add_row(str(claim.start_line), Text(verdict.verdict, style=_STYLE.get(verdict.verdict, "")), body)
    console.print(table)


def run(args: argparse.Namespace) -> int:
    if not args.docs and not args.check:
        raise CaasError("review needs DOC... (or --check to review every doc)")
    engine = open_engine(args)
    try:
        reviewer, warning = make_reviewer(args.reviewer, engine.cfg)
        if warning:
            notify(warning)
        if getattr(reviewer, "rerank", False):
            announce_model_preparation()
        docs = [relative_doc_path(engine, d) for d in args.docs] if args.docs else reviewable_paths(engine)
        console = Console(highlight=False)
        contradicted = incomplete = 0
        with VerdictStore.open(engine.cfg) as store, progress_bar() as update:
            for doc in docs:
                progress = (lambda d, t, _m, doc=doc: update(doc[-24:], d, t)) if update else None
                result = review_doc(engine, doc, reviewer, progress=progress)
                store.record_review(result.doc_path, result.reviewer, result.pairs())
                contradicted += result.count("contradicted")
                incomplete += result.count("incomplete")
                if args.json:
                    sys.stdout.write(json.dumps(doc_json(result), ensure_ascii=False) + "\n")
                elif args.check:
                    for line in check_lines(result):
                        sys.stdout.write(line + "\n")
                else:
                    _summary(console, result)
        sys.stdout.flush()
        if args.check:
            notify(f"{contradicted} contradicted, {incomplete} incomplete in {len(docs)} file{'s' if len(docs) != 1 else ''}")
            return 1 if contradicted else 0
        return 0
    finally:
        engine.close()
