"""The static reviewer against the planted findings of ``sample_project/FINDINGS.toml``:
it flags every API-surface defect and never flags a claim the manifest calls consistent."""

from __future__ import annotations

from collections import defaultdict

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import Finding, load_findings
from caas_tui.review.manifest import matching
from caas_tui.review.runner import DocReview, review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import SAMPLE

FLAGS = ("contradicted", "incomplete")


@pytest.fixture(scope="module")
def reviews(tmp_path_factory: pytest.TempPathFactory) -> dict[str, DocReview]:
    engine = Engine.open(SAMPLE, index_dir=tmp_path_factory.mktemp("sample-review-index"))
    try:
        reviewer = StaticReviewer()
        docs = sorted({f.doc for f in load_findings(SAMPLE / "FINDINGS.toml")})
        return {doc: review_doc(engine, doc, reviewer) for doc in docs}
    finally:
        engine.close()


def flagged(reviews: dict[str, DocReview], finding: Finding) -> bool:
    pairs = matching(reviews[finding.doc], finding)
    assert pairs, f"{finding.id}: no claim covers {finding.doc}:{finding.line}"
    return any(v.verdict in FLAGS for _, v in pairs)


def test_flags_every_surface_defect_and_no_consistent_claim(reviews: dict[str, DocReview]) -> None:
    findings = load_findings(SAMPLE / "FINDINGS.toml")
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    missed: list[str] = []
    false_flags: list[str] = []
    for f in findings:
        hit = flagged(reviews, f)
        row = stats[f.category]
        if f.verdict == "consistent":
            row["consistent"] += 1
            row["false_flags"] += hit
            if hit:
                false_flags.append(f.id)
        else:
            row["defects"] += 1
            row["detected"] += hit
            if f.surface:
                row["surface_defects"] += 1
                row["surface_detected"] += hit
                if not hit:
                    missed.append(f.id)
    print("\ncategory        surface det/n   all det/n   false flags/consistent")
    for category in sorted(stats):
        r = stats[category]
        print(f"{category:15} {r['surface_detected']:>6}/{r['surface_defects']:<5} "
              f"{r['detected']:>5}/{r['defects']:<5} {r['false_flags']:>6}/{r['consistent']}")
    assert sum(r["surface_defects"] for r in stats.values()) >= 5  # the manifest keeps its surface cases
    assert not missed, f"surface defects not flagged: {missed}"
    assert not false_flags, f"consistent claims flagged: {false_flags}"


def test_nothing_else_in_the_sample_docs_is_flagged_without_a_finding(reviews: dict[str, DocReview]) -> None:
    """Precision beyond the manifest: every flag lands on a planted defect's line."""
    findings = load_findings(SAMPLE / "FINDINGS.toml")
    defects = {(f.doc, f.line) for f in findings if f.verdict != "consistent"}
    stray = [
        f"{doc}:{c.start_line}: {v.rationale}"
        for doc, review in reviews.items() for c, v in review.pairs()
        if v.verdict in FLAGS and not any(d == doc and c.start_line <= line <= c.end_line for d, line in defects)
    ]
    assert not stray, stray
