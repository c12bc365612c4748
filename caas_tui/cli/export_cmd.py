"""``caas-tui export``: accepted fixes as one patch, written to ``<index dir>/exports/``
(or ``--out``; ``--out -`` prints it), or ``--apply`` to edit the docs after the patch is
safely written. Then one summary line per accepted verdict, fix or "no fix to export".

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
from caas_tui.review.decisions.patch import (
    apply_fixes,
    build_patch,
    default_patch_path,
    export_summary,
    requests_from,
    write_patch,
)
from caas_tui.review.decisions.store import STORE_FILE, VerdictStore
from caas_tui.review.textutil import counted


def notify(message: str) -> None:
    """One whole line on stderr, never cut nor hard-wrapped (the terminal wraps it; CI logs
    and tests grep these)."""
    print(f"caas-tui: {message}", file=sys.stderr, flush=True)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write accepted fixes as a unified diff (or apply them)")
    add_root(p)
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write the patch here, '-' for stdout (default: INDEX_DIR/exports/caas-fixes-<timestamp>.patch)")
    p.add_argument("--apply", action="store_true",
                   help="also edit the docs in place, once the patch is written")


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).expanduser()
    if not root.is_dir():
        raise ProjectError(f"{root}: no such directory")
    cfg = load_config(root, index_dir=args.index_dir)
    path = cfg.caas_dir / STORE_FILE
    if not path.is_file():
        notify("no accepted fixes to export (nothing has been reviewed yet)")
        return 0
    to_stdout = args.out is not None and str(args.out) == "-"
    with VerdictStore(path) as store:
        stored = store.all()
        requests = requests_from(store.accepted_fixes())
        patch = build_patch(cfg.root, requests)
        summary = export_summary(stored, patch)
        if not requests:
            for line in summary:  # accepted verdicts without a fix: said, not silently missing
                notify(line)
            notify("no accepted fixes to export")
            return 0
        target: Path | None = None
        if patch.diff and not to_stdout:
            # the patch first, whole: if it cannot be written, no doc is touched
            target = args.out if args.out is not None else default_patch_path(cfg.caas_dir)
            write_patch(target, patch.diff)
        result = patch
        if args.apply:
            result = apply_fixes(cfg.root, requests)
            store.mark_applied(r.key for r in result.exported if r.key is not None)
            summary = export_summary(stored, result)
    for line in summary:
        notify(line)
    if to_stdout:
        sys.stdout.flush()
        sys.stdout.buffer.write(result.diff.encode("utf-8"))  # bytes: CRLF lines pass through untouched
        sys.stdout.buffer.flush()
    n, files = len(result.exported), len(result.files)
    verb = "applied" if args.apply else "exported"
    notify(f"{verb} {counted(n, 'fix', 'fixes')} to {counted(files, 'file')}"
           + (f" ({len(result.refused)} refused)" if result.refused else ""))
    if target is not None:
        notify(f"wrote {_full(target)}")
    return 1 if result.refused else 0


def _full(path: Path) -> str:
    """The path a writer can paste: absolute, through symlinks (``/dev/stdout`` stays as given)."""
    path = path.expanduser()
    return str(path.resolve() if path.is_file() else path.absolute())
