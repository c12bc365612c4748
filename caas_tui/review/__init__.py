"""review layer: claims -> verdicts -> decisions -> patch.

Sub-packages, following the import graph: ``claims`` (extraction), ``static`` (the
static reviewer), ``claude`` (the Claude reviewer, the only importer of ``anthropic``),
``decisions`` (the verdict store, staleness, patches). ``base``, ``runner``, ``select``
and ``textutil`` are shared by them.

Public API (stable for the TUI, MCP server and CLI)::

    extract_claims(path, text) -> list[Claim]
    StaticReviewer().review(claims, engine, progress=None) -> list[Verdict]
    make_reviewer(name, cfg) -> (Reviewer, fallback_warning | None)
    review_doc(engine, doc_path, reviewer, progress=None) -> DocReview
    review_claims(engine, doc_path, claim_ids | None, reviewer, progress=None) -> DocReview  (the one path)
    reviewable_paths(engine) -> list[str]
    VerdictStore.open(cfg) / VerdictStore(path)
    requests_from(store.accepted_fixes()) -> list[FixRequest]
    build_patch(root, requests) -> PatchResult;  apply_fixes(root, requests) -> PatchResult
    deciding_verdict(verdicts) -> Verdict;  merge_reviews(*doc_reviews) -> (DocReview, every verdict per claim)
    caas_tui.review.execute: ExecuteReviewer (runs code blocks in a sandbox), outcome_of(verdict)

``caas_tui.review.claude`` (which imports ``anthropic``) is never imported from here.
"""

from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions import (
    FixRequest,
    PatchResult,
    StoredVerdict,
    VerdictStore,
    apply_fixes,
    build_patch,
    requests_from,
)
from caas_tui.review.merge import deciding_verdict, merge_reviews
from caas_tui.review.runner import DocReview, review_claims, review_doc, reviewable_paths
from caas_tui.review.select import make_reviewer
from caas_tui.review.static import StaticReviewer

__all__ = [
    "DocReview", "FixRequest", "PatchResult", "StaticReviewer", "StoredVerdict", "VerdictStore", "apply_fixes",
    "build_patch", "deciding_verdict", "extract_claims", "make_reviewer", "merge_reviews", "requests_from",
    "review_claims", "review_doc", "reviewable_paths",
]
