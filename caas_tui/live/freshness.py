"""Verdict freshness: after a refresh, verdicts whose doc lines or evidence changed turn
``stale`` in the verdict store, and the watcher reports which.

Every verdict pins the hash of its claim's doc lines (``Verdict.doc_sha256``) and of
each evidence span (``EvidenceSpan.sha256``). Two conventions are in use for evidence:
the static reviewer hashes the span's lines, the Claude reviewer hashes the indexed
chunk(s) the span lies on (``claude_schema.evidence_sha256``). Evidence is fresh if
either still matches; ``VerdictStore.refresh_staleness`` only knows the first, so this
module decides and marks through the store's public ``mark_stale``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from caas_tui.errors import CaasError
from caas_tui.index.store import RefreshStats
from caas_tui.models import Chunk, EvidenceSpan
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claude_schema import evidence_sha256
from caas_tui.review.store import STORE_FILE, VerdictStore
from caas_tui.review.storecodec import StoredVerdict
from caas_tui.review.textutil import read_text, span_sha256, split_lines

Lines = Callable[[str], "list[str] | None"]


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
    def of(cls, sv: StoredVerdict, reason: str) -> StaleVerdict:
        c = sv.claim
        return cls(c.id, c.doc_path, c.start_line, c.end_line, sv.verdict.reviewer, reason)


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


def why_stale(sv: StoredVerdict, lines_of: Lines, chunks_of: Callable[[str], list[Chunk]]) -> str | None:
    """What changed under a verdict, or None while it still holds."""
    claim = sv.claim
    doc = lines_of(claim.doc_path)
    if doc is None:
        return f"{claim.doc_path} is gone"
    if sv.verdict.doc_sha256 and span_sha256(doc, claim.start_line, claim.end_line) != sv.verdict.doc_sha256:
        return f"{claim.doc_path}:{claim.start_line}-{claim.end_line} changed"
    for span in sv.verdict.evidence:
        if span.sha256 and not _evidence_fresh(span, lines_of(span.path), chunks_of(span.path)):
            return f"evidence {span.path}:{span.start_line}-{span.end_line} changed"
    return None


def _line_reader(engine: Engine) -> Lines:
    cache: dict[str, list[str] | None] = {}

    def lines_of(path: str) -> list[str] | None:
        if path not in cache:
            try:
                cache[path] = split_lines(read_text(engine.resolve_path(path)))
            except CaasError:
                cache[path] = None
        return cache[path]

    return lines_of


def _open_store(engine: Engine) -> VerdictStore | None:
    """The verdict store if one exists; never creates it (nothing reviewed yet: nothing to check)."""
    if not (engine.cfg.caas_dir / STORE_FILE).is_file():
        return None
    return VerdictStore.open(engine.cfg)


def _touches(sv: StoredVerdict, paths: Collection[str]) -> bool:
    return sv.claim.doc_path in paths or any(span.path in paths for span in sv.verdict.evidence)


def check(engine: Engine, verdicts: list[StoredVerdict], paths: Collection[str] | None = None) -> list[StaleVerdict]:
    """Verdicts (not yet marked stale) that are out of date; only those touching ``paths``
    when given (the files a refresh changed)."""
    lines_of = _line_reader(engine)
    chunks: dict[str, list[Chunk]] = {}

    def chunks_of(path: str) -> list[Chunk]:
        if path not in chunks:
            chunks[path] = engine.chunks_for_path(path)
        return chunks[path]

    out: list[StaleVerdict] = []
    for sv in verdicts:
        if sv.verdict.verdict == "stale" or (paths is not None and not _touches(sv, paths)):
            continue
        reason = why_stale(sv, lines_of, chunks_of)
        if reason:
            out.append(StaleVerdict.of(sv, reason))
    return out


def mark_stale(engine: Engine, stats: RefreshStats) -> tuple[StaleVerdict, ...]:
    """After a refresh: mark verdicts on the changed files stale; the ones newly marked."""
    changed = {*stats.added, *stats.changed, *stats.removed}
    if not changed and not stats.rebuilt:
        return ()
    store = _open_store(engine)
    if store is None:
        return ()
    try:
        stale = check(engine, store.all(), None if stats.rebuilt else changed)
        for s in stale:
            store.mark_stale(s.doc, [s.claim_id], s.reviewer, reason=s.reason)
    except sqlite3.Error as exc:  # e.g. locked by a review writing for longer than the busy timeout
        raise CaasError(f"verdict store: {exc}") from exc
    finally:
        store.close()
    return tuple(stale)


def stale_verdicts(engine: Engine) -> list[StaleVerdict]:
    """Every stale verdict: already marked, or out of date on disk now. Writes nothing."""
    if not (engine.cfg.caas_dir / STORE_FILE).is_file():
        return []
    store = VerdictStore.open(engine.cfg)
    try:
        verdicts = store.all()
    finally:
        store.close()
    marked = [StaleVerdict.of(sv, sv.verdict.rationale.removeprefix("stale: ")) for sv in verdicts if sv.verdict.verdict == "stale"]
    found = marked + check(engine, verdicts)
    return sorted(found, key=lambda s: (s.doc, s.start_line, s.claim_id, s.reviewer))
