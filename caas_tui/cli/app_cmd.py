"""``caas-tui [DIR]``: open the review app on a project (the default command)."""

from __future__ import annotations

import argparse
from pathlib import Path

from caas_tui.errors import ProjectError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="open the review app (the default: `caas-tui [DIR]`)")
    p.add_argument("root", nargs="?", type=Path, default=Path("."), metavar="DIR", help="project root (default: .)")
    p.add_argument("--index-dir", type=Path, default=None, metavar="DIR", help="index location (default: DIR/.caas)")
    p.add_argument("--model", default=None, metavar="PATH_OR_HUB_ID", help="model2vec model for the dense channel")
    p.add_argument("--doc", default=None, metavar="PATH", help="open this doc first (relative to DIR)")


def run(args: argparse.Namespace) -> int:
    root: Path = args.root.expanduser()
    # Fail before the terminal switches to the app: a plain one-line error is clearer.
    if not root.exists():
        raise ProjectError(f"{root}: no such directory")
    if not root.is_dir():
        raise ProjectError(f"{root}: not a directory")
    from caas_tui.tui.app import (
        CaasApp,  # Textual loads only for the app, not for headless commands
    )

    CaasApp(root, index_dir=args.index_dir, model=args.model, initial_doc=args.doc).run()
    return 0
