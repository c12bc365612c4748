"""Gitignore-style matching: nested ``.gitignore`` files and include/exclude globs.

Only used where git itself cannot answer (a tree that is not a git work tree);
inside a work tree ``git ls-files`` is the authority.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec.pattern import Pattern

# pathspec is imported where a pattern is compiled: in a git work tree without
# include/exclude globs (git ls-files decides) a search never compiles one (issue 20)


@dataclass(frozen=True, slots=True)
class IgnoreLevel:
    """The patterns of one ``.gitignore``, relative to the directory holding it."""

    prefix: str  # "" for the root, "pkg/sub/" for a nested file
    patterns: tuple[Pattern, ...]


def read_gitignore(path: str, prefix: str) -> IgnoreLevel | None:
    """Parse the ``.gitignore`` at ``path``; None when unreadable or empty."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        # An unreadable .gitignore ignores nothing, exactly as git behaves.
        return None
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    # Comments and blank lines compile to patterns with include=None; drop them so
    # the per-file loop below only runs real patterns.
    patterns = tuple(p for p in spec.patterns if p.include is not None)
    return IgnoreLevel(prefix, patterns) if patterns else None


def is_ignored(path: str, is_dir: bool, levels: Sequence[IgnoreLevel]) -> bool:
    """Git's rule: the deepest ``.gitignore`` with a matching pattern decides, and
    within one file the last matching pattern wins (so ``!keep.log`` re-includes).

    ``levels`` must be the ``.gitignore`` files of ``path``'s ancestors, root first.
    """
    for level in reversed(levels):
        rel = path[len(level.prefix) :]
        if is_dir:
            # A trailing slash lets directory-only patterns (``build/``) match.
            rel += "/"
        for pattern in reversed(level.patterns):
            if pattern.match_file(rel) is not None:
                return bool(pattern.include)
    return False


class GlobFilter:
    """``caas.toml`` include/exclude globs with gitignore (gitwildmatch) semantics."""

    def __init__(self, include: Iterable[str], exclude: Iterable[str]) -> None:
        inc = [g for g in include if g.strip()]
        exc = [g for g in exclude if g.strip()]
        if inc or exc:
            import pathspec
        self._include = pathspec.GitIgnoreSpec.from_lines(inc) if inc else None
        self._exclude = pathspec.GitIgnoreSpec.from_lines(exc) if exc else None
        # A directory can only be pruned wholesale when no negation could re-include
        # something beneath it.
        self._can_prune = bool(exc) and not any(g.lstrip().startswith("!") for g in exc)

    def allows(self, path: str) -> bool:
        if self._include is not None and not self._include.match_file(path):
            return False
        return not (self._exclude is not None and self._exclude.match_file(path))

    def prunes(self, directory: str) -> bool:
        """True when every file under ``directory`` (root-relative) is excluded."""
        return self._can_prune and self._exclude is not None and self._exclude.match_file(directory + "/")
