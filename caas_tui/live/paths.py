"""Which watched paths matter, and what they are now: the indexer's rules, per path.

``discover()`` walks the whole tree; the watcher already knows which paths changed,
so it asks the same questions (``.gitignore`` via git or the gitignore matcher,
``caas.toml`` include/exclude, skipped directories, editor droppings, the size cap)
about those paths only, and hands the store a ``Discovery`` plus the ``scope`` it
covers.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from watchfiles import Change, DefaultFilter

from caas_tui.config import Config
from caas_tui.sources import Discovery, FileEntry, Skipped, kind_of, language_of
from caas_tui.sources.entries import SKIP_DIRS, format_size, is_swap_file
from caas_tui.sources.ignore import GlobFilter, IgnoreLevel, is_ignored, read_gitignore

# Files whose change alters the ignore rules themselves: answer with a full refresh.
RULE_FILES = frozenset({".gitignore", "caas.toml"})
# Extend, never replace, watchfiles' defaults (passing ignore_dirs= would drop them).
IGNORE_DIRS = frozenset(DefaultFilter.ignore_dirs) | SKIP_DIRS
# vim probes a directory's writability with a file named 4913 before saving.
IGNORE_NAMES = re.compile("|".join((*DefaultFilter.ignore_entity_patterns, r"^4913$", r"\.sw[a-p]$", r"\.tmp$")))
_GIT_TIMEOUT_S = 30.0


def _rel(root: str, path: str) -> str | None:
    """``path`` relative to ``root`` with forward slashes; None if outside."""
    if path == root:
        return ""
    if not path.startswith(root + os.sep):
        return None
    return path[len(root) + 1 :].replace(os.sep, "/")


class ProjectFilter:
    """A watchfiles filter: drops events the index can never care about.

    Paths inside the index directory pass only when they signal its loss (the
    directory or its manifest deleted): the watcher then rebuilds it.
    """

    def __init__(self, cfg: Config) -> None:
        self.root = str(cfg.root)
        self.index_dir = str(cfg.caas_dir.resolve())
        self._loss = {self.index_dir, os.path.join(self.index_dir, "index"), os.path.join(self.index_dir, "index", "manifest.json")}

    def in_index_dir(self, path: str) -> bool:
        return path == self.index_dir or path.startswith(self.index_dir + os.sep)

    def __call__(self, change: Change, path: str) -> bool:
        if self.in_index_dir(path):
            return change == Change.deleted and path in self._loss
        rel = _rel(self.root, path)
        if not rel:
            return False
        parts = rel.split("/")
        # Checked on root-relative parts: DefaultFilter looks at every part of the
        # absolute path, so a project under e.g. ~/venv/ would be ignored entirely.
        if any(p in IGNORE_DIRS for p in parts) or IGNORE_NAMES.search(parts[-1]):
            return False
        if parts[-1] in RULE_FILES or language_of(parts[-1]) is not None:
            return True
        # Anything else matters only as a directory (moved in, or gone: it may have held
        # indexed files). An existing non-indexable file is noise.
        return change == Change.deleted or os.path.isdir(path)


@dataclass(frozen=True, slots=True)
class Targets:
    """What one batch of events asks the index to redo."""

    discovery: Discovery
    scope: frozenset[str]  # every root-relative path the discovery speaks for
    full: bool = False  # the ignore rules changed (or git failed): walk everything
    index_lost: bool = False  # the index directory or its manifest was deleted

    @classmethod
    def everything(cls) -> Targets:
        return cls(Discovery(), frozenset(), full=True)

    @property
    def empty(self) -> bool:
        return not self.scope and not self.full and not self.index_lost


class PathRules:
    """The indexer's ignore rules applied to individual paths (see sources.discover)."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.root = str(cfg.root)
        self.root_real = os.path.realpath(cfg.root)
        self.globs = GlobFilter(cfg.include, cfg.exclude)
        self.index_dir = str(cfg.caas_dir.resolve())
        self.index_prefix = _rel(self.root, self.index_dir)  # None when the index lives elsewhere
        self.use_git = self._git_decides()
        self._levels: dict[str, tuple[IgnoreLevel, ...]] = {}

    def _git_decides(self) -> bool:
        """Same decision as discover(): git, unless the root is ignored by an enclosing repo."""
        root = self.cfg.root
        top = next((d for d in (root, *root.parents) if (d / ".git").exists()), None)
        if top is None:
            return False
        if top == root:
            return True
        try:
            proc = self._git("check-ignore", "-q", "--", ".")
        except (OSError, subprocess.SubprocessError):
            return False
        return proc.returncode != 0

    def _git(self, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            ["git", *args], cwd=self.root, input=data, capture_output=True, timeout=_GIT_TIMEOUT_S, check=False
        )

    def plan(self, changes: Iterable[tuple[Change, str]], known: Collection[str]) -> Targets:
        """Targets for a batch of ``(change, absolute path)`` events; ``known``: indexed paths."""
        scope: set[str] = set()
        candidates: set[str] = set()
        full = lost = False
        known = list(known)  # a snapshot: another thread may be refreshing
        known_dirs = {p[:i] for p in known for i in range(len(p)) if p[i] == "/"}
        for change, path in changes:
            if path == self.index_dir or path.startswith(self.index_dir + os.sep):
                lost = lost or change == Change.deleted
                continue
            rel = _rel(self.root, path)
            if not rel:
                continue
            if rel.rsplit("/", 1)[-1] in RULE_FILES:
                scope.add(rel)  # so the watcher can tell which rules changed
                full = True
                continue
            scope.add(rel)
            if rel in known_dirs:  # a directory moved away, deleted or replaced: its indexed files
                scope.update(p for p in known if p.startswith(rel + "/"))
            if os.path.isdir(path) and not os.path.islink(path):
                candidates.update(self._walk(rel))  # a directory moved in: its files send no events
            else:
                candidates.add(rel)
        scope |= candidates
        try:
            discovery = self._discover(sorted(candidates))
        except (OSError, subprocess.SubprocessError):
            return Targets(Discovery(), frozenset(scope), full=True, index_lost=lost)
        return Targets(discovery, frozenset(scope), full=full, index_lost=lost)

    def _walk(self, rel_dir: str) -> list[str]:
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(os.path.join(self.root, rel_dir)):
            dirnames[:] = [d for d in dirnames if d not in IGNORE_DIRS]
            rel = _rel(self.root, dirpath)
            out.extend(f"{rel}/{name}" for name in filenames if rel)
        return out

    def _discover(self, rels: list[str]) -> Discovery:
        wanted = [r for r in rels if self._path_allowed(r)]
        ignored = self._git_ignored(wanted) if self.use_git else {r for r in wanted if self._walk_ignored(r)}
        entries: list[FileEntry] = []
        skipped: list[Skipped] = []
        for rel in wanted:
            if rel in ignored:
                continue
            result = self._stat_entry(rel)
            if isinstance(result, FileEntry):
                entries.append(result)
            elif isinstance(result, Skipped):
                skipped.append(result)
        return Discovery(entries=entries, skipped=skipped)

    def _path_allowed(self, rel: str) -> bool:
        parts = rel.split("/")
        if any(p in SKIP_DIRS for p in parts[:-1]) or language_of(rel) is None:
            return False
        if self.index_prefix and rel.startswith(self.index_prefix + "/"):
            return False
        return not is_swap_file(parts[-1]) and self.globs.allows(rel)

    def _git_ignored(self, rels: list[str]) -> set[str]:
        """Paths git ignores; tracked files never are (as with ``git ls-files``)."""
        if not rels:
            return set()
        data = b"".join(os.fsencode(r) + b"\0" for r in rels)
        proc = self._git("check-ignore", "-z", "--stdin", data=data)
        if proc.returncode not in (0, 1):  # 1: nothing ignored; 128: git failed
            raise subprocess.SubprocessError(proc.stderr.decode(errors="replace").strip())
        return {os.fsdecode(p) for p in proc.stdout.split(b"\0") if p}

    def _walk_ignored(self, rel: str) -> bool:
        """The gitignore matcher, as the tree walk applies it: every ancestor, then the file."""
        parts = rel.split("/")
        for i in range(1, len(parts)):
            if is_ignored("/".join(parts[:i]), True, self._levels_for("/".join(parts[: i - 1]))):
                return True
        return is_ignored(rel, False, self._levels_for("/".join(parts[:-1])))

    def _levels_for(self, rel_dir: str) -> tuple[IgnoreLevel, ...]:
        """``.gitignore`` levels from the root down to ``rel_dir`` (cached per batch)."""
        if rel_dir in self._levels:
            return self._levels[rel_dir]
        parent = self._levels_for(rel_dir.rpartition("/")[0]) if rel_dir else ()
        prefix = rel_dir + "/" if rel_dir else ""
        level = read_gitignore(os.path.join(self.root, prefix, ".gitignore"), prefix)
        levels = (*parent, level) if level is not None else parent
        self._levels[rel_dir] = levels
        return levels

    def _stat_entry(self, rel: str) -> FileEntry | Skipped | None:
        """As discover() stats a candidate; None drops it silently (gone, a directory, a FIFO)."""
        full = os.path.join(self.root, rel)
        try:
            rel.encode("utf-8")  # names with surrogate escapes cannot be stored
            lst = os.lstat(full)
            if stat.S_ISLNK(lst.st_mode):
                target = os.path.realpath(full)
                if not (target == self.root_real or target.startswith(self.root_real + os.sep)):
                    return Skipped(rel, f"{rel}: symlink pointing outside the project root")
                lst = os.stat(full)
        except UnicodeEncodeError:
            return Skipped(rel, f"{rel!r}: file name is not valid UTF-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            return Skipped(rel, f"{rel}: cannot stat ({exc.strerror or exc})")
        if not stat.S_ISREG(lst.st_mode):
            return None
        if lst.st_size > self.cfg.max_file_bytes:
            cap = format_size(self.cfg.max_file_bytes)
            return Skipped(rel, f"{rel}: over the {cap} size cap ({format_size(lst.st_size)})")
        language = language_of(rel)
        assert language is not None  # _path_allowed checked it
        kind = kind_of(rel, language, self.cfg.upstream)
        return FileEntry(path=rel, kind=kind, language=language, size=lst.st_size, mtime=lst.st_mtime)
