"""``caas-tui export``: accepted fixes as one patch (stdout or ``--out``), or ``--apply``.

Exit code 1 when some fixes were refused (stale doc, outside the root, overlapping);
the others are still exported.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from caas_tui.cli.common import add_root
from caas_tui.config import load_config
from caas_tui.errors import ProjectError
from caas_tui.review.decisions.patch import apply_fixes, build_patch, requests_from, write_patch
from caas_tui.review.decisions.store import STORE_FILE, VerdictStore


def notify(message: str) -> None:
    """One line on stderr, never wrapped (CI logs and tests grep these)."""
    print(f"caas-tui: {message}", file=sys.stderr, flush=True)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write accepted fixes as a unified diff (or apply them)")
    add_root(p)
    p.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the patch here (default: stdout)")
    p.add_argument("--apply", action="store_true", help="edit the docs in place instead of printing a patch")


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).expanduser()
    if not root.is_dir():
        raise ProjectError(f"{root}: no such directory")
    cfg = load_config(root, index_dir=args.index_dir)
    path = cfg.caas_dir / STORE_FILE
    if not path.is_file():
        notify("no accepted fixes to export (nothing has been reviewed yet)")
        return 0
    with VerdictStore(path) as store:
        requests = requests_from(store.accepted_fixes())
        if not requests:
            notify("no accepted fixes to export")
            return 0
        if args.apply:
            if args.out is not None:
                # the patch first, whole: if it cannot be written, no doc is touched
                write_patch(args.out, build_patch(cfg.root, requests).diff)
            result = apply_fixes(cfg.root, requests)
            store.mark_applied(r.key for r in result.exported if r.key is not None)
        else:
            result = build_patch(cfg.root, requests)
            if args.out is not None:
                write_patch(args.out, result.diff)
    for message in result.messages:
        notify(message)
    if args.out is None and not args.apply:
        sys.stdout.flush()
        sys.stdout.buffer.write(result.diff.encode("utf-8"))  # bytes: CRLF lines pass through untouched
        sys.stdout.buffer.flush()
    n, files = len(result.exported), len(result.files)
    verb = "applied" if args.apply else "exported"
    notify(f"{verb} {n} fix{'es' if n != 1 else ''} to {files} file{'s' if files != 1 else ''}"
           + (f" ({len(result.refused)} refused)" if result.refused else ""))
    return 1 if result.refused else 0
