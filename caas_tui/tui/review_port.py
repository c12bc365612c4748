"""The app's adapter to ``caas_tui.review``: claims, reviewers, the verdict store, patches.

One claim can hold verdicts from several reviewers (static, claude, execute); the app shows
the most recently updated one, except that between a static verdict and a run of the code
the stronger evidence decides (the other is shown beside it), and a decision applies to the
shown reviewer's verdict.
Store calls happen on the session's store thread; ``review`` runs in a review worker.

Staleness is decided by ``caas_tui.live.freshness`` (it knows both evidence-hash
conventions, and moves verdicts along with claims that only moved) and marked through
``VerdictStore.mark_stale``; the store's own ``refresh_staleness`` only knows one
convention, so it is not called here. While the app runs, the live watcher is the only
thing that refreshes the index.

A claim whose text was edited gets a new id; its old verdict is shown (stale) on the
claim now on its lines until that claim is reviewed, which retires the old verdict
(``VerdictStore.retire``) so nothing keeps counting it as stale.
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
from caas_tui.review.base import Reviewer, ReviewProgress
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions import StoredVerdict, VerdictStore, apply_fixes, build_patch, requests_from
from caas_tui.review.decisions import update_staleness as update_freshness
from caas_tui.review.decisions.patch import export_summary, summary_line
from caas_tui.review.execute import REVIEWER, ExecuteReviewer
from caas_tui.review.merge import deciding_verdict, execute_pairs_to_store
from caas_tui.review.runner import review_claims
from caas_tui.review.static import StaticReviewer
from caas_tui.review.textutil import read_text, span_sha256, split_lines
from caas_tui.tui.state import ClaimState


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewBatch:
    """What one review run gives the app: its verdicts, the docs' warnings (broken structure,
    the claims-per-doc limit), the execute reviewer's notes (which Python, what the sandbox
    does not isolate), and whether it covered every doc (not cancelled)."""

    verdicts: tuple[Verdict, ...]
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    complete: bool = True


def to_state(sv: StoredVerdict, also: tuple[Verdict, ...] = ()) -> ClaimState:
    stale = sv.verdict.verdict == "stale"
    return ClaimState(
        also=also,
        verdict=sv.verdict,
        decision=sv.decision,
        replacement=sv.edited_fix,
        stale=stale,
        original=sv.original,
        proposed_fix=sv.proposed_fix,
        decided=sv.decided if sv.decided_differs else None,
        decided_at=sv.decided_at,
    )


_RIVALS = ("static", REVIEWER)  # a static guess and a run of the same block: the stronger evidence decides


class ReviewPort:
    def __init__(self, engine: Engine, cfg: Config) -> None:
        self.engine = engine
        self.cfg = cfg
        self.store = VerdictStore.open(cfg)
        # Claims that moved, and verdicts whose claim text or evidence changed, while the app
        # was closed (the watcher only checks the files it sees change from now on).
        update_freshness(engine, self.store)

    def close(self) -> None:
        self.store.close()

    # -- claims and their states ------------------------------------------------------
    def doc_lines(self, path: str) -> list[str]:
        return split_lines(read_text(self.engine.resolve_path(path)))

    def claims(self, path: str) -> list[Claim]:
        return extract_claims(path, read_text(self.engine.resolve_path(path)))

    def _latest(self, doc_path: str) -> dict[str, StoredVerdict]:
        return {cid: shown for cid, (shown, _) in self._shown(doc_path).items()}

    def _shown(self, doc_path: str) -> dict[str, tuple[StoredVerdict, tuple[Verdict, ...]]]:
        """Per claim: the verdict the app shows (and a decision applies to), and the other
        reviewer's verdict beside it. The most recent one, except between a static verdict and a
        run of the code, where the stronger evidence decides (``deciding_verdict``; ties: recent)."""
        every: dict[str, list[StoredVerdict]] = {}
        for sv in self.store.all(doc_path):
            every.setdefault(sv.claim.id, []).append(sv)
        out: dict[str, tuple[StoredVerdict, tuple[Verdict, ...]]] = {}
        for cid, svs in every.items():
            svs.sort(key=lambda sv: sv.updated_at, reverse=True)
            recent = svs[0]
            rivals = [sv for sv in svs if sv.verdict.reviewer in _RIVALS and sv.verdict.verdict != "stale"]
            if recent.verdict.reviewer not in _RIVALS or recent not in rivals or len(rivals) < 2:
                out[cid] = (recent, ())
                continue
            best = deciding_verdict([sv.verdict for sv in rivals])
            shown = next(sv for sv in rivals if sv.verdict is best)
            out[cid] = (shown, tuple(sv.verdict for sv in rivals if sv is not shown))
        return out

    def states(self, claims: Sequence[Claim], *, mark: bool = True) -> dict[str, ClaimState]:
        """Latest state per claim; verdicts whose doc lines changed are marked stale first
        (``mark=False``: only shown stale, the store is left as it is, for counts).

        A claim whose text was edited gets a new id, so its old verdict no longer matches
        it by id: that verdict is carried over (stale) to the claim now on its lines, so
        the writer sees what needs another look.
        """
        if not claims:
            return {}
        doc_path = claims[0].doc_path
        shown = self._shown(doc_path)
        latest = {cid: sv for cid, (sv, _) in shown.items()}
        lines = self.doc_lines(doc_path)
        wanted = {c.id: c for c in claims}
        changed = [
            sv.claim.id for cid, sv in latest.items()
            if cid in wanted and sv.verdict.verdict != "stale" and sv.judged_doc_sha256
            and span_sha256(lines, wanted[cid].start_line, wanted[cid].end_line) != sv.judged_doc_sha256
        ]
        unjudged = [c for c in claims if c.id not in latest]
        carried: dict[str, StoredVerdict] = {}
        if unjudged and len(latest) > len(wanted) - len(unjudged):
            # Some verdicts belong to no claim of this batch: orphans only if no claim of the doc has their id.
            current = {c.id for c in self.claims(doc_path)}
            carried = carry_over(unjudged, [sv for cid, sv in latest.items() if cid not in current])
            changed += [sv.claim.id for sv in carried.values() if sv.verdict.verdict != "stale"]
        if changed and mark:
            self.store.mark_stale(doc_path, changed, reason=f"{doc_path} changed since the review")
            shown = self._shown(doc_path)
            latest = {cid: sv for cid, (sv, _) in shown.items()}
            carried = {cid: latest.get(sv.claim.id, sv) for cid, sv in carried.items()}
        out = {cid: to_state(sv, shown[cid][1]) for cid, sv in latest.items() if cid in wanted}
        if not mark:
            out.update({cid: dataclasses.replace(out[cid], stale=True) for cid in changed if cid in out})
        out.update({cid: dataclasses.replace(to_state(sv), stale=True) for cid, sv in carried.items()})
        return out

    def stale_claims(self, doc_paths: Sequence[str]) -> list[Claim]:
        """The current claims of these docs whose verdicts are stale (what "re-review stale" checks)."""
        out: list[Claim] = []
        for doc_path in doc_paths:
            try:
                claims = self.claims(doc_path)
            except CaasError:
                continue  # the doc is gone: nothing left to re-review there
            states = self.states(claims)
            out += [c for c in claims if c.id in states and states[c.id].stale]
        return out

    # -- reviewing (review worker thread) ---------------------------------------------
    def review(
        self,
        claims: Sequence[Claim],
        reviewer: str,
        *,
        progress: ReviewProgress,
        on_usage: Callable[[Any], None],
        cancel: threading.Event,
    ) -> ReviewBatch:
        """Verdicts for the claims reviewed before ``cancel`` was set, stamped with doc hashes.

        Every claim goes through ``review_claims``, the path the CLI and MCP take too, so it
        is judged in the context of its whole doc (names earlier blocks bound), one doc at a
        time: cancel is checked between docs (a static review of a doc takes well under a second).
        ``execute`` runs the docs' code and keeps only the runs that outrank the static verdict,
        as ``review --execute`` stores them.
        """
        judge: Reviewer
        cancelled: str | None = None  # the rationale of a claim the cancel stopped (Claude)
        executor: ExecuteReviewer | None = None
        if reviewer == "claude":
            from caas_tui.review.claude import CANCELLED, ClaudeReviewer

            judge, cancelled = _Cancellable(ClaudeReviewer.from_env(self.cfg, on_usage=on_usage), cancel), CANCELLED
        elif reviewer == REVIEWER:
            judge = executor = ExecuteReviewer(python=self.cfg.review_python)
        else:
            judge = StaticReviewer()
        by_doc: dict[str, list[Claim]] = {}
        for claim in claims:
            by_doc.setdefault(claim.doc_path, []).append(claim)
        out: dict[str, Verdict] = {}
        warnings: list[str] = []
        done_docs = 0
        for doc_path, doc_claims in by_doc.items():
            if cancel.is_set():
                break
            done = sum(len(by_doc[d]) for d in list(by_doc)[:done_docs])

            def step(i: int, _total: int, message: str, done: int = done) -> None:
                progress(done + i, len(claims), message)

            ids = [c.id for c in doc_claims]
            result = review_claims(self.engine, doc_path, ids, judge, progress=step)
            warnings += result.warnings
            if executor is not None:
                static = review_claims(self.engine, doc_path, ids, StaticReviewer())
                out.update((v.claim_id, v) for _, v in execute_pairs_to_store(result, static))
            else:
                # A claim the cancel stopped has no real verdict: keep whatever it had before.
                out.update((v.claim_id, v) for v in result.verdicts if v.rationale != cancelled)
            done_docs += 1
        notes = tuple(executor.take_notes()) if executor is not None else ()
        complete = done_docs == len(by_doc) and (executor is not None or len(out) == len(claims))
        return ReviewBatch(tuple(out[c.id] for c in claims if c.id in out), tuple(warnings), notes, complete)

    # -- the store (store thread) -----------------------------------------------------
    def record(
        self, claims: Sequence[Claim], verdicts: Sequence[Verdict], *, whole_doc: bool = False,
        executed: bool = False,
    ) -> dict[str, ClaimState]:
        """Store verdicts; ``whole_doc``: ``claims`` are every claim of one doc (say so, don't infer:
        re-reviewing a doc's stale claims may happen to cover all of them, yet is no full review).
        ``executed``: the verdicts are a whole run of the doc's code, holding only the runs that
        decide, so execute verdicts of the doc's other claims are dropped (as the CLI does)."""
        by_id = {c.id: c for c in claims}
        pairs = [(by_id[v.claim_id], v) for v in verdicts if v.claim_id in by_id]
        if executed and whole_doc and len({c.doc_path for c in claims}) == 1:
            self.store.record_review(claims[0].doc_path, REVIEWER, pairs, present=[c.id for c in claims])
            return self.states(claims)
        if not pairs:
            return {}
        doc_paths = sorted({c.doc_path for c, _ in pairs})
        # Decided before recording: the claims reviewed now stop being "unjudged" once stored.
        replaced = {doc: self._replaced(doc, {c.id for c, _ in pairs if c.doc_path == doc}) for doc in doc_paths}
        if whole_doc and len(doc_paths) == 1 and len(pairs) == len(claims):
            # A full review of the doc also retires verdicts of claims no longer in it.
            self.store.record_review(doc_paths[0], pairs[0][1].reviewer, pairs)
        else:
            self.store.record_many(pairs)
        for doc_path, old_ids in replaced.items():
            if old_ids:
                self.store.retire(doc_path, old_ids, reason="replaced by a review of the claim now on its lines")
        out: dict[str, ClaimState] = {}
        for doc_path in doc_paths:
            out.update(self.states([c for c, _ in pairs if c.doc_path == doc_path]))
        return out

    def _replaced(self, doc_path: str, reviewed: set[str]) -> list[str]:
        """Ids of verdicts whose claim is gone from the doc and that ``states`` shows (as
        stale) on one of the ``reviewed`` claims: reviewing that claim replaces them.

        The same matching as ``states`` (``carry_over`` of every unjudged claim of the
        doc), so only the verdict the writer saw on a claim is retired by reviewing it.
        """
        try:
            claims = self.claims(doc_path)
        except CaasError:
            return []  # the doc is gone: nothing is on those lines now
        latest = self._latest(doc_path)
        current = {c.id for c in claims}
        orphans = [sv for cid, sv in latest.items() if cid not in current]
        if not orphans:
            return []
        carried = carry_over([c for c in claims if c.id not in latest], orphans)
        return [sv.claim.id for cid, sv in carried.items() if cid in reviewed]

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
        return result.diff, result.messages + self.without_fix()

    def export_preview(self) -> tuple[str, list[str]]:
        """The diff and the export summary: one line per accepted verdict (its fix, or "no fix
        to export"), then why any fix was left out; the CLI prints the same lines."""
        stored = self.store.all()
        result = build_patch(self.engine.root, requests_from(self.store.accepted_fixes()))
        return result.diff, export_summary(stored, result)

    def without_fix(self) -> list[str]:
        """Every accepted verdict the patch cannot carry, so none is silently missing from it."""
        return [summary_line(sv) for sv in self.store.all() if sv.decision == "accepted" and sv.effective_fix is None]

    def apply(self) -> tuple[list[str], list[str]]:
        """Write the fixes into the docs; returns (files written, refusals)."""
        result = apply_fixes(self.engine.root, requests_from(self.store.accepted_fixes()))
        # Not applied twice; the index and staleness follow through the live watcher.
        self.store.mark_applied(r.key for r in result.exported if r.key is not None)
        return list(result.files), result.messages


def carry_over(claims: Sequence[Claim], orphans: Sequence[StoredVerdict]) -> dict[str, StoredVerdict]:
    """Match verdicts whose claim is gone to the claims now on their lines (most overlap first).

    Each orphan goes to at most one claim and each claim gets at most one orphan.
    """
    def overlap(c: Claim, sv: StoredVerdict) -> int:
        return min(c.end_line, sv.claim.end_line) - max(c.start_line, sv.claim.start_line) + 1

    # Ties (a line edited twice leaves two orphans on it): the more recent verdict wins.
    pairs = sorted(
        ((overlap(c, sv), -abs(c.start_line - sv.claim.start_line), c.id, sv) for c in claims for sv in orphans),
        key=lambda p: (p[0], p[1], p[3].updated_at), reverse=True,
    )
    out: dict[str, StoredVerdict] = {}
    used: set[str] = set()
    for size, _, claim_id, sv in pairs:
        if size <= 0:
            break
        if claim_id not in out and sv.claim.id not in used:
            out[claim_id] = sv
            used.add(sv.claim.id)
    return out


class _Cancellable:
    """Claude through the ``Reviewer`` protocol, with the app's cancel event passed along."""

    doc_context = False

    def __init__(self, claude: Any, cancel: threading.Event) -> None:
        self.claude, self.cancel, self.name = claude, cancel, claude.name

    def review(self, claims: Sequence[Claim], engine: Engine, *, progress: ReviewProgress | None = None) -> list[Verdict]:
        verdicts: list[Verdict] = self.claude.review(claims, engine, progress=progress, cancel=self.cancel)
        return verdicts
