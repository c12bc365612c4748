"""Where a reviewed claim is now, and whether its doc lines still read as judged.

Claim ids hash a claim's text, not its position, so a claim that only moved (a line
inserted or removed above it) keeps its id. Judging a verdict at the lines it was
recorded at would call such a claim changed; finding it by id first does not. Shared
by the verdict store (``refresh_staleness``) and the live watcher (``live.freshness``),
so both agree on what a moved claim is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from caas_tui.errors import CaasError
from caas_tui.models import Claim, EvidenceSpan, Fix
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.storecodec import StoredVerdict, fix_from, fix_json
from caas_tui.review.textutil import read_text, span_sha256, split_lines, text_sha256

Span = tuple[int, int]  # 1-based, inclusive


class DocCache:
    """Each file's lines, and each doc's claims by id, read at most once per check."""

    def __init__(self, resolve: Callable[[str], Path]) -> None:
        self._resolve = resolve
        self._text: dict[str, str | None] = {}
        self._lines: dict[str, list[str] | None] = {}
        self._claims: dict[str, dict[str, Claim]] = {}

    def text(self, path: str) -> str | None:
        if path not in self._text:
            try:
                self._text[path] = read_text(self._resolve(path))
            except CaasError:  # gone, unreadable or outside the root: the caller decides what that means
                self._text[path] = None
        return self._text[path]

    def lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            text = self.text(path)
            self._lines[path] = None if text is None else split_lines(text)
        return self._lines[path]

    def claims(self, path: str) -> dict[str, Claim]:
        if path not in self._claims:
            text = self.text(path)
            # The same extraction the app and the reviewers use, so ids line up with theirs.
            self._claims[path] = {} if text is None else {c.id: c for c in extract_claims(path, text)}
        return self._claims[path]


def locate(sv: StoredVerdict, doc: Sequence[str], current: Mapping[str, Claim]) -> Span | None:
    """The lines the verdict's claim is on now, if they still read exactly as judged;
    None when its text changed or is gone (the verdict is stale on the doc side).

    A claim found by id is judged at its current lines. One whose id is not among the
    doc's claims is judged at its recorded lines, as before ids were consulted: ids made
    elsewhere, or by an older claim splitter, must not turn every verdict stale.
    Exact lines (not just the same normalised text) are required because a fix replaces
    whole lines: moving a fix onto lines that changed around the claim would undo that
    change on export.
    """
    found = current.get(sv.claim.id)
    start, end = (found.start_line, found.end_line) if found is not None else (sv.claim.start_line, sv.claim.end_line)
    judged = sv.judged_doc_sha256
    if judged and span_sha256(doc, start, end) != judged:
        return None
    return start, end


def where(sv: StoredVerdict, docs: DocCache) -> Span | None:
    """``locate`` against the doc as it is on disk; None when the doc is gone too."""
    doc = docs.lines(sv.claim.doc_path)
    return None if doc is None else locate(sv, doc, docs.claims(sv.claim.doc_path))


def moved(sv: StoredVerdict, span: Span | None) -> bool:
    return span is not None and span != (sv.claim.start_line, sv.claim.end_line)


# -- moving a verdict's fix with its claim (stored as JSON) ----------------------------------
def shift_fix_json(text: str | None, offset: int) -> str | None:
    fix = fix_from(text)
    return None if fix is None else fix_json(Fix(fix.start_line + offset, fix.end_line + offset, fix.replacement))


def shift_original(text: str | None, offset: int, doc_sha256: str | None) -> str | None:
    """A stale verdict's ``original`` (the verdict as judged) with its fix moved and, if
    given, the hash of its claim's new lines."""
    if not text:
        return text
    data = json.loads(text)
    if data.get("fix"):
        fix = data["fix"]
        data["fix"] = {**fix, "start_line": int(fix["start_line"]) + offset, "end_line": int(fix["end_line"]) + offset}
    if doc_sha256:
        data["doc_sha256"] = doc_sha256
    return json.dumps(data)


# -- the store's own evidence convention ---------------------------------------------------
def chunk_hash(engine: Engine, span: EvidenceSpan, lines: list[str]) -> str | None:
    """The other evidence convention (the Claude reviewer's): the hash of the indexed
    chunk(s) the span lies on. Recomputed from the file's current lines within those
    chunks' bounds, so an index that hasn't caught up yet can't vouch for a change."""
    chunks = [c for c in engine.chunks_for_path(span.path) if c.start_line <= span.end_line and c.end_line >= span.start_line]
    primary = sorted([c for c in chunks if c.kind != "api"] or chunks, key=lambda c: (c.start_line, c.end_line, c.id))
    if not primary:
        return None
    return text_sha256("\n".join("\n".join(lines[c.start_line - 1 : c.end_line]) for c in primary))


def judge(
    sv: StoredVerdict, docs: DocCache, chunk_hash_of: Callable[[EvidenceSpan, list[str]], str | None]
) -> tuple[str | None, Span | None]:
    """(why the verdict is stale or None, where its claim is now or None) — the store's check."""
    c = sv.claim
    if docs.lines(c.doc_path) is None:
        return "the doc is gone", None
    span = where(sv, docs)
    if span is None:
        return f"{c.doc_path}:{c.start_line} changed", None
    for ev in sv.verdict.evidence:
        if not ev.sha256:
            continue
        lines = docs.lines(ev.path)
        if lines is not None and span_sha256(lines, ev.start_line, ev.end_line) == ev.sha256:
            continue  # the span's own lines are unchanged
        if lines is not None and chunk_hash_of(ev, lines) == ev.sha256:
            continue  # hashed as the indexed chunk(s) it lies on, which are unchanged
        return f"evidence {ev.path}:{ev.start_line}-{ev.end_line} changed", span
    return None, span


def assess(
    engine: Engine, verdicts: Sequence[StoredVerdict]
) -> tuple[list[tuple[StoredVerdict, str]], list[tuple[StoredVerdict, Span]]]:
    """The store's check: (verdicts newly out of date with why, verdicts whose claim moved
    with where to). A verdict already stale is not judged again, but may still move."""
    docs = DocCache(engine.resolve_path)
    changed: list[tuple[StoredVerdict, str]] = []
    moves: list[tuple[StoredVerdict, Span]] = []
    for sv in verdicts:
        if sv.verdict.verdict == "stale":
            reason, span = None, where(sv, docs)
        else:
            reason, span = judge(sv, docs, lambda ev, lines: chunk_hash(engine, ev, lines))
        if span is not None and moved(sv, span):
            moves.append((sv, span))
        if reason:
            changed.append((sv, reason))
    return changed, moves
