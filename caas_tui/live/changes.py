"""What changed since a git ref, and which claims that can make wrong (``--changed-since``).

The change set is the diff from the merge base of REF and HEAD to the working tree
(so both the branch's commits and uncommitted edits count, with line numbers of the
files as they are now, the numbers evidence spans use) plus untracked files. A claim
is in scope when its doc changed, when it mentions a symbol whose definition lies on
changed lines, or when its evidence (fresh or from a stored verdict) does.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from caas_tui.errors import CaasError
from caas_tui.live.changedates import run_git
from caas_tui.models import Chunk, Claim, EvidenceSpan, Verdict

WHOLE_FILE = (1, 10**9)
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True, slots=True)
class ChangeSet:
    ref: str
    base: str  # the merge-base commit the diff starts from
    ranges: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # path -> changed line spans

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(self.ranges)

    def touches(self, path: str, start: int, end: int) -> bool:
        """Do lines ``start..end`` of ``path`` overlap a change?"""
        return any(a <= end and start <= b for a, b in self.ranges.get(path, ()))

    def touches_span(self, span: EvidenceSpan) -> bool:
        return self.touches(span.path, span.start_line, span.end_line)


def _checked(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return run_git(root, *args)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CaasError(f"--changed-since: cannot run git ({exc})") from exc


def _parse_diff(out: bytes) -> dict[str, list[tuple[int, int]]]:
    ranges: dict[str, list[tuple[int, int]]] = {}
    current: str | None = None
    for line in out.split(b"\n"):
        if line.startswith(b"+++ "):
            target = line[4:].rstrip(b"\r")
            current = os.fsdecode(target[2:]) if target.startswith(b"b/") else None  # /dev/null: deleted
        elif line.startswith(b"diff --git "):
            current = None
        elif current is not None and (m := _HUNK.match(line)):
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            # A pure deletion (count 0) sits between line `start` and the next one: both neighbours count.
            ranges.setdefault(current, []).append((start, start + count - 1) if count else (start, start + 1))
    return ranges


def changed_since(root: Path, ref: str) -> ChangeSet:
    """The files and line ranges under ``root`` changed since ``ref``; one-line errors outside a
    git work tree or for a ref git does not know."""
    inside = _checked(root, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0 or inside.stdout.strip() != b"true":
        raise CaasError(f"--changed-since needs a git work tree; {root} is not inside one")
    known = _checked(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if known.returncode != 0:
        raise CaasError(f"--changed-since: unknown git ref {ref!r}")
    merge = _checked(root, "merge-base", ref, "HEAD")
    base = (merge.stdout.strip() if merge.returncode == 0 else known.stdout.strip()).decode()
    diff = _checked(root, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", "--relative", base, "--")
    if diff.returncode != 0:
        raise CaasError(f"--changed-since: git diff failed ({diff.stderr.decode(errors='replace').strip()[:200]})")
    ranges = _parse_diff(diff.stdout)
    names = _checked(root, "diff", "--name-only", "-z", "--no-renames", "--relative", base, "--")
    for token in names.stdout.split(b"\0") if names.returncode == 0 else ():
        if token:
            # Deleted files and changes with no text hunks (binary, mode): the whole file counts.
            ranges.setdefault(os.fsdecode(token), [WHOLE_FILE])
    untracked = _checked(root, "ls-files", "--others", "--exclude-standard", "-z")
    for token in untracked.stdout.split(b"\0") if untracked.returncode == 0 else ():
        if token:
            ranges[os.fsdecode(token)] = [WHOLE_FILE]
    return ChangeSet(ref, base, {p: tuple(sorted(set(r))) for p, r in sorted(ranges.items())})


def changed_symbols(chunks: Iterable[Chunk], changes: ChangeSet) -> frozenset[str]:
    """Qualified names of code whose definition lines changed."""
    return frozenset(
        c.symbol for c in chunks
        if c.symbol and c.kind in ("code", "api") and changes.touches(c.path, c.start_line, c.end_line)
    )


def mentions_changed(claim: Claim, symbols: frozenset[str]) -> bool:
    """Does the claim name a changed symbol, by its qualified name or a dotted tail of it?"""
    return any(name in symbols or any(s.endswith("." + name) for s in symbols) for name in claim.symbols)


@dataclass(frozen=True, slots=True)
class Scope:
    """Which claims ``--changed-since`` reports."""

    changes: ChangeSet
    symbols: frozenset[str]
    stored: dict[str, tuple[EvidenceSpan, ...]]  # claim id -> evidence of its stored verdicts

    def keeps(self, claim: Claim, verdict: Verdict) -> bool:
        if claim.doc_path in self.changes.ranges:
            return True
        if any(self.changes.touches_span(e) for e in (*verdict.evidence, *self.stored.get(claim.id, ()))):
            return True
        return mentions_changed(claim, self.symbols)

    def candidate(self, doc: str, claims: Sequence[Claim]) -> bool:
        """Worth reviewing at all: before a (possibly costly) review, evidence is not yet known."""
        return doc in self.changes.ranges or any(
            mentions_changed(c, self.symbols)
            or any(self.changes.touches_span(e) for e in self.stored.get(c.id, ()))
            for c in claims
        )


def make_scope(changes: ChangeSet, chunks: Iterable[Chunk], stored: Iterable[tuple[Claim, Verdict]]) -> Scope:
    evidence: dict[str, list[EvidenceSpan]] = {}
    for claim, verdict in stored:
        evidence.setdefault(claim.id, []).extend(verdict.evidence)
    return Scope(changes, changed_symbols(chunks, changes), {k: tuple(v) for k, v in evidence.items()})


__all__ = ["WHOLE_FILE", "ChangeSet", "Scope", "changed_since", "changed_symbols", "make_scope", "mentions_changed"]
