"""Regression: graph expansion must not cost evidence recall on the demo's planted findings.

Same measure as ``bench/chains.py``: a finding is recalled at 5 when one of the hits
of ``search(finding.query, 5[, expand=True])`` overlaps one of its evidence spans.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import Finding, hit_matches, load_findings

from .conftest import SAMPLE

K = 5


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    if not (SAMPLE / "FINDINGS.toml").is_file():
        pytest.skip("sample_project/FINDINGS.toml is not there")
    # Index outside the sample so the repository's copy is never written to.
    eng = Engine.open(SAMPLE, index_dir=tmp_path_factory.mktemp("findings-index"))
    try:
        yield eng
    finally:
        eng.close()


def _recall(engine: Engine, findings: list[Finding], *, expand: bool) -> tuple[dict[str, float], dict[str, float]]:
    """(finding recall, evidence-span recall) per category and ``overall``."""
    found: dict[str, list[bool]] = defaultdict(list)
    spans: dict[str, list[bool]] = defaultdict(list)
    for f in findings:
        hits = engine.search(f.query, K, expand=expand)
        covered = [any(hit_matches(h, (span,)) for h in hits) for span in f.evidence]
        for cat in (f.category, "overall"):
            found[cat].append(any(covered))
            spans[cat].extend(covered)
    return ({c: sum(v) / len(v) for c, v in found.items()}, {c: sum(v) / len(v) for c, v in spans.items()})


def test_expand_keeps_recall(engine: Engine) -> None:
    findings = load_findings(Path(SAMPLE) / "FINDINGS.toml")
    plain, plain_spans = _recall(engine, findings, expand=False)
    expanded, expanded_spans = _recall(engine, findings, expand=True)
    report = f"plain={plain} expand={expanded} spans plain={plain_spans} expand={expanded_spans}"
    assert expanded["single-file"] >= plain["single-file"], report
    assert expanded["overall"] >= plain["overall"], report
    # what expansion is for: more of the evidence a claim depends on, never less
    for cat in plain_spans:
        assert expanded_spans[cat] >= plain_spans[cat], report
    assert expanded_spans["cross-file"] > plain_spans["cross-file"], report
