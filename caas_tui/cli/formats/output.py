"""Where rendered output goes: stdout, ``--output FILE``, ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

import sys
from pathlib import Path

from caas_tui.errors import CaasError


def path_prefix(root: Path) -> str:
    """The project root relative to the working directory (CI tools want paths from the
    repository root, where they run), or "" when the root is the working directory or outside it."""
    try:
        rel = root.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return ""
    return "" if rel == "." else rel


def write_output(text: str, path: Path | None, *, append: bool = False) -> None:
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a" if append else "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise CaasError(f"{path}: cannot write ({exc.strerror or exc})") from exc
