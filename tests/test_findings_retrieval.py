"""Regression net: the writer's query for each planted defect surfaces its evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import first_match_rank, load_findings, recall_table

from .conftest import SAMPLE


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    eng = Engine.open(SAMPLE, index_dir=tmp_path_factory.mktemp("sample-index"))
    yield eng
    eng.close()


def test_every_defect_has_evidence_in_hybrid_top5(engine: Engine) -> None:
    defects = [f for f in load_findings(SAMPLE / "FINDINGS.toml") if f.is_defect]
    assert len(defects) >= 10
    missed = {}
    for f in defects:
        rank = first_match_rank(engine.search(f.query, 5, mode="hybrid"), f.evidence)
        if rank is None:
            missed[f.id] = f.query
    assert not missed, f"evidence not in hybrid top 5: {missed}"


def test_recall_table_counts(engine: Engine, tmp_path: Path) -> None:
    findings = load_findings(SAMPLE / "FINDINGS.toml")
    rows, ranks = recall_table(findings, lambda q: engine.search(q, 10))
    overall = rows[-1]
    assert overall.category == "all" and overall.n == len(findings)
    assert 0.0 <= overall.recall_at_1 <= overall.recall_at_5 <= 1.0
    assert set(ranks) == {f.id for f in findings}
