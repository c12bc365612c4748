"""Matching a findings manifest's entries to the claims a review produced.

One rule, shared by the regression tests and ``bench/review.py``, so a test and the
bench never disagree about which claim a planted defect landed on.
"""

from __future__ import annotations

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.evaluate import Finding
from caas_tui.review.runner import DocReview


def _norm(text: str) -> str:
    return " ".join(text.split())


def matching(review: DocReview, finding: Finding) -> list[tuple[Claim, Verdict]]:
    """Claims covering the finding's line; those whose text matches it when there are several."""
    covering = [(c, v) for c, v in review.pairs() if c.start_line <= finding.line <= c.end_line]
    want = _norm(finding.claim)
    close = [(c, v) for c, v in covering if want[:40] in _norm(c.text) or _norm(c.text)[:40] in want]
    return close or covering
