"""``caas-tui status``: index age, files changed since, stale verdicts and drifting docs.

Read-only: the index is opened as it is (never built, repaired or refreshed).
"""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.text import Text

from caas_tui.cli.common import add_root, notify
from caas_tui.config import load_config
from caas_tui.errors import IndexStoreError, ProjectError
from caas_tui.live.status import StatusReport, collect_status, iso, usable_manifest
from caas_tui.retrieve.engine import Engine
from caas_tui.review.textutil import counted


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("status", help="what changed since the last index: stale verdicts, drifting docs (read-only)")
    add_root(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def _print(report: StatusReport) -> None:
    # soft_wrap: long paths and symbols stay whole lines (copyable) in a narrow terminal
    out = Console(highlight=False, soft_wrap=True)

    def line(text: str, style: str = "") -> None:
        out.print(Text(text, style=style))  # Text: brackets in file names are not markup

    line(f"{report.root}: indexed {iso(report.indexed_at)} ({_age(report.index_age_s)} ago)", "bold")
    if report.skipped:
        line(f"{counted(len(report.skipped), 'file')} skipped by the indexer:", "dim")
        for c in report.skipped:
            line(f"  skipped  {c.reason or c.path}", "dim")
    if report.changed_files:
        line(f"{counted(len(report.changed_files), 'file')} changed since; `caas-tui index` or `caas-tui watch` picks them up:", "yellow")
        for c in report.changed_files:
            line(f"  {c.change:<8} {c.path}")
    else:
        line("the index is up to date with the files", "green")
    if report.stale:
        line(f"{counted(len(report.stale), 'stale verdict')}; review these claims again:", "magenta")
        for s in report.stale:
            line(f"  {s.doc}:{s.start_line}-{s.end_line}  [{s.reviewer}] {s.claim_id}  {s.reason}")
    else:
        line("no stale verdicts", "green")
    if not report.drift:
        line(f"no drifting docs (dates from {report.dates_from})", "green")
        return
    line(f"{counted(len(report.drift), 'doc mention')} of code changed after the doc (dates from {report.dates_from}):", "yellow")
    for d in report.drift:
        line(f"  {d.doc}:{d.line}  {d.symbol}  ({d.symbol_path})")
        line(f"      code changed {iso(d.symbol_changed)}, doc changed {iso(d.doc_changed)}", "dim")


def run(args: argparse.Namespace) -> int:
    root = args.root.expanduser()
    if not root.is_dir():
        raise ProjectError(f"{root}: no such directory")
    cfg = load_config(root, index_dir=args.index_dir, model=args.model)
    usable_manifest(cfg)  # fails fast, before loading the model, when there is no usable index
    try:
        engine = Engine.open(root, config=cfg, read_only=True, notify=notify)
    except IndexStoreError as exc:
        raise IndexStoreError(f"{exc}; run `caas-tui index --root {root}`") from exc
    assert engine.store.manifest is not None
    manifest = engine.store.manifest
    try:
        report = collect_status(engine, manifest, now=time.time())
    finally:
        engine.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        _print(report)
    return 0
