"""The staleness engine: which stored verdicts no longer match the files, and where the
claims of the others are now.

Every verdict pins the hash of its claim's doc lines (``Verdict.doc_sha256``) and of
each evidence span (``EvidenceSpan.sha256``). The doc side is judged where the claim is
*now*: claim ids hash the text, not the position, so a claim found by id on other lines
that hash the same only moved (a line inserted above it). Its verdicts follow it
(``VerdictStore.relocate_many``: lines, fix, doc hash) instead of going stale; only a
claim whose id is gone from the doc, or whose lines now read differently, is stale
(``locate``). Two conventions are in use for evidence: the static reviewer hashes the
span's lines, the Claude reviewer hashes the indexed chunk(s) the span lies on
(``textutil.evidence_sha256``). Evidence is fresh if either still matches. The live
watcher calls ``update`` after each refresh; the app calls it when it opens a doc.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from caas_tui.errors import CaasError
from caas_tui.models import Chunk, Claim, EvidenceSpan
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.extract import extract_claims
from caas_tui.review.decisions.codec import StoredVerdict
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import evidence_sha256, read_text, span_sha256, split_lines

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


ChunksOf = Callable[[str], "list[Chunk]"]


@dataclass(frozen=True, slots=True)
class StaleVerdict:
    """A verdict that no longer matches the files: re-review ``claim_id`` of ``doc``."""

    claim_id: str
    doc: str
    start_line: int
    end_line: int
    reviewer: str
    reason: str  # one line: what changed

    def to_json(self) -> dict[str, Any]:
        return {
            "claim_id": self.claim_id,
            "doc": self.doc,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "reviewer": self.reviewer,
            "reason": self.reason,
        }

    @classmethod
    def of(cls, sv: StoredVerdict, reason: str, span: Span | None = None) -> StaleVerdict:
        """``span``: where the claim is now, if it moved (else its recorded lines)."""
        c = sv.claim
        start, end = span or (c.start_line, c.end_line)
        return cls(c.id, c.doc_path, start, end, sv.verdict.reviewer, reason)


@dataclass(frozen=True, slots=True)
class Move:
    """A verdict whose claim moved, its lines unchanged, to ``start_line..end_line``."""

    doc: str
    claim_id: str
    reviewer: str
    start_line: int
    end_line: int
    doc_sha256: str | None  # of the new lines (the judged hash, as they read the same)


@dataclass(frozen=True, slots=True)
class Assessment:
    stale: tuple[StaleVerdict, ...]  # not yet marked, out of date now
    moves: tuple[Move, ...]  # claims that moved, stale or not: their verdicts follow


def _evidence_fresh(span: EvidenceSpan, lines: list[str] | None, chunks: list[Chunk]) -> bool:
    assert span.sha256 is not None
    if lines is not None and span_sha256(lines, span.start_line, span.end_line) == span.sha256:
        return True
    # Claude's convention: the hash of the (non-api) chunks the span overlaps, from the
    # index as just refreshed.
    overlapping = [c for c in chunks if c.start_line <= span.end_line and c.end_line >= span.start_line]
    primary = [c for c in overlapping if c.kind != "api"] or overlapping
    primary.sort(key=lambda c: (c.start_line, c.end_line, c.id))
    return bool(primary) and evidence_sha256(primary) == span.sha256


def judge(sv: StoredVerdict, docs: DocCache, chunks_of: ChunksOf) -> tuple[str | None, Span | None]:
    """(what changed under the verdict, or None while it holds; where its claim is now,
    or None when its text changed or is gone)."""
    claim = sv.claim
    if docs.lines(claim.doc_path) is None:
        return f"{claim.doc_path} is gone", None
    span = where(sv, docs)
    if span is None:
        return f"{claim.doc_path}:{claim.start_line}-{claim.end_line} changed", None
    for ev in sv.verdict.evidence:
        if ev.sha256 and not _evidence_fresh(ev, docs.lines(ev.path), chunks_of(ev.path)):
            return f"evidence {ev.path}:{ev.start_line}-{ev.end_line} changed", span
    return None, span


def _touches(sv: StoredVerdict, paths: Collection[str]) -> bool:
    return sv.claim.doc_path in paths or any(span.path in paths for span in sv.verdict.evidence)


def assess(engine: Engine, verdicts: list[StoredVerdict], paths: Collection[str] | None = None) -> Assessment:
    """Which verdicts are out of date (not yet marked) and which claims moved; only
    verdicts touching ``paths`` when given (the files a refresh changed). Writes nothing."""
    docs = DocCache(engine.resolve_path)
    chunks: dict[str, list[Chunk]] = {}

    def chunks_of(path: str) -> list[Chunk]:
        if path not in chunks:
            chunks[path] = engine.chunks_for_path(path)
        return chunks[path]

    stale: list[StaleVerdict] = []
    moves: list[Move] = []
    for sv in verdicts:
        if paths is not None and not _touches(sv, paths):
            continue
        if sv.verdict.verdict == "stale":  # judged already; it may still have moved
            reason, span = None, where(sv, docs)
        else:
            reason, span = judge(sv, docs, chunks_of)
        if span is not None and moved(sv, span):
            doc = docs.lines(sv.claim.doc_path) or []
            moves.append(Move(sv.claim.doc_path, sv.claim.id, sv.verdict.reviewer, *span,
                              span_sha256(doc, *span) if sv.judged_doc_sha256 else None))
        if reason:
            stale.append(StaleVerdict.of(sv, reason, span))
    return Assessment(tuple(stale), tuple(moves))


def check(engine: Engine, verdicts: list[StoredVerdict], paths: Collection[str] | None = None) -> list[StaleVerdict]:
    """Verdicts (not yet marked stale) that are out of date; only those touching ``paths``
    when given. A claim that only moved is not out of date."""
    return list(assess(engine, verdicts, paths).stale)


def update(engine: Engine, store: VerdictStore, paths: Collection[str] | None = None) -> list[StaleVerdict]:
    """Move the verdicts of claims that moved, then mark the out-of-date ones stale (so a
    verdict marked stale records its claim's current lines); the ones newly marked."""
    found = assess(engine, store.all(), paths)
    store.relocate_many((m.doc, m.claim_id, m.start_line, m.end_line, m.doc_sha256, m.reviewer) for m in found.moves)
    for s in found.stale:
        store.mark_stale(s.doc, [s.claim_id], s.reviewer, reason=s.reason)
    return list(found.stale)


def stale_verdicts(engine: Engine) -> list[StaleVerdict]:
    """Every stale verdict: already marked, or out of date on disk now, at the lines its
    claim is on now. Writes nothing (a moved claim is reported where it is)."""
    store = VerdictStore.open_existing(engine.cfg)
    if store is None:
        return []
    try:
        verdicts = store.all()
    finally:
        store.close()
    found = assess(engine, verdicts)
    now = {(m.doc, m.claim_id, m.reviewer): (m.start_line, m.end_line) for m in found.moves}
    marked = [StaleVerdict.of(sv, sv.verdict.rationale.removeprefix("stale: "), now.get(sv.key))
              for sv in verdicts if sv.verdict.verdict == "stale"]
    return sorted(marked + list(found.stale), key=lambda s: (s.doc, s.start_line, s.claim_id, s.reviewer))
