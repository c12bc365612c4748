"""When did a file, or a few lines of it, last change: by git history, else by mtime.

Git answers are batched: one ``git log --name-only`` gives every file's last commit,
one ``git status`` says which files were edited since (those use their mtime, the
newest change being uncommitted). Line-level ``git log -L`` is one process per span,
so it is only asked to refine spans whose file-level date could matter, within a
time budget.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

_GIT_TIMEOUT_S = 60.0
_MAX_PATHSPECS = 2000
LINE_BUDGET_S = 5.0  # past this, -L refinement stops and file dates stand in


class ChangeDates(Protocol):
    """Last-change times (epoch seconds) of project files, root-relative paths."""

    source: str  # "git" | "mtime"

    def file_date(self, path: str) -> float | None: ...

    def span_date(self, path: str, start: int, end: int) -> float | None: ...


class MtimeDates:
    """Outside a git work tree: modification times, file-level only."""

    source = "mtime"

    def __init__(self, root: Path) -> None:
        self.root = root

    def file_date(self, path: str) -> float | None:
        try:
            return os.stat(self.root / path).st_mtime
        except OSError:
            return None

    def span_date(self, path: str, start: int, end: int) -> float | None:
        return self.file_date(path)


class GitDates:
    """Commit times from git history; files with uncommitted edits use their mtime."""

    source = "git"

    def __init__(self, root: Path, top: Path, paths: Iterable[str]) -> None:
        self.root = root
        self.top = top
        self._prefix = root.relative_to(top).as_posix()
        self._prefix = "" if self._prefix == "." else self._prefix + "/"
        self._mtimes = MtimeDates(root)
        self._committed: dict[str, float] = {}
        self._dirty: set[str] = set()
        self._spans: dict[tuple[str, int, int], float | None] = {}
        self._line_spent = 0.0
        self._load(sorted(set(paths)))

    @classmethod
    def open(cls, root: Path, paths: Iterable[str]) -> GitDates | None:
        """GitDates when ``root`` is inside a usable git work tree, else None."""
        try:
            proc = run_git(root, "rev-parse", "--show-toplevel")
        except (OSError, subprocess.SubprocessError):
            return None
        if proc.returncode != 0:
            return None
        top = Path(os.fsdecode(proc.stdout.strip())).resolve()
        try:
            return cls(root.resolve(), top, paths)
        except (OSError, subprocess.SubprocessError, ValueError):
            return None

    def _load(self, paths: list[str]) -> None:
        if not paths:
            return
        # One walk of the history for every path at once: the first time a path shows
        # up (newest first) is its last change.
        spec = paths if len(paths) <= _MAX_PATHSPECS else ["."]  # keep argv well under ARG_MAX
        log = run_git(self.root, "log", "--format=%x01%ct", "--name-only", "--no-renames", "-z", "--", *spec)
        if log.returncode != 0:
            raise subprocess.SubprocessError(log.stderr.decode(errors="replace"))
        when = 0.0
        for token in log.stdout.split(b"\0"):
            if token.startswith(b"\x01"):
                when = float(token[1:])
            elif token.strip():
                rel = os.fsdecode(token.lstrip(b"\n"))
                if rel.startswith(self._prefix):
                    self._committed.setdefault(rel[len(self._prefix) :], when)
        status = run_git(self.root, "status", "--porcelain", "-z", "--untracked-files=all", "--", *spec)
        if status.returncode == 0:
            for token in status.stdout.split(b"\0"):
                # "XY path" entries (a rename's second token is the old name, no status)
                if len(token) > 3 and token[2:3] == b" ":
                    rel = os.fsdecode(token[3:])
                    if rel.startswith(self._prefix):
                        self._dirty.add(rel[len(self._prefix) :])

    def file_date(self, path: str) -> float | None:
        if path in self._dirty or path not in self._committed:
            return self._mtimes.file_date(path)
        return self._committed[path]

    def span_date(self, path: str, start: int, end: int) -> float | None:
        """The last commit touching lines ``start..end``; the file date when the file has
        uncommitted edits (line numbers no longer match HEAD), git cannot say, or the
        time budget for line-level history is spent."""
        if path in self._dirty or path not in self._committed or self._line_spent > LINE_BUDGET_S:
            return self.file_date(path)
        key = (path, start, end)
        if key not in self._spans:
            began = time.perf_counter()
            proc = run_git(self.root, "log", "-1", "--format=%ct", "-s", "-L", f"{start},{end}:{path}")
            self._line_spent += time.perf_counter() - began
            text = proc.stdout.strip()
            self._spans[key] = float(text) if proc.returncode == 0 and text.isdigit() else None
        found = self._spans[key]
        return found if found is not None else self.file_date(path)


def change_dates(root: Path, paths: Iterable[str]) -> ChangeDates:
    """Git history when ``root`` is in a work tree (and git works), else mtimes."""
    paths = list(paths)
    return GitDates.open(root, paths) or MtimeDates(root)


def run_git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run git in ``cwd`` (paths unquoted, no stdin, bounded time); the caller checks the return code."""
    return subprocess.run(
        ["git", "-c", "core.quotepath=off", *args],
        cwd=cwd,
        capture_output=True,
        timeout=_GIT_TIMEOUT_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )
