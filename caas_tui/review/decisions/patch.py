"""Accepted fixes -> one unified diff (``a/``/``b/`` paths, 3 lines of context) that
``git apply`` and ``patch -p1`` accept, or the same edits written in place.

A fix is refused, with a one-line reason, when its doc lines changed since the
verdict (``StaleError``), when its path leaves the root (``PathOutsideRoot``), or when
it collides with another fix (``PatchError``); every other fix still goes through.
A claim that only moved (a line inserted above it, and nothing has told the verdict
store yet) is followed by its id: its fix moves with it instead of being refused.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from caas_tui.errors import CaasError, PatchError, PathOutsideRoot, StaleError
from caas_tui.models import Claim, Fix
from caas_tui.review.claims.extract import extract_claims
from caas_tui.review.decisions.codec import StoredVerdict
from caas_tui.review.decisions.fixmerge import (
    Change,
    Line,
    dominant_eol,
    merge_fixes,
    parse_lines,
    render,
)
from caas_tui.review.textutil import lines_sha256

CONTEXT = 3


@dataclass(frozen=True, slots=True)
class FixRequest:
    doc_path: str  # relative to the root
    fix: Fix
    doc_sha256: str | None  # hash of the claim's lines when judged; None skips the check
    claim_start: int
    claim_end: int
    label: str = ""  # who asked (claim id), for messages
    key: tuple[str, str, str] | None = None  # (doc path, claim id, reviewer) in the verdict store


@dataclass(frozen=True)
class PatchResult:
    diff: str
    files: tuple[str, ...]
    exported: tuple[FixRequest, ...]
    refused: tuple[CaasError, ...] = ()

    @property
    def messages(self) -> list[str]:
        return [str(e) for e in self.refused]


def requests_from(stored: Iterable[StoredVerdict]) -> list[FixRequest]:
    out: list[FixRequest] = []
    for sv in stored:
        fix = sv.effective_fix
        if fix is not None:
            out.append(FixRequest(sv.claim.doc_path, fix, sv.judged_doc_sha256, sv.claim.start_line,
                                  sv.claim.end_line, sv.claim.id, sv.key))
    return out


@dataclass
class _FilePlan:
    rel: str
    path: Path
    old: list[Line]
    new: list[Line] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    exported: list[FixRequest] = field(default_factory=list)


def _plan(root: Path, asked: Sequence[FixRequest]) -> tuple[list[_FilePlan], list[CaasError]]:
    root = root.resolve()
    requests = list(asked)  # a request whose claim moved is replaced by the followed one
    refused: list[CaasError] = []
    by_file: dict[str, list[int]] = {}
    for i, req in enumerate(requests):
        by_file.setdefault(req.doc_path, []).append(i)
    plans: list[_FilePlan] = []
    for rel in sorted(by_file):
        target = (root / rel).resolve()
        if Path(rel).is_absolute() or not target.is_relative_to(root):
            refused.append(PathOutsideRoot(f"{rel}: outside the project root; fix not exported"))
            continue
        try:
            text = target.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            refused.append(PatchError(f"{rel}: cannot read as UTF-8 ({exc}); fix not exported"))
            continue
        plan = _FilePlan(target.relative_to(root).as_posix(), target, parse_lines(text))
        contents = [c for c, _ in plan.old]
        fresh: list[tuple[int, Fix]] = []
        # Claims are extracted only if some fix's claim is not where it was recorded.
        claims_now = functools.cache(functools.partial(_claims_by_id, rel, text))
        for i in by_file[rel]:
            req = requests[i] = _follow(requests[i], contents, claims_now)
            f = req.fix
            if not _reads_as_judged(req, contents):
                refused.append(StaleError(f"{rel}:{req.claim_start}: the doc changed since this fix was proposed; not exported"))
            elif f.start_line < 1 or f.end_line < f.start_line or f.end_line > len(contents):
                refused.append(PatchError(f"{rel}:{f.start_line}: fix lines {f.start_line}-{f.end_line} are outside the file"))
            else:
                fresh.append((i, f))
        changes, conflicts = merge_fixes(contents, fresh)
        for loser, winner in conflicts:
            a, b = requests[loser].fix, requests[winner].fix
            refused.append(PatchError(
                f"{rel}:{a.start_line}: fix for lines {a.start_line}-{a.end_line} overlaps the fix for lines "
                f"{b.start_line}-{b.end_line}; not exported"))
        lost = {loser for loser, _ in conflicts}
        plan.changes = changes
        plan.exported = [requests[i] for i, _ in fresh if i not in lost]
        plan.new = _apply(plan.old, changes)
        if plan.exported:
            plans.append(plan)
    return plans, refused


def _claims_by_id(rel: str, text: str) -> dict[str, Claim]:
    return {c.id: c for c in extract_claims(rel, text)}


def _reads_as_judged(req: FixRequest, contents: list[str]) -> bool:
    if req.doc_sha256 is None:
        return True
    return req.claim_end <= len(contents) and lines_sha256(contents[req.claim_start - 1 : req.claim_end]) == req.doc_sha256


def _follow(req: FixRequest, contents: list[str], claims_now: Callable[[], dict[str, Claim]]) -> FixRequest:
    """The request moved to where its claim is now, if the claim only moved: found by its
    id (ids hash the text, not the position) on lines that read exactly as judged. The fix
    moves by the same offset. Otherwise the request as it was (and refused as stale)."""
    if req.key is None or _reads_as_judged(req, contents):
        return req
    claim = claims_now().get(req.key[1])
    if claim is None:
        return req
    offset = claim.start_line - req.claim_start
    f = req.fix
    moved = dataclasses.replace(req, fix=Fix(f.start_line + offset, f.end_line + offset, f.replacement),
                                claim_start=claim.start_line, claim_end=claim.end_line)
    return moved if _reads_as_judged(moved, contents) else req


def _apply(old: list[Line], changes: list[Change]) -> list[Line]:
    eol = dominant_eol(old)
    new: list[Line] = []
    pos = 0
    for ch in sorted(changes, key=lambda c: c.start):
        new.extend(old[pos : ch.start - 1])
        region = old[ch.start - 1 : ch.end]
        line_eol = region[0][1] or eol if region else eol
        at_end = ch.end == len(old) and old[-1][1] == ""
        for k, content in enumerate(ch.new):
            last = k == len(ch.new) - 1
            new.append((content, "" if (last and at_end) else (region[k][1] if k < len(region) and region[k][1] else line_eol)))
        pos = ch.end
    new.extend(old[pos:])
    return new


# -- unified diff ---------------------------------------------------------------------------
def _regions(old: list[Line], new: list[Line]) -> list[tuple[int, int, int, int]]:
    """(old_start, old_end, new_start, new_end) half-open, 0-based, of changed runs."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _emit(prefix: str, line: Line) -> str:
    content, eol = line
    if eol == "":
        return f"{prefix}{content}\n\\ No newline at end of file\n"
    return f"{prefix}{content}{eol}"


def _header_name(side: str, rel: str) -> str:
    # GNU patch reads a file name up to a TAB when it contains spaces.
    return f"{side}/{rel}\t" if any(c.isspace() for c in rel) else f"{side}/{rel}"


def unified_diff(rel: str, old: list[Line], new: list[Line], context: int = CONTEXT) -> str:
    regions = _regions(old, new)
    if not regions:
        return ""
    hunks: list[list[tuple[int, int, int, int]]] = []
    for r in regions:
        if hunks and r[0] - hunks[-1][-1][1] <= 2 * context:
            hunks[-1].append(r)
        else:
            hunks.append([r])
    out = [f"--- {_header_name('a', rel)}\n", f"+++ {_header_name('b', rel)}\n"]
    for hunk in hunks:
        o_lo = max(0, hunk[0][0] - context)
        o_hi = min(len(old), hunk[-1][1] + context)
        n_lo = hunk[0][2] - (hunk[0][0] - o_lo)
        n_hi = hunk[-1][3] + (o_hi - hunk[-1][1])
        o_len, n_len = o_hi - o_lo, n_hi - n_lo
        out.append(f"@@ -{o_lo + 1 if o_len else o_lo},{o_len} +{n_lo + 1 if n_len else n_lo},{n_len} @@\n")
        pos = o_lo
        for i1, i2, j1, j2 in hunk:
            out.extend(_emit(" ", old[k]) for k in range(pos, i1))
            out.extend(_emit("-", old[k]) for k in range(i1, i2))
            out.extend(_emit("+", new[k]) for k in range(j1, j2))
            pos = i2
        out.extend(_emit(" ", old[k]) for k in range(pos, o_hi))
    return "".join(out)


