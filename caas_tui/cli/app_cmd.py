"""``caas-tui [DIR]``: open the review app on a project (the default command)."""

from __future__ import annotations

import argparse
from pathlib import Path

from caas_tui.errors import ProjectError

_DOC_LANGUAGES = ("markdown", "rst", "text", "python")


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
    doc = check_doc(root, args.doc, args.index_dir) if args.doc is not None else None
    from caas_tui.tui.app import (
        CaasApp,  # Textual loads only for the app, not for headless commands
    )

    CaasApp(root, index_dir=args.index_dir, model=args.model, initial_doc=doc).run()
    return 0


def check_doc(root: Path, doc: str, index_dir: Path | None) -> str:
    """``--doc`` as a root-relative path of a doc the index will hold; a one-line error otherwise
    (opening another doc instead would hide the typo)."""
    from caas_tui.config import load_config
    from caas_tui.sources import discover, language_of

    base = root.resolve()
    given = Path(doc).expanduser()
    target = (given if given.is_absolute() else base / given).resolve()
    if not target.is_relative_to(base):
        raise ProjectError(f"--doc {doc}: outside the project {base}")
    rel = target.relative_to(base).as_posix()
    if not target.is_file():
        raise ProjectError(f"--doc {doc}: no such file in {base}")
    if language_of(rel) not in _DOC_LANGUAGES:
        raise ProjectError(f"--doc {doc}: not a doc (Markdown, reST, text or a Python module)")
    cfg = load_config(base, index_dir=index_dir)
    if rel not in {e.path for e in discover(cfg).entries}:
        raise ProjectError(f"--doc {doc}: ignored (by .gitignore or caas.toml), so not indexed")
    return rel
