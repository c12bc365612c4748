"""Files as (content, line-ending) pairs, and merging several fixes into one file's lines.

Line endings are kept per line (CRLF files stay CRLF; a missing final newline stays
missing). Fixes whose line ranges overlap are merged at character level when their
edits don't touch the same text (two sentences on one line each fixed), and refused
otherwise.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from itertools import pairwise

from caas_tui.models import Fix

Line = tuple[str, str]  # (content, eol) with eol in {"\n", "\r\n", ""}


def parse_lines(text: str) -> list[Line]:
    parts = text.split("\n")
    out: list[Line] = []
    for i, piece in enumerate(parts):
        last = i == len(parts) - 1
        if last:
            if piece:
                out.append((piece, ""))
        elif piece.endswith("\r"):
            out.append((piece[:-1], "\r\n"))
        else:
            out.append((piece, "\n"))
    return out


def render(lines: list[Line]) -> str:
    return "".join(c + e for c, e in lines)


def dominant_eol(lines: list[Line]) -> str:
    crlf = sum(1 for _, e in lines if e == "\r\n")
    lf = sum(1 for _, e in lines if e == "\n")
    return "\r\n" if crlf > lf else "\n"


def replacement_lines(replacement: str) -> list[str]:
    """A fix's text as lines: one trailing newline is optional; ``""`` deletes the lines."""
    if replacement == "":
        return []
    text = replacement.removesuffix("\n")
    return [part.removesuffix("\r") for part in text.split("\n")]


@dataclass(frozen=True, slots=True)
class Change:
    """Old lines ``start..end`` (1-based, inclusive) become ``new`` (contents only)."""

    start: int
    end: int
    new: tuple[str, ...]
    sources: tuple[int, ...]  # indices of the fix requests it came from


class Conflict(Exception):
    """Two fixes edit the same text differently (internal; becomes a PatchError)."""


def _ops(old: str, new: str) -> list[tuple[int, int, str]]:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(i1, i2, new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _merge_text(old: str, versions: list[str]) -> str:
    ops: list[tuple[int, int, str]] = []
    for version in versions:
        for op in _ops(old, version):
            if op not in ops:
                ops.append(op)
    ops.sort(key=lambda o: (o[0], o[1]))
    for a, b in pairwise(ops):
        if b[0] < a[1] or (a[0] == b[0] and a[1] == a[0] and b[1] == b[0]):
            raise Conflict
    out, pos = [], 0
    for i1, i2, text in ops:
        out.append(old[pos:i1])
        out.append(text)
        pos = i2
    out.append(old[pos:])
    return "".join(out)


def merge_fixes(contents: list[str], fixes: list[tuple[int, Fix]]) -> tuple[list[Change], list[tuple[int, int]]]:
    """Non-overlapping changes for ``fixes`` ((request index, fix) pairs) over ``contents``.

    Returns the changes and the (refused index, conflicting index) pairs.
    """
    ordered = sorted(fixes, key=lambda p: (p[1].start_line, p[1].end_line, p[0]))
    clusters: list[list[tuple[int, Fix]]] = []
    for item in ordered:
        if clusters and item[1].start_line <= max(f.end_line for _, f in clusters[-1]):
            clusters[-1].append(item)
        else:
            clusters.append([item])
    changes: list[Change] = []
    refused: list[tuple[int, int]] = []
    for cluster in clusters:
        accepted = [cluster[0]]
        for item in cluster[1:]:
            trial = accepted + [item]
            try:
                _cluster_change(contents, trial)
                accepted = trial
            except Conflict:
                refused.append((item[0], accepted[0][0]))
        changes.append(_cluster_change(contents, accepted))
    return changes, refused


def _cluster_change(contents: list[str], items: list[tuple[int, Fix]]) -> Change:
    lo = min(f.start_line for _, f in items)
    hi = max(f.end_line for _, f in items)
    versions: list[tuple[str, ...]] = []
    for _, fix in items:
        lines = tuple(contents[lo - 1 : fix.start_line - 1] + replacement_lines(fix.replacement) + contents[fix.end_line : hi])
        if lines not in versions:
            versions.append(lines)
    sources = tuple(i for i, _ in items)
    if len(versions) == 1:
        return Change(lo, hi, versions[0], sources)
    if any(len(v) != hi - lo + 1 for v in versions):
        raise Conflict  # line insertions/deletions don't merge at character level
    old = "\n".join(contents[lo - 1 : hi])
    merged = _merge_text(old, ["\n".join(v) for v in versions])
    new = tuple(merged.split("\n"))
    if len(new) != hi - lo + 1:
        raise Conflict
    return Change(lo, hi, new, sources)