def build_patch(root: Path, requests: Sequence[FixRequest], *, context: int = CONTEXT) -> PatchResult:
    plans, refused = _plan(root, requests)
    diffs = [unified_diff(p.rel, p.old, p.new, context) for p in plans]
    files = tuple(p.rel for p, d in zip(plans, diffs, strict=True) if d)
    exported = tuple(r for p in plans for r in p.exported)
    return PatchResult("".join(diffs), files, exported, tuple(refused))


def apply_fixes(root: Path, requests: Sequence[FixRequest]) -> PatchResult:
    """Write the fixes in place, each file atomically (temp file + ``os.replace``)."""
    plans, refused = _plan(root, requests)
    written: list[str] = []
    exported: list[FixRequest] = []
    diffs: list[str] = []
    for plan in plans:
        if plan.new == plan.old:
            continue
        try:
            _atomic_write(plan.path, render(plan.new).encode("utf-8"))
        except OSError as exc:
            refused.append(PatchError(f"{plan.rel}: cannot write ({exc.strerror or exc}); fixes not applied"))
            continue
        written.append(plan.rel)
        exported.extend(plan.exported)
        diffs.append(unified_diff(plan.rel, plan.old, plan.new))
    return PatchResult("".join(diffs), tuple(written), tuple(exported), tuple(refused))


def write_patch(path: Path, diff: str) -> None:
    """Write a patch file whole or not at all (temp file + ``os.replace``); a target that
    exists and is not a regular file (``/dev/stdout``, a FIFO, ``/dev/full``) is written
    through, never replaced. CaasError when it cannot be written."""
    data = diff.encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not path.is_file():
            with path.open("wb") as handle:
                handle.write(data)
                handle.flush()
            return
        _atomic_write(path, data, default_mode=0o644)
    except OSError as exc:
        raise PatchError(f"{path}: cannot write ({exc.strerror or exc})") from exc


def _atomic_write(path: Path, data: bytes, *, default_mode: int | None = None) -> None:
    mode = path.stat().st_mode & 0o7777 if default_mode is None or path.exists() else default_mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".caas-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def default_patch_path(caas_dir: Path) -> Path:
    """Where an export goes unless told: ``<caas_dir>/exports/caas-fixes-<timestamp>.patch``
    (``caas_dir`` is the configured index dir), never over an earlier export and never loose
    in the project root."""
    stem = f"caas-fixes-{time.strftime('%Y%m%d-%H%M%S')}"
    path = caas_dir / "exports" / f"{stem}.patch"
    n = 2
    while path.exists():  # two exports in one second
        path = caas_dir / "exports" / f"{stem}-{n}.patch"
        n += 1
    return path


# -- summary --------------------------------------------------------------------------------
def export_summary(stored: Iterable[StoredVerdict], result: PatchResult) -> list[str]:
    """One line per pending accepted or edited verdict in ``stored`` (doc order), saying what
    the export did with it, then every refusal reason whole. ``stored`` is the store's
    verdicts as they were before the export (``store.all()``); ``result`` is that export's.
    Front ends print these lines as they are, wrapped where they must be, never cut."""
    exported = {r.key: r.fix for r in result.exported if r.key is not None}
    return [summary_line(sv, exported.get(sv.key)) for sv in stored
            if sv.decision in ("accepted", "edited") and sv.applied_at is None] + result.messages


def summary_line(sv: StoredVerdict, exported: Fix | None = None) -> str:
    """``doc:line: accepted (label): ...``: the fix ``exported`` for it (where it went, if the
    claim moved), "no fix to export", or its fix "not exported" (the refusal says why)."""
    head = f"{sv.claim.doc_path}:{sv.claim.start_line}: {sv.decision} ({sv.verdict.verdict})"
    if sv.effective_fix is None:
        return f"{head}: no fix to export"
    if exported is not None:
        return f"{head}: fix for {_span(exported)}"
    return f"{head}: fix for {_span(sv.effective_fix)} not exported (reason below)"


def _span(fix: Fix) -> str:
    if fix.start_line == fix.end_line:
        return f"line {fix.start_line}"
    return f"lines {fix.start_line}-{fix.end_line}"
