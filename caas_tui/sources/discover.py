"""Find the indexable files under the project root without reading their contents."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from caas_tui.config import Config
from caas_tui.errors import ProjectError
from caas_tui.sources.entries import (
    SKIP_DIRS,
    Discovery,
    FileEntry,
    Skipped,
    format_size,
    is_swap_file,
    kind_of,
    language_of,
)
from caas_tui.sources.ignore import GlobFilter, IgnoreLevel, is_ignored, read_gitignore

if TYPE_CHECKING:
    import subprocess

GIT_TIMEOUT_S = 60.0


def discover(cfg: Config) -> Discovery:
    """Every indexable file under ``cfg.root`` (sorted by path) plus the ones skipped.

    In a git work tree ``git ls-files`` decides what is ignored (it knows
    ``.git/info/exclude`` and the global excludes file too); elsewhere, or if git
    is unusable, a walk honours every ``.gitignore`` in the tree.
    """
    root = cfg.root.resolve()
    if not root.is_dir():
        raise ProjectError(f"{root}: not a directory")
    root_real = os.path.realpath(root)
    index_prefix = _index_prefix(root, cfg)
    globs = GlobFilter(cfg.include, cfg.exclude)

    listed = _git_paths(root)
    walked = listed is None
    paths: Iterable[str] = _walk(str(root), index_prefix, globs) if listed is None else listed

    entries: dict[str, FileEntry] = {}
    skipped: list[Skipped] = []
    for rel in paths:
        if rel in entries:
            continue  # git lists unmerged paths once per stage
        language = language_of(rel)
        if language is None:
            continue
        if not walked and _always_skipped(rel, index_prefix):
            continue  # the walk already pruned these directories
        if is_swap_file(rel.rsplit("/", 1)[-1]) or not globs.allows(rel):
            continue
        result = _stat_entry(root, root_real, rel, language, cfg)
        if isinstance(result, FileEntry):
            entries[rel] = result
        elif isinstance(result, Skipped):
            skipped.append(result)
    return Discovery(
        entries=sorted(entries.values(), key=lambda e: e.path),
        skipped=sorted(skipped, key=lambda s: s.path),
    )


def _index_prefix(root: Path, cfg: Config) -> str | None:
    """The index dir as a root-relative path, when it lives inside the root."""
    try:
        rel = cfg.caas_dir.resolve().relative_to(root)
    except ValueError:
        return None
    text = rel.as_posix()
    return None if text in ("", ".") else text


def _always_skipped(rel: str, index_prefix: str | None) -> bool:
    parts = rel.split("/")
    if any(p in SKIP_DIRS for p in parts[:-1]):
        return True
    return index_prefix is not None and rel.startswith(index_prefix + "/")


def _stat_entry(root: Path, root_real: str, rel: str, language: str, cfg: Config) -> FileEntry | Skipped | None:
    """Stat one candidate: None drops it silently (gone, a directory, a socket)."""
    full = os.path.join(root, rel)
    try:
        if not rel.isascii():
            rel.encode("utf-8")  # names git/os hand back with surrogate escapes
        lst = os.lstat(full)
        if stat.S_ISLNK(lst.st_mode):
            target = os.path.realpath(full)
            if not (target == root_real or target.startswith(root_real + os.sep)):
                return Skipped(rel, f"{rel}: symlink pointing outside the project root")
            st = os.stat(full)
        else:
            st = lst
    except UnicodeEncodeError:
        return Skipped(rel, f"{rel!r}: file name is not valid UTF-8")
    except FileNotFoundError:
        return None  # deleted since git or the walk listed it (or a dangling link)
    except OSError as exc:
        return Skipped(rel, f"{rel}: cannot stat ({exc.strerror or exc})")
    if not stat.S_ISREG(st.st_mode):
        return None
    if st.st_size > cfg.max_file_bytes:
        cap = format_size(cfg.max_file_bytes)
        return Skipped(rel, f"{rel}: over the {cap} size cap ({format_size(st.st_size)})")
    kind = kind_of(rel, language, cfg.upstream)
    return FileEntry(path=rel, kind=kind, language=language, size=st.st_size, mtime=st.st_mtime)


def _git_paths(root: Path) -> list[str] | None:
    """Paths from ``git ls-files`` relative to root, or None when git should not decide."""
    top = next((d for d in (root, *root.parents) if (d / ".git").exists()), None)
    if top is None:
        return None
    import subprocess  # only for a work tree: outside one, a search need not load it (issue 20)

    try:
        if top != root and _git(root, "check-ignore", "-q", "--", ".").returncode == 0:
            # The root is ignored by an enclosing repo (e.g. a virtualenv or a pyenv
            # tree inside a dotfiles repo): git would list nothing, yet the user
            # pointed us here on purpose, so walk it with its own .gitignore files.
            return None
        proc = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    except (OSError, subprocess.SubprocessError):
        return None  # git missing, hung or refused (e.g. "dubious ownership")
    if proc.returncode != 0:
        return None
    return [os.fsdecode(p) for p in proc.stdout.split(b"\0") if p]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    import subprocess

    return subprocess.run(
        ["git", *args],
        cwd=root,
        capture_output=True,
        timeout=GIT_TIMEOUT_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def _walk(root: str, index_prefix: str | None, globs: GlobFilter) -> Iterator[str]:
    """Root-relative file paths not ignored by any ``.gitignore`` on their way down.

    Directory symlinks are not followed (as git does not): it avoids cycles and
    trees that live outside the root.
    """
    stack: list[tuple[str, tuple[IgnoreLevel, ...]]] = [("", ())]
    while stack:
        prefix, levels = stack.pop()
        directory = os.path.join(root, prefix) if prefix else root
        try:
            with os.scandir(directory) as it:
                children = list(it)
        except OSError:
            continue  # unreadable directory: nothing in it can be indexed anyway
        if any(c.name == ".gitignore" for c in children):
            level = read_gitignore(os.path.join(directory, ".gitignore"), prefix)
            if level is not None:
                levels = (*levels, level)
        for child in children:
            rel = prefix + child.name
            try:
                is_dir = child.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if child.name in SKIP_DIRS or rel == index_prefix or globs.prunes(rel) or is_ignored(rel, True, levels):
                    continue
                stack.append((rel + "/", levels))
            elif language_of(child.name) is not None and not is_ignored(rel, False, levels):
                yield rel


DOC_LANGUAGES = frozenset({"markdown", "rst"})


def left_out_docs(cfg: Config, discovery: Discovery) -> list[str]:
    """Markdown/reST files under the root that ``discovery`` left out because an ignore
    rule (``.gitignore``, ``caas.toml`` excludes) matched: a review that silently checks
    fewer docs than there are should say so. Skipped dirs and the index dir stay out."""
    root = cfg.root.resolve()
    index_prefix = _index_prefix(root, cfg)
    found = {e.path for e in discovery.entries} | {s.path for s in discovery.skipped}
    out: list[str] = []
    for directory, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and rel_dir + d != index_prefix)
        for name in files:
            rel = rel_dir + name
            if language_of(rel) in DOC_LANGUAGES and rel not in found and not _always_skipped(rel, index_prefix):
                out.append(rel)
    return sorted(out)


def left_out_message(left_out: Sequence[str]) -> str | None:
    """The one line every front end shows for ``left_out_docs`` (None when nothing was left out)."""
    if not left_out:
        return None
    n = len(left_out)
    shown = ", ".join(left_out[:3]) + (", ..." if n > 3 else "")
    return f"{n} doc{'s' if n != 1 else ''} left out, not reviewed: ignored by .gitignore or caas.toml excludes ({shown})"
