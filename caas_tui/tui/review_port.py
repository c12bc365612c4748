"""The app's adapter to ``caas_tui.review``: claims, reviewers, the verdict store, patches.

One claim can hold verdicts from several reviewers (static, claude); the app shows
the most recently updated one, and a decision applies to that reviewer's verdict.
Store calls happen on the session's store thread; ``review`` runs in a review worker.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from typing import Any

from caas_tui.config import Config
from caas_tui.errors import CaasError
from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.base import ReviewProgress
from caas_tui.review.claims import extract_claims
from caas_tui.review.patch import apply_fixes, build_patch, requests_from
from caas_tui.review.static import StaticReviewer
from caas_tui.review.store import VerdictStore
from caas_tui.review.storecodec import StoredVerdict
from caas_tui.review.textutil import read_text, span_sha256, split_lines
from caas_tui.tui.state import ClaimState

STATIC_BATCH = 8  # claims per static review call: cancel is checked between batches


def to_state(sv: StoredVerdict) -> ClaimState:
    stale = sv.verdict.verdict == "stale"
    return ClaimState(
        verdict=sv.verdict,
        decision=sv.decision,
        replacement=sv.edited_fix,
        stale=stale,
        original=sv.original,
        proposed_fix=sv.proposed_fix,
    )


class ReviewPort:
    def __init__(self, engine: Engine, cfg: Config) -> None:
        self.engine = engine
        self.cfg = cfg
        self.store = VerdictStore.open(cfg)
        # Verdicts whose doc or evidence lines changed while the app was closed.
        self.store.refresh_staleness(engine)

    def close(self) -> None:
        self.store.close()

    # -- claims and their states ------------------------------------------------------
    def doc_lines(self, path: str) -> list[str]:
        return split_lines(read_text(self.engine.resolve_path(path)))

    def claims(self, path: str) -> list[Claim]:
        return extract_claims(path, read_text(self.engine.resolve_path(path)))

    def _latest(self, doc_path: str) -> dict[str, StoredVerdict]:
        latest: dict[str, StoredVerdict] = {}
        for sv in self.store.all(doc_path):
            have = latest.get(sv.claim.id)
            if have is None or sv.updated_at > have.updated_at:
                latest[sv.claim.id] = sv
        return latest

    def states(self, claims: Sequence[Claim]) -> dict[str, ClaimState]:
        """Latest state per claim; verdicts whose doc lines changed are marked stale first."""
        if not claims:
            return {}
        doc_path = claims[0].doc_path
        latest = self._latest(doc_path)
        lines = self.doc_lines(doc_path)
        wanted = {c.id: c for c in claims}
        changed = [
            sv.claim.id for cid, sv in latest.items()
            if cid in wanted and sv.verdict.verdict != "stale" and sv.judged_doc_sha256
            and span_sha256(lines, wanted[cid].start_line, wanted[cid].end_line) != sv.judged_doc_sha256
        ]
        if changed:
            self.store.mark_stale(doc_path, changed, reason=f"{doc_path} changed since the review")
            latest = self._latest(doc_path)
        return {cid: to_state(sv) for cid, sv in latest.items() if cid in wanted}

    # -- reviewing (review worker thread) ---------------------------------------------
    def review(
        self,
        claims: Sequence[Claim],
        reviewer: str,
        *,
        progress: ReviewProgress,
        on_usage: Callable[[Any], None],
        cancel: threading.Event,
    ) -> list[Verdict]:
        """Verdicts for the claims reviewed before ``cancel`` was set, stamped with doc hashes."""
        if reviewer == "claude":
            from caas_tui.review.claude import CANCELLED, ClaudeReviewer

            claude = ClaudeReviewer.from_env(self.cfg, on_usage=on_usage)
            verdicts = claude.review(claims, self.engine, progress=progress, cancel=cancel)
            # A claim the cancel stopped has no real verdict: keep whatever it had before.
            pairs = [(c, v) for c, v in zip(claims, verdicts) if v.rationale != CANCELLED]
        else:
            static = StaticReviewer()
            pairs = []
            for start in range(0, len(claims), STATIC_BATCH):
                if cancel.is_set():
                    break
                batch = list(claims[start : start + STATIC_BATCH])
                done = len(pairs)

                def step(i: int, _total: int, message: str, done: int = done) -> None:
                    progress(done + i, len(claims), message)

                pairs += list(zip(batch, static.review(batch, self.engine, progress=step)))
        lines_by_doc: dict[str, list[str]] = {}
        out: list[Verdict] = []
        for claim, verdict in pairs:
            lines = lines_by_doc.get(claim.doc_path)
            if lines is None:
                lines = lines_by_doc[claim.doc_path] = self.doc_lines(claim.doc_path)
            out.append(dataclasses.replace(verdict, doc_sha256=span_sha256(lines, claim.start_line, claim.end_line)))
        return out

    # -- the store (store thread) -----------------------------------------------------
    def record(self, claims: Sequence[Claim], verdicts: Sequence[Verdict]) -> dict[str, ClaimState]:
        by_id = {c.id: c for c in claims}
        pairs = [(by_id[v.claim_id], v) for v in verdicts if v.claim_id in by_id]
        if not pairs:
            return {}
        doc_paths = {c.doc_path for c, _ in pairs}
        whole_doc = len(doc_paths) == 1 and len(pairs) == len(claims) and len(claims) > 1
        if whole_doc:
            # A full review of the doc also retires verdicts of claims no longer in it.
            self.store.record_review(pairs[0][0].doc_path, pairs[0][1].reviewer, pairs)
        else:
            self.store.record_many(pairs)
        return self.states([c for c, _ in pairs])

    def decide(self, claim: Claim, decision: str, replacement: str | None = None) -> ClaimState:
        latest = self._latest(claim.doc_path).get(claim.id)
        if latest is None:
            raise CaasError("review this claim first: c (static) or ctrl+r (Claude)")
        sv = self.store.decide(claim.doc_path, claim.id, latest.verdict.reviewer, decision, replacement)
        return to_state(sv)

    def undo(self) -> tuple[str, ClaimState] | None:
        sv = self.store.undo_last_decision()
        return None if sv is None else (sv.claim.id, to_state(sv))

    # -- export -----------------------------------------------------------------------
    def patch(self) -> tuple[str, list[str]]:
        """The unified diff of every accepted or edited fix, and why any fix was left out."""
        result = build_patch(self.engine.root, requests_from(self.store.accepted_fixes()))
        return result.diff, result.messages

    def apply(self) -> tuple[list[str], list[str]]:
        """Write the fixes into the docs; returns (files written, refusals)."""
        result = apply_fixes(self.engine.root, requests_from(self.store.accepted_fixes()))
        if result.files:
            self.engine.refresh()
            self.store.refresh_staleness(self.engine)
        return list(result.files), result.messages
