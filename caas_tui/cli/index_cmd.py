"""``caas-tui index``: build or incrementally refresh the index."""

from __future__ import annotations

import argparse
import json
import time

from caas_tui.cli.common import add_root, notify, open_engine
from caas_tui.index.refreshstats import RefreshStats


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="build or refresh the index (only changed files are redone)")
    add_root(p)
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    engine = open_engine(args)
    try:
        stats = engine.store.last_stats or RefreshStats()
        for skipped in stats.skipped:
            notify(f"skipped {skipped.reason}")
        for warning in stats.warnings:
            notify(f"warning: {warning}")
        summary = {
            "rebuilt": stats.rebuilt,
            "root": str(engine.root),
            "files": len(engine.store.manifest.files) if engine.store.manifest else 0,
            "chunks": len(engine.store.chunks),
            "added": len(stats.added),
            "changed": len(stats.changed),
            "removed": len(stats.removed),
            "skipped": len(stats.skipped),
            "seconds": round(time.perf_counter() - start, 3),
        }
        if args.json:
            print(json.dumps(summary))
        else:
            print(
                f"indexed {summary['files']} files, {summary['chunks']} chunks "
                f"(+{summary['added']} ~{summary['changed']} -{summary['removed']}, "
                f"{summary['skipped']} skipped) in {summary['seconds']:.2f}s"
            )
        return 0
    finally:
        engine.close()
