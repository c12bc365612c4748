"""``caas-tui review``: check docs against the code and store the verdicts.

``--check`` is for CI: without DOC it reviews every doc and module, prints one
``path:line: contradicted: rationale`` line per failing finding (or the chosen
``--format``) and sets the exit code: 0 clean, 1 when an unsuppressed finding is at
or above ``--fail-on`` (default ``contradicted``), 2 on an error. ``--baseline``
and inline ``caas: ignore`` markers suppress findings (still reported, marked
suppressed); ``--changed-since REF`` narrows the run to what a diff can make wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from caas_tui.cli.common import add_root, announce_model_preparation, open_engine, progress_bar
from caas_tui.cli.formats import FORMATS, doc_json
from caas_tui.cli.formats.output import path_prefix, write_output
from caas_tui.config import REVIEW_PROVIDERS
from caas_tui.errors import CaasError
from caas_tui.live.changes import Scope, changed_since, make_scope
from caas_tui.models import FAIL_ONS, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.baseline import Baseline, write_baseline
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.merge import execute_pairs_to_store, merge_reviews, verdict_json
from caas_tui.review.report import DocOutcome, Report, doc_outcome, make_report
from caas_tui.review.runner import relative_doc_path, review_doc, reviewable_paths
from caas_tui.review.select import REVIEWERS, make_reviewer
from caas_tui.review.textutil import read_text

if TYPE_CHECKING:
    from rich.console import Console

    from caas_tui.review.execute import ExecuteReviewer
from caas_tui.sources import discover
from caas_tui.sources.discover import left_out_docs, left_out_message

_STYLE = {"contradicted": "bold red", "incomplete": "yellow", "consistent": "green", "unverified": "dim", "stale": "magenta"}


def notify(message: str) -> None:
    """One line on stderr, never wrapped (CI logs and tests grep these)."""
    print(f"caas-tui: {message}", file=sys.stderr, flush=True)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="check docs against the code (verdicts are stored for the app and export)")
    add_root(p)
    p.add_argument("--reviewer", choices=REVIEWERS, default="static", help="who judges the claims (default: static)")
    p.add_argument("--json", action="store_true", help="print one JSON object per doc (JSON Lines); = --format json")
    p.add_argument("--check", action="store_true",
                   help="CI mode: print failing findings, exit 1 if any; without DOC reviews every doc and module")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="output: text (default), json (JSON Lines), github (workflow commands), sarif, junit")
    p.add_argument("--output", type=Path, default=None, metavar="FILE", help="write the output to FILE, not stdout")
    p.add_argument("--fail-on", choices=FAIL_ONS, default=None,
                   help="lowest verdict that makes the exit code 1 (default: contradicted); implies the CI exit code")
    p.add_argument("--changed-since", default=None, metavar="REF",
                   help="only claims of docs changed since git REF, or whose evidence lies in code changed since")
    p.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                   help="accepted findings (from --write-baseline): reported as suppressed, never fail the run")
    p.add_argument("--write-baseline", type=Path, default=None, metavar="FILE",
                   help="accept every current finding: write them to FILE and exit 0")
    p.add_argument("--provider", choices=REVIEW_PROVIDERS, default=None,
                   help="Claude provider for --reviewer claude (default: [review] provider, else anthropic)")
    p.add_argument("--reviewer-model", "--claude-model", dest="reviewer_model", default=None, metavar="MODEL",
                   help="model for --reviewer claude (--model is the embedding model)")
    p.add_argument("--base-url", default=None, metavar="URL",
                   help="Anthropic-compatible endpoint for --reviewer claude (a proxy, Ollama, llama.cpp's server)")
    p.add_argument("--execute", action="store_true", default=None,
                   help="also run the docs' Python code blocks in a sandbox (reviewer 'execute'; [review] execute)")
    p.add_argument("--python", metavar="PATH", default=None,
                   help="interpreter for --execute when the project has no .venv/ or venv/ ([review] python)")
    p.add_argument("docs", nargs="*", metavar="DOC", help="Markdown, reST or Python files to review")


def check_lines(report: Report) -> list[str]:
    return [
        f"{doc.doc_path}:{o.claim.start_line}: {o.verdict.verdict}: {' '.join(o.verdict.rationale.split())}"
        for doc, o in report.failing()
    ]


def _summary(console: Console, result: DocOutcome) -> None:
    from rich.table import Table  # only for the text summary: --json and --format runs never load rich
    from rich.text import Text

    counts = ", ".join(f"{result.count(k)} {k}" for k in ("contradicted", "incomplete", "consistent", "unverified")
                       if result.count(k))
    console.print(Text(f"{result.doc_path}: {len(result.outcomes)} claims ({counts or 'none'})", style="bold"))
    flagged = [o for o in result.outcomes if o.is_finding]
    if not flagged:
        return
    table = Table(show_header=True, expand=True, show_lines=False)
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("claim / why")
    for outcome in flagged:
        claim, verdict = outcome.claim, outcome.verdict
        body = Text(claim.text if len(claim.text) <= 200 else claim.text[:199] + "…")
        body.append("\n")
        body.append(Text(verdict.rationale, style="italic"))
        if verdict.fix is not None:
            body.append(Text(f"\nfix {verdict.fix.start_line}-{verdict.fix.end_line}: ", style="cyan"))
            body.append(Text(verdict.fix.replacement))
        if outcome.suppressed is not None:
            body.append(Text(f"\nsuppressed: {outcome.suppressed}", style="dim"))
        label = Text(verdict.verdict, style="dim" if outcome.suppressed else _STYLE.get(verdict.verdict, ""))
        table.add_row(str(claim.start_line), label, body)
    console.print(table)


def _scope(engine: Engine, store: VerdictStore, ref: str, docs: list[str]) -> tuple[Scope, list[str]]:
    """The ``--changed-since`` scope and the docs worth reviewing under it."""
    changes = changed_since(engine.root, ref)
    scope = make_scope(changes, engine.chunks(), ((s.claim, s.verdict) for s in store.all()))
    kept = [d for d in docs if scope.candidate(d, extract_claims(d, read_text(engine.resolve_path(d))))]
    notify(f"--changed-since {ref}: {len(changes.paths)} changed file{'s' if len(changes.paths) != 1 else ''}, "
           f"{len(kept)} of {len(docs)} docs to review")
    return scope, kept


def _with_every_verdict(item: dict[str, Any], every: dict[str, tuple[Verdict, ...]]) -> dict[str, Any]:
    """Each claim judged by several reviewers also lists them all; ``verdict`` stays the deciding one."""
    for claim in item["claims"]:
        if len(every.get(claim["id"], ())) > 1:
            claim["verdicts"] = [verdict_json(v) for v in every[claim["id"]]]
    return item


def _render(fmt: str, report: Report, engine: Engine, every: dict[str, tuple[Verdict, ...]] | None = None) -> str:
    prefix = path_prefix(engine.root)
    if fmt == "json":
        return "".join(json.dumps(_with_every_verdict(doc_json(d), every or {}), ensure_ascii=False) + "\n"
                       for d in report.docs)
    if fmt == "github":
        from caas_tui.cli.formats import github_commands

        lines = github_commands(report, prefix)
        return "".join(line + "\n" for line in lines)
    if fmt == "sarif":
        base = Path.cwd() if prefix else engine.root  # the directory SARIF's relative uris start from
        from caas_tui.cli.formats import sarif_log

        return json.dumps(sarif_log(report, prefix=prefix, root_uri=base.resolve().as_uri()), indent=2) + "\n"
    if fmt == "junit":
        from caas_tui.cli.formats import junit_xml

        return junit_xml(report)
    return "".join(line + "\n" for line in check_lines(report))


def run(args: argparse.Namespace) -> int:
    if not args.docs and not args.check and not args.changed_since and not args.write_baseline:
        raise CaasError("review needs DOC... (or --check to review every doc)")
    if args.json and args.format not in ("text", "json"):
        raise CaasError(f"--json and --format {args.format} ask for two outputs; choose one")
    fmt = "json" if args.json else args.format
    gating = args.check or args.fail_on is not None or args.baseline is not None
    baseline = Baseline.load(args.baseline) if args.baseline is not None else None
    engine = open_engine(args)
    try:
        cfg = engine.cfg.with_overrides(review_provider=args.provider, review_model=args.reviewer_model,
                                        review_base_url=args.base_url)
        reviewer, warning = make_reviewer(args.reviewer, cfg)
        if warning:
            notify(warning)
        if getattr(reviewer, "rerank", False):
            announce_model_preparation()
        docs = [relative_doc_path(engine, d) for d in args.docs] if args.docs else reviewable_paths(engine)
        if not args.docs:
            left_out = left_out_message(left_out_docs(engine.cfg, discover(engine.cfg)))
            if left_out:
                notify(left_out)
        executor: ExecuteReviewer | None = None
        if args.execute or (args.execute is None and engine.cfg.review_execute):
            from caas_tui.review.execute import ExecuteReviewer  # the sandbox: only for --execute

            executor = ExecuteReviewer(python=args.python or engine.cfg.review_python)
        every: dict[str, tuple[Verdict, ...]] = {}
        console: Console | None = None
        outcomes: list[DocOutcome] = []
        with VerdictStore.open(engine.cfg) as store, progress_bar() as update:
            scope = None
            if args.changed_since:
                scope, docs = _scope(engine, store, args.changed_since, docs)
            for doc in docs:
                progress = (lambda d, t, _m, doc=doc: update(doc[-24:], d, t)) if update else None
                result = review_doc(engine, doc, reviewer, progress=progress)
                store.record_review(result.doc_path, result.reviewer, result.pairs())
                for warning in result.warnings:
                    notify(f"warning: {warning}")
                if executor is not None:
                    executed = review_doc(engine, doc, executor)
                    for line in executor.take_notes():
                        notify(line)
                    store.record_review(executed.doc_path, executed.reviewer, execute_pairs_to_store(executed, result),
                                        present=[c.id for c in executed.claims])
                    result, judged = merge_reviews(result, executed)
                    every.update(judged)
                text = read_text(engine.resolve_path(result.doc_path))
                outcome = doc_outcome(result, text, baseline=baseline, keep=scope.keeps if scope else None)
                outcomes.append(outcome)
                if fmt == "text" and not args.check and args.output is None:
                    if console is None:
                        from rich.console import Console

                        console = Console(highlight=False)
                    _summary(console, outcome)
        report = make_report(outcomes, args.fail_on or "contradicted")
        if args.write_baseline is not None:
            count = write_baseline(args.write_baseline, report.baseline_entries())
            notify(f"wrote {count} accepted finding{'s' if count != 1 else ''} to {args.write_baseline}")
            return 0
        if fmt != "text" or args.check or args.output is not None:
            write_output(_render(fmt, report, engine, every), args.output)
        if fmt == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
            from caas_tui.cli.formats import github_summary

            write_output(github_summary(report, path_prefix(engine.root)), Path(os.environ["GITHUB_STEP_SUMMARY"]),
                         append=True)
        if args.check or gating:
            notify(report.summary())
            return report.exit_code
        return 0
    finally:
        engine.close()


__all__ = ["add_parser", "check_lines", "run"]
